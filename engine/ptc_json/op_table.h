// The one table of operations. Each operation is declared once: its name, its
// fields with their kinds, a description and an example. Validation and
// compilation read it; so do the JSON export (schema, prompt, docs, playground
// completion). Adding an operation is one entry here plus its evaluation: the
// engine builds with -Werror=switch and no switch over Op has a default, so
// the compiler lists every place that must decide what the new op does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/fixed_list.h"

namespace ptc {

enum class Op : uint8_t {
  // data
  Literal,
  Var,
  Load,
  Let,
  // collections
  Pipe,
  Filter,
  Reject,
  Map,
  Select,
  SortBy,
  First,
  Last,
  Nth,
  Take,
  Drop,
  Distinct,
  Count,
  Chunk,
  Scan,
  // aggregation
  Sum,
  Avg,
  Min,
  Max,
  MinBy,
  MaxBy,
  // access and introspection
  Get,
  Keys,
  Typeof,
  // comparison and membership
  Eq,
  Neq,
  Gt,
  Gte,
  Lt,
  Lte,
  Contains,
  In,
  FilterIn,
  RejectIn,
  // arithmetic
  Add,
  Sub,
  Mul,
  Div,
  Round,
  Floor,
  Ceil,
  Pct,
  // logic
  And,
  Or,
  Not,
  If,
  // tools
  Call,
  // combine (an implicit object literal compiles to Object, a list in an
  // expression position to List)
  Object,
  Merge,
  Concat,
  Zip,
  List,
  // conversions
  ToNumber,
  ToString,
  // group and reshape
  GroupBy,
  ToEntries,
  FromEntries,
  Flatten,
  FlatMap,
  // statistics
  Median,
  Percentile,
  CountDistinct,
  // text
  Length,
  Lower,
  Upper,
  Trim,
  Slice,
  Split,
  Join,
  StartsWith,
  EndsWith,
  Replace,
  Format,
  // dates
  ToTimestamp,
  FormatDate,
  DateDiff,
  DateAdd,
  DatePart,
  DateTrunc,
  // control
  Try,
  Loop,
  // Not an operation: their number. A new operation goes before it.
  End_,
};

inline constexpr size_t kOpCount = static_cast<size_t>(Op::End_);

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
};

inline constexpr size_t kMaxOpFields = 5;
using OpFields = FixedList<FieldSpec, kMaxOpFields>;

struct OpSpec {
  Op op = Op::End_;
  const char* name = nullptr;
  const char* category = nullptr;  // for readers (docs, prompt); the engine never reads it
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
};

// One entry per Op, in enum order (checked at compile time).
std::span<const OpSpec> opTable();
const OpSpec* findOp(std::string_view name);
const OpSpec& specOf(Op op);
const FieldSpec* findField(const OpSpec& spec, std::string_view name);
const char* fieldKindName(FieldKind kind);
// The table as JSON text, for the package (schema, prompt, docs, completion).
std::string opTableJson();
// The correct shape of an op, e.g. {"op": "filter", "where": <expr>}.
std::string opShape(const OpSpec& spec);
// "a"|"b"|... of a Choice field.
std::string choiceList(const FieldSpec& f);

}  // namespace ptc
