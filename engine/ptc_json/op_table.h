// The one table of operations. Each operation is declared once: its name, its
// fields with their kinds, a description, an example, and what it does: the
// function that applies it over its evaluated operands (ops/*.cpp), or the
// control case the evaluators run it with, and the shapes the preflight
// analysis and the projection read. Validation and compilation read it; so do
// the JSON export (schema, prompt, docs, playground completion). Adding an
// operation of an existing family is an enumerator in op.h, an entry in
// op_table_entries.h and its function in the family's file: no switch names ops
// (the evaluators switch over Control, projection.cpp over RowRole,
// returns_check.cpp over Sees and Gives), and the table does not compile
// with an op left out or with neither an apply function nor a control case.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/fixed_list.h"
#include "ptc_json/op.h"

namespace ptc {

class Value;  // core/value.h
struct Node;  // ptc_json/program.h

enum class FieldKind : uint8_t {
  Expr,        // an expression (operation, implicit object or literal JSON)
  ExprList,    // a list of expressions
  ExprFields,  // an object whose values are expressions (implicit-object rule)
  Json,        // literal JSON data, never evaluated
  Name,        // a non-empty string: a variable, context key or tool (Node::name)
  ItemField,   // a non-empty string: a field of the current value (Node::field)
  FieldName,   // a string, or null meaning "the current value itself" (Node::field)
  Names,       // a list of strings
  Count,       // a non-negative integer, or an operation evaluated with the list as the current value
  Precision,   // an integer 0..15
  Order,       // "asc" or "desc"
  SortKeys,    // a list of sort keys: "field" or {"field": "f", "order": "asc"|"desc"}
  Percent,     // a number from 0 to 100 (Node::data)
  Method,      // "linear" or "nearest" (Node::name)
  Choice,      // one of FieldSpec::choices (Node::name)
  Text,        // a literal text (Node::data)
  Iterations,  // an integer from 1 to kMaxLoopIterations (Node::count)
  Key,         // a non-empty string naming a field of the items of a list (Node::keys[the field's index])
};

enum class Presence : uint8_t { Required, Optional, OneOf /* exactly one of the OneOf fields */ };

// What an expression field may not be, checked at validation: a constant where
// a condition is expected is always true or always false, and a bare string
// where a computed value is expected is almost always a field name meant as
// {"op": "get", "field": ...}.
enum class Role : uint8_t {
  Value,      // anything
  Step,       // not a bare string (pipe steps, let values, map expressions)
  Predicate,  // not a constant (where, condition, the items of conditions)
};

struct FieldSpec {
  const char* name = nullptr;
  FieldKind kind = FieldKind::Expr;
  Presence presence = Presence::Optional;
  const char* description = nullptr;
  Role role = Role::Value;
  std::span<const char* const> choices = {};  // the allowed texts of a Choice field
  // The fields it may not be given with (space-separated), and what the
  // validation error says when they are (conflicting_fields): let's
  // `bindings` against `name` and `value`, sort_by's `by` against `field` and
  // `order`, var's `path` against `field`.
  const char* excludes = nullptr;
  const char* conflict = nullptr;
};

inline constexpr size_t kMaxOpFields = 5;
using OpFields = FixedList<FieldSpec, kMaxOpFields>;

// An op applied over its evaluated operands: its expression fields (n.kids)
// evaluated against the current value `in`, in order, into args[0..nargs).
// Each family's functions live in ptc_json/ops/<family>.cpp.
using ApplyFn = Value (*)(const Node& n, const Value& in, const Value* args, size_t nargs);

// The ops the evaluators run themselves, because they bind, short-circuit,
// iterate or call a tool: a case each in Evaluator::evalSync and evalAsync
// (no default: a new one does not compile until both say what it does).
enum class Control : uint8_t {
  None,  // applied over its evaluated operands (OpSpec::apply)
  Literal,
  Var,
  Load,
  Let,
  Pipe,
  Filter,  // filter, reject
  Map,     // map, flat_map
  GroupBy,
  FromEntries,
  Scan,
  Reduce,
  And,
  Or,
  If,
  Try,
  Loop,
  Lookup,    // lookup: its operands, then a probe of the run's index of `in` (evaluator_lookup.cpp)
  Quantify,  // any, all (all: `rejects`): whether some item's `where` is truthy (falsy)
  Call,
  ForEach,  // for_each: items one after another, stopping early (issue 36)
  Retry,    // retry: an expression tried again on failure (issue 36)
  Return,   // return: ends the program with its value; no try catches it (evaluator_scope.h: throwReturn)
};

// A name a control op binds while some of its fields are evaluated: its
// scopes (OpSpec::scopes). The compiler resolves "$name" by them, the analysis
// and the check of declared results follow them, and both evaluators bind
// by them (evaluator_scope.h: FieldScope): the one declaration of what an
// expression of the op sees.
enum class Binds : uint8_t {
  As,        // the text of its `as` field, when given: the item (or loop's latest result)
  Literal,   // a fixed name (ScopeSpec::name): scan's and reduce's acc, try's error
  Bindings,  // let's: `name` (with `value`) or each key of `bindings`, each of which sees the earlier ones
};

struct ScopeSpec {
  Binds binds = Binds::As;
  const char* name = nullptr;    // Literal: the name it binds
  const char* seenBy = nullptr;  // the fields that see it, by name, space-separated: "next while"
  uint8_t fields = 0;            // derived from seenBy (does): bit i when fields[i] sees it
  constexpr bool seenByField(size_t i) const { return (fields >> i) & 1u; }
};

inline constexpr size_t kMaxScopes = 2;
using OpScopes = FixedList<ScopeSpec, kMaxScopes>;

// How often a control op evaluates its expressions: the preflight analysis
// counts a tool call inside a per-item op once per item of its list.
enum class Runs : uint8_t { Once, PerItem };

// A shorter spelling the compiler expands (compiler.cpp, shortForm).
enum class ShortForm : uint8_t {
  None,
  Condition,  // filter, reject: `field` + `value` is the condition {"op": "eq", "field", "value"}
  Expr,       // map: `field` is the expression {"op": "get", "field"}
  Items,      // count, the aggregates: `where` and `expr` are the pipe [filter where, map expr, the op]
  Key,        // sort_by: `key` is the pipe [map {key, v: the item}, sort_by "key", map "v"]
};

// How group_by folds an aggregate while grouping, item by item, instead of
// running it over each group's list (ops/groups.cpp: GroupFolds).
enum class Folds : uint8_t { None, Count, Sum, Avg, Min, Max };

// What an op makes of loaded rows (projection.cpp: which fields of them a
// program can observe). Opaque, the default, is always correct: the rows
// cross whole, only slower.
enum class RowRole : uint8_t {
  Opaque,     // may see a row whole, or let one escape
  Constant,   // literal, var: reads nothing of a row
  FieldRead,  // get: one field of its input
  Logic,      // and, or, not: a row predicate when all its conditions are
  Compare,    // compares its `field` of the row with its `value` expression
  Filter,     // filter, reject: keeps rows by a row predicate
  FilterIn,   // filter_in, reject_in: keeps rows by a field in a constant set
  Sort,       // sort_by: the rows reordered by fields
  Slice,      // take, drop: a sublist (a literal count)
  Pick,       // first, last: one row
  PickAt,     // nth: one row (a literal index)
  PickBy,     // min_by, max_by: one row, chosen by a field
  Count,      // count: a number, reading nothing of the rows
  Aggregate,  // sum, avg, min, max, median...: a value of one field
  Select,     // select: the listed fields of each row
  Map,        // map: a value built from each row's fields
  Group,      // group_by: groups of rows settled by their aggs
};

// What an op's expressions see, for the check of declared tool results
// (returns_check.cpp), which follows the shape of a tool's result through the
// ops to warn of a field it does not have. Comparisons and value-level ops
// (valueOverridesInput) are followed by those properties instead.
enum class Sees : uint8_t {
  Unmodelled,  // the default, always correct: what they see, and the op's value, are unknown to the check
  Input,       // the op's current value (a list op's whole list: nth's index, take's count)
  EachItem,    // each item of its list in turn, bound to `as` too (filter, reject, map, flat_map)
};

// What an op's value is made of, in terms of its input list or its
// expressions: the check of declared results follows an item's fields
// through it, the analysis a final value's memory keys (analysis.cpp).
enum class Gives : uint8_t {
  New,         // the default, always correct: a value of its own making
  SameItems,   // some or all of its input's items, unchanged (filter, sort_by, take, distinct, filter_in)
  OneItem,     // one item of its input (first, nth, min_by)
  EachResult,  // a list of its expression's value for each item (map)
  LastKid,     // its last expression's value (a pipe's last step, a let's `in`)
  OneOfKids,   // one of its expressions' values (if's then or else, try's expr or catch)
  KeyedKids,   // an object of its keys (Node::keys), each to its expression's value (object, implicit objects)
};

// What the query planner may prove of a comparison (planner.cpp): equality
// of a field with a hoisted value, tested without the op's function, indexed
// and folded into a count or sum after the filter.
enum class Equality : uint8_t { None, Equal /* eq */, NotEqual /* neq */ };

struct OpSpec {
  Op op = Op::End_;
  const char* name = nullptr;
  const char* category = nullptr;  // for readers: only the JSON export reads it (tests/js/no-behaviour-in-strings)
  bool readsInput = false;         // needs a current value (fails with "No input available" at the top)
  OpFields fields = {};
  const char* description = nullptr;
  const char* example = nullptr;  // a complete operation, as JSON text
  // Its expression fields see the item of the innermost enclosing map rather
  // than the current value (comparisons, filter_in): inside a map, a filter's
  // {"op": "eq", "field": "id", "value": {"op": "get", "field": "owner"}}
  // compares each row with the mapped item's owner.
  bool valueSeesMapItem = false;
  // A value-level op (text, dates, conversions): it reads the current value
  // (or its `field`) unless its `value` expression is given, which then needs
  // no current value at all.
  bool valueOverridesInput = false;
  // A value-level op that is not (yet) a $function of step functions
  // (functions.cpp): each function costs the step-function prompt
  // tokens, within its budget.
  bool notAStepFunction = false;
  // What it does (see op_table_does.h's builder): exactly one of
  // `apply` and `control` (checked at compile time).
  ApplyFn apply = nullptr;
  Control control = Control::None;
  Runs runs = Runs::Once;
  // map, flat_map: comparison values inside its expression see its item
  // (valueSeesMapItem).
  bool setsMapItem = false;
  // reject: Control::Filter keeps the items whose condition is falsy.
  bool rejects = false;
  // Its value is never an object: as a program's final value it writes no
  // memory (analysis). False, the default, is always correct.
  bool neverAnObject = false;
  // Its expressions may not call tools (validation refuses them): evalAsync
  // runs it synchronously, since it folds its items as it goes (group_by's
  // aggs, from_entries, scan's accumulator).
  bool refusesCalls = false;
  ShortForm shortForm = ShortForm::None;
  // Compare is also what the planner hoists: `value` against each
  // item's `field` (planner.cpp).
  RowRole rows = RowRole::Opaque;
  Sees sees = Sees::Unmodelled;
  // Its `field` (select's `fields`, sort_by's `by`) names a field of each item
  // of its list input, not of the list (sum, min_by, filter_in, sort_by).
  bool readsItemFields = false;
  Gives gives = Gives::New;
  Folds folds = Folds::None;
  // The names it binds, and which of its fields see them (Binds).
  OpScopes scopes = {};
  // A comparison the planner proves for equality (a Compare row role).
  Equality equality = Equality::None;
  // first: a planned filter just before it stops at its first match (a Pick row role).
  bool picksFirst = false;
  // Its keyed form (op_table_keyed.h): the field that the key named after the op
  // holds in an object without "op" whose first key that is ({"call": "send",
  // "args": {...}} is call's `tool`); null when it has none.
  const char* keyed = nullptr;
};

// One entry per Op, in enum order (checked at compile time).
extern const std::array<OpSpec, kOpCount> kOpSpecs;
inline std::span<const OpSpec> opTable() { return kOpSpecs; }
inline const OpSpec& specOf(Op op) { return kOpSpecs[static_cast<size_t>(op)]; }
const OpSpec* findOp(std::string_view name);
const FieldSpec* findField(const OpSpec& spec, std::string_view name);
// Whether it binds each item (or result) to its `as` variable.
bool bindsAs(const OpSpec& spec);
// The index of the field named `name` in spec.fields, or -1.
int fieldIndex(const OpSpec& spec, std::string_view name);
const char* fieldKindName(FieldKind kind);
// The table as JSON text, for the package (schema, prompt, docs, completion).
std::string opTableJson();
// The correct shape of an op, e.g. {"op": "filter", "where": <expr>}.
std::string opShape(const OpSpec& spec);
// The shape of its keyed form, e.g. {"call": "<name>", ["args": ...]}; its op shape when it has none.
std::string keyedShape(const OpSpec& spec);
// "a"|"b"|... of a Choice field.
std::string choiceList(const FieldSpec& f);

}  // namespace ptc
