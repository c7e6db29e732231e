// The entries of the op table (op_table.h), one per Op in enum order, each
// made by `does` (op_table_does.h), which checks it while it is built at
// compile time. A header so that a constant expression can read the table:
// fieldRef (op_fields.h) finds a field by its name while compiling. Included by
// op_table.cpp and op_fields.h alone.
#pragma once

#include <array>

#include "ptc_json/op_table_does.h"
#include "ptc_json/ops/apply.h"

namespace ptc {

namespace op_entry {

using K = FieldKind;
using P = Presence;

constexpr FieldSpec field(const char* name, K kind, P presence, const char* description) {
  return FieldSpec{name, kind, presence, description};
}

constexpr FieldSpec choice(const char* name, P presence, const char* description,
                           std::span<const char* const> choices) {
  FieldSpec f = field(name, K::Choice, presence, description);
  f.choices = choices;
  return f;
}

constexpr FieldSpec withRole(Role role, FieldSpec f) {
  f.role = role;
  return f;
}

// A field that may not be given with `others` (space-separated): the
// validation error (conflicting_fields) says `conflict`.
constexpr FieldSpec excluding(const char* others, const char* conflict, FieldSpec f) {
  f.excludes = others;
  f.conflict = conflict;
  return f;
}

// A condition: a constant there is a validation error (always true or false).
constexpr FieldSpec predicate(const char* name, K kind, const char* description) {
  return withRole(Role::Predicate, field(name, kind, P::Required, description));
}

constexpr FieldSpec fieldOf(const char* description, P presence = P::Optional) {
  return field("field", K::FieldName, presence, description);
}

constexpr FieldSpec compareValue() {
  return field("value", K::Expr, P::Required, "value to compare with (an expression is evaluated against the item)");
}

// `as`: the current item is also bound as a variable, so expressions nested
// anywhere inside can read it (and compare two fields of one item).
constexpr FieldSpec asName() {
  return field("as", K::Name, P::Optional, "a variable name bound to each item (read it with var)");
}

// filter/reject: a condition, or the short form `field` + `value` for the
// condition {"op": "eq", "field": ..., "value": ...} (the compiler builds it).
constexpr OpFields filterFields() {
  return {
      withRole(Role::Predicate,
               field("where", K::Expr, P::OneOf,
                     "condition evaluated with each item as the current value; {\"tier\": \"gold\"}: fields equal")),
      field("field", K::FieldName, P::Optional, "with value: the field to compare (omit: the item)"),
      field("value", K::Expr, P::OneOf, "instead of where: the items (their field) equal to this"), asName()};
}

constexpr OpSpec seesMapItem(OpSpec spec) {
  spec.valueSeesMapItem = true;
  return spec;
}

// The texts of Choice fields (a span of a choice points at one).
inline constexpr const char* kDateFormats[] = {"datetime", "date", "month"};
inline constexpr const char* kDiffUnits[] = {"second", "minute", "hour", "day", "week"};
inline constexpr const char* kAddUnits[] = {"second", "minute", "hour", "day", "week", "month", "year"};
inline constexpr const char* kDateParts[] = {"year", "quarter", "month",  "day",      "weekday",
                                             "hour", "minute",  "second", "iso_week", "day_of_year"};
inline constexpr const char* kDecimalMarks[] = {".", ","};
inline constexpr const char* kTruncUnits[] = {"year", "quarter", "month", "week", "day", "hour", "minute"};
inline constexpr const char* kRankMethods[] = {"rank", "dense", "row"};

// The op table and its entry builders are laid out by hand, an entry per op.
// clang-format off
// `left` (kids[1] when given: `value` is required and first) is a computed
// left side instead of `field`, evaluated against the current value.
constexpr OpSpec comparison(Op op, const char* name, const char* description, const char* example) {
  return seesMapItem(OpSpec{op, name, "comparison", true,
                            {fieldOf("field of the current item to compare; omit (or null) to compare the item itself"),
                             compareValue(),
                             field("left", K::Expr, P::Optional,
                                   "instead of field: an expression to compare (it sees the current value)")},
                            description, example});
}

constexpr OpSpec binaryArithmetic(Op op, const char* name, const char* description, const char* example) {
  return OpSpec{op, name, "arithmetic", false,
                {field("left", K::Expr, P::Required, "left operand (number or expression)"),
                 field("right", K::Expr, P::Required, "right operand (number or expression)")},
                description, example};
}

constexpr OpSpec listOp(Op op, const char* name, const char* category, const char* description, const char* example,
                        OpFields fields = {}) {
  return OpSpec{op, name, category, true, fields, description, example};
}

// A value-level op (text, dates, conversions): reads the current value, or its
// `field`, or the `value` expression instead (principle 1 of the language).
constexpr OpSpec valueOp(Op op, const char* name, const char* category, const char* description,
                         const char* example, OpFields extra = {}) {
  OpFields fields = {fieldOf("field of the current value to read; omit to read the current value"),
                     field("value", K::Expr, P::Optional, "an expression to read instead")};
  for (const FieldSpec& f : extra) fields.push_back(f);
  OpSpec spec{op, name, category, true, fields, description, example};
  spec.valueOverridesInput = true;
  return spec;
}

constexpr OpSpec combine(Op op, const char* name, const char* fieldName, const char* description, const char* example) {
  return OpSpec{op, name, "combine", false,
                {field(fieldName, K::ExprList, P::Required, "list of expressions")}, description, example};
}

// clang-format on
}  // namespace op_entry
}  // namespace ptc
#include "ptc_json/op_table_entries_aggregate.h"  // count and the aggregates (where, expr), needs the builders above
#include "ptc_json/op_table_entries_flow.h"       // return and reverse (issue 36), needs the builders above
#include "ptc_json/op_table_entries_lookup.h"  // lookup, any, all, rank, descendants (issue 35), needs the builders above
#include "ptc_json/op_table_entries_text.h"    // text to data and sequences (issue 35), needs the builders above
#include "ptc_json/op_table_entries_workflow.h"  // for_each and retry (issue 36), needs the builders above
namespace ptc {
namespace op_entry {
// clang-format off

constexpr std::array<Entry, kOpCount> buildTable() {
  return {{
      // data
      does({.control = Control::Literal, .runs = Runs::Once, .rows = RowRole::Constant},
           {Op::Literal, "literal", "data", false, {field("value", K::Json, P::Required, "the value, taken literally")},
       "A literal value.", R"({"op": "literal", "value": [1, 2, 3]})"}),
      does({.control = Control::Var, .runs = Runs::Once, .rows = RowRole::Constant},
           {Op::Var, "var", "data", false,
       {field("name", K::Name, P::Required, "variable name"),
        field("field", K::ItemField, P::Optional, "read this field of the variable's value"),
        excluding("field", "takes 'field' or 'path', not both",
                  field("path", K::Names, P::Optional, "read this path of object keys of the variable's value"))},
       "A let or `as` binding, else a memory key (null when missing); `field`/`path` read inside it. "
       "Short: \"$name.field\".",
       R"({"op": "var", "name": "order", "field": "user_id"})"}),
      does({.control = Control::Load, .runs = Runs::Once},
           {Op::Load, "load", "data", false, {field("name", K::Name, P::Required, "context key")},
       "Data from the context passed to the run; null when missing. Short: \"$expenses\" (memory first).",
       R"({"op": "load", "name": "expenses"})"}),
      does({.control = Control::Let, .runs = Runs::Once, .gives = Gives::LastKid,
            .scopes = {{.binds = Binds::Bindings, .seenBy = "in"}}},
           {Op::Let, "let", "data", false,
       {field("name", K::Name, P::Optional, "variable name (with value)"),
        withRole(Role::Step, field("value", K::Expr, P::Optional, "expression whose value is bound (with name)")),
        excluding("name value", "takes either 'bindings' or 'name' and 'value', not both",
                  withRole(Role::Step, field("bindings", K::ExprFields, P::Optional,
                                             "several bindings {name: expr}, in order; each sees the earlier ones"))),
        field("in", K::Expr, P::Required, "expression evaluated with the bindings")},
       "Binds name to value, or each of `bindings` in order, for `in`.",
       R"({"op": "let", "bindings": {"n": {"op": "count"}, "half": {"op": "div", "left": {"op": "var", "name": "n"}, "right": 2}}, "in": {"op": "var", "name": "half"}})"}),
      // collections
      does({.control = Control::Pipe, .runs = Runs::Once, .gives = Gives::LastKid},
           {Op::Pipe, "pipe", "collections", false, {withRole(Role::Step, field("steps", K::ExprList, P::Required, "operations in order"))},
       "Chains operations: each step gets the previous result. Empty: null. Short form: {\"pipe\": [steps]}.",
       R"({"op": "pipe", "steps": [{"op": "load", "name": "orders"}, {"op": "count"}]})"}),
      does({.control = Control::Filter, .runs = Runs::PerItem, .shortForm = ShortForm::Condition,
            .rows = RowRole::Filter, .scopes = {{.binds = Binds::As, .seenBy = "where"}}},
           listOp(Op::Filter, "filter", "collections",
             "Keeps the items for which `where` is truthy (or `field` equals `value`); a comparison's `value` in it "
             "still sees the enclosing map's item.",
             R"({"op": "filter", "where": {"op": "gt", "field": "total", "value": 100}})", filterFields())),
      does({.control = Control::Filter, .runs = Runs::PerItem, .rejects = true, .shortForm = ShortForm::Condition,
            .rows = RowRole::Filter, .scopes = {{.binds = Binds::As, .seenBy = "where"}}},
           listOp(Op::Reject, "reject", "collections",
             "Removes the items for which `where` is truthy (or `field` equals `value`).",
             R"({"op": "reject", "field": "deleted", "value": true})", filterFields())),
      does({.control = Control::Map, .runs = Runs::PerItem, .setsMapItem = true, .shortForm = ShortForm::Expr,
            .rows = RowRole::Map, .scopes = {{.binds = Binds::As, .seenBy = "expr"}}},
           listOp(Op::Map, "map", "collections",
             "Transforms each item with `expr` (or takes its `field`); its tool calls run concurrently (for_each: in "
             "order).",
             R"({"op": "map", "expr": {"op": "get", "field": "name"}})",
             {withRole(Role::Step, field("expr", K::Expr, P::OneOf, "expression evaluated with each item as the current value")),
              field("field", K::ItemField, P::OneOf, "instead of expr: this field of each item"), asName()})),
      does({.apply = applySelect, .rows = RowRole::Select},  // an object gives an object
           listOp(Op::Select, "select", "collections",
             "Keeps only the listed fields of an object, or of each object in a list.",
             R"({"op": "select", "fields": ["id", "name"]})",
             {field("fields", K::Names, P::Required, "field names to keep")})),
      does({.apply = applySortBy, .shortForm = ShortForm::Key, .rows = RowRole::Sort},
           listOp(Op::SortBy, "sort_by", "collections",
             "Sorts a list (stable) by a field (\"-f\": descending), several (`by`) or `key` (an expression); nulls last.",
             R"({"op": "sort_by", "by": ["region", "-total"]})",
             {fieldOf("field to sort by (\"-total\": descending); omit to sort the items themselves"),
              field("order", K::Order, P::Optional, "\"asc\" (default) or \"desc\""),
              excluding("field order", "takes 'by' or 'field'/'order', not both",
                        field("by", K::SortKeys, P::Optional,
                              "several keys instead of field/order: [\"a\", \"-b\"] (b descending), or "
                              "{\"field\": \"b\", \"order\": \"desc\"} (a name taken as it is)")),
              excluding("field by", "takes 'key' (an expression) or 'field'/'by', not both",
                        withRole(Role::Step, field("key", K::Expr, P::Optional,
                                                   "instead of field: each item's sort key (the item is the current value)")))})),
      does({.apply = applyFirst, .rows = RowRole::Pick, .picksFirst = true},
           listOp(Op::First, "first", "collections", "The first item of a list (null when empty).", R"({"op": "first"})")),
      does({.apply = applyLast, .rows = RowRole::Pick},
           listOp(Op::Last, "last", "collections", "The last item of a list (null when empty).", R"({"op": "last"})")),
      does({.apply = applyNth, .rows = RowRole::PickAt},
           listOp(Op::Nth, "nth", "collections",
             "The item at a 0-based index (null when out of range).",
             R"({"op": "nth", "index": {"op": "sub", "left": {"op": "count"}, "right": 1}})",
             {field("index", K::Count, P::Required, "0-based index: an integer, or an expression seeing the list")})),
      does({.apply = applyTake, .rows = RowRole::Slice},
           listOp(Op::Take, "take", "collections", "The first `count` items of a list.", R"({"op": "take", "count": 5})",
             {field("count", K::Count, P::Required, "number of items: an integer, or an expression seeing the list")})),
      does({.apply = applyDrop, .rows = RowRole::Slice},
           listOp(Op::Drop, "drop", "collections", "A list without its first `count` items.",
             R"({"op": "drop", "count": 5})",
             {field("count", K::Count, P::Required, "number of items: an integer, or an expression seeing the list")})),
      does({.apply = applyDistinct, .sees = Sees::Input, .gives = Gives::SameItems},
           listOp(Op::Distinct, "distinct", "collections",
             "Removes duplicate items (structural equality), keeping first occurrences.", R"({"op": "distinct"})")),
      countEntry(),
      does({.apply = applyChunk, .neverAnObject = true},
           listOp(Op::Chunk, "chunk", "collections", "Splits a list into lists of `size` items (batches).",
             R"({"op": "chunk", "size": 10})",
             {field("size", K::Count, P::Required, "items per list (at least 1): an integer, or an expression seeing the list")})),
      does({.control = Control::Scan, .runs = Runs::PerItem, .neverAnObject = true, .refusesCalls = true,
            .scopes = {{.binds = Binds::Literal, .name = "acc", .seenBy = "expr"}, {.binds = Binds::As, .seenBy = "expr"}}},
           listOp(Op::Scan, "scan", "collections",
             "Running values: `expr` per item sees var acc, the previous result; it cannot call tools.",
             R"({"op": "scan", "init": 0, "expr": {"op": "add", "left": {"op": "var", "name": "acc"}, "right": {"op": "get", "field": "amount"}}})",
             {field("init", K::Expr, P::Optional, "the first acc (default null)"),
              withRole(Role::Step, field("expr", K::Expr, P::Required, "the next result; the item is the current value")),
              asName()})),
      does({.control = Control::Reduce, .runs = Runs::PerItem, .refusesCalls = true,
            .scopes = {{.binds = Binds::Literal, .name = "acc", .seenBy = "expr"}, {.binds = Binds::As, .seenBy = "expr"}}},
           listOp(Op::Reduce, "reduce", "collections",
             "Folds a list into one value: `expr` per item sees var acc, the result so far; an empty list gives init.",
             R"({"op": "reduce", "init": 0, "expr": {"op": "add", "left": {"op": "var", "name": "acc"}, "right": {"op": "get", "field": "amount"}}})",
             {field("init", K::Expr, P::Optional, "the first acc (default null)"),
              withRole(Role::Step, field("expr", K::Expr, P::Required, "the next acc; the item is the current value")),
              asName()})),
      // aggregation
      sumEntry(),
      avgEntry(),
      minEntry(),
      maxEntry(),
      does({.apply = applyMinBy, .rows = RowRole::PickBy},
           listOp(Op::MinBy, "min_by", "aggregation",
             "The item with the smallest value of a field, skipping nulls.",
             R"({"op": "min_by", "field": "price"})", {field("field", K::ItemField, P::Required, "field to compare")})),
      does({.apply = applyMaxBy, .rows = RowRole::PickBy},
           listOp(Op::MaxBy, "max_by", "aggregation",
             "The item with the largest value of a field, skipping nulls.",
             R"({"op": "max_by", "field": "years"})", {field("field", K::ItemField, P::Required, "field to compare")})),
      // access
      does({.apply = applyGet, .rows = RowRole::FieldRead},
           {Op::Get, "get", "access", true,
       {field("field", K::ItemField, P::OneOf, "a field of the current value"),
        field("path", K::Names, P::OneOf, "a path of object keys; [] is the current value itself"),
        field("default", K::Json, P::Optional, "value returned instead of null")},
       "A field or path of the current value (null when missing). Short: \"$_.field\", \"$_\" the value itself.",
       R"({"op": "get", "path": ["user", "email"], "default": "unknown"})"}),
      does({.apply = applyKeys, .neverAnObject = true},
           listOp(Op::Keys, "keys", "access", "Sorted keys of an object.", R"({"op": "keys"})")),
      does({.apply = applyTypeof, .neverAnObject = true},
           listOp(Op::Typeof, "typeof", "access",
             "Type of the current value: object, list, string, number, boolean or null.", R"({"op": "typeof"})")),
      // comparison
      does({.apply = applyEq, .neverAnObject = true, .rows = RowRole::Compare, .equality = Equality::Equal},
           comparison(Op::Eq, "eq", "Equal (structural; numbers by value).",
                 R"({"op": "eq", "field": "status", "value": "active"})")),
      does({.apply = applyNeq, .neverAnObject = true, .rows = RowRole::Compare, .equality = Equality::NotEqual},
           comparison(Op::Neq, "neq", "Not equal.", R"({"op": "neq", "field": "status", "value": "deleted"})")),
      does({.apply = applyGt, .neverAnObject = true, .rows = RowRole::Compare},
           comparison(Op::Gt, "gt", "Greater than.", R"({"op": "gt", "field": "age", "value": 18})")),
      does({.apply = applyGte, .neverAnObject = true, .rows = RowRole::Compare},
           comparison(Op::Gte, "gte", "Greater than or equal.", R"({"op": "gte", "field": "score", "value": 100})")),
      does({.apply = applyLt, .neverAnObject = true, .rows = RowRole::Compare},
           comparison(Op::Lt, "lt", "Less than.", R"({"op": "lt", "field": "price", "value": 50})")),
      does({.apply = applyLte, .neverAnObject = true, .rows = RowRole::Compare},
           comparison(Op::Lte, "lte", "Less than or equal.", R"({"op": "lte", "field": "quantity", "value": 10})")),
      does({.apply = applyContains, .neverAnObject = true, .rows = RowRole::Compare},
           comparison(Op::Contains, "contains",
                 "List membership, substring of a string, or key of an object; false for other types.",
                 R"({"op": "contains", "field": "tags", "value": "urgent"})")),
      does({.apply = applyIn, .neverAnObject = true, .rows = RowRole::Compare},
           comparison(Op::In, "in", "The field holds a list containing the value (or an object with it as a key).",
                 R"({"op": "in", "field": "tags", "value": "featured"})")),
      does({.apply = applyFilterIn, .rows = RowRole::FilterIn},
           seesMapItem(listOp(Op::FilterIn, "filter_in", "collections",
                         "Keeps the items whose field value is in `value` (a list, or an object's keys).",
                         R"({"op": "filter_in", "field": "status", "value": ["active", "pending"]})",
                         {fieldOf("field of each item; omit to test the item itself"),
                          field("value", K::Expr, P::Required, "the allowed values: a list or an expression giving one")}))),
      does({.apply = applyRejectIn, .rows = RowRole::FilterIn},
           seesMapItem(listOp(Op::RejectIn, "reject_in", "collections",
                         "Removes the items whose field value is in `value`.",
                         R"({"op": "reject_in", "field": "id", "value": [3, 7]})",
                         {fieldOf("field of each item; omit to test the item itself"),
                          field("value", K::Expr, P::Required, "the excluded values: a list or an expression giving one")}))),
      // arithmetic
      does({.apply = applyAdd, .neverAnObject = true, .sees = Sees::Input},
           binaryArithmetic(Op::Add, "add", "Adds two numbers.", R"({"op": "add", "left": 5, "right": 3})")),
      does({.apply = applySub, .neverAnObject = true, .sees = Sees::Input},
           binaryArithmetic(Op::Sub, "sub", "Subtracts right from left.", R"({"op": "sub", "left": 10, "right": 3})")),
      does({.apply = applyMul, .neverAnObject = true, .sees = Sees::Input},
           binaryArithmetic(Op::Mul, "mul", "Multiplies two numbers.", R"({"op": "mul", "left": 5, "right": 3})")),
      does({.apply = applyDiv, .neverAnObject = true, .sees = Sees::Input},
           binaryArithmetic(Op::Div, "div", "Divides left by right (always a float; division by zero is an error).",
                       R"({"op": "div", "left": 10, "right": 4})")),
      does({.apply = applyRound, .neverAnObject = true},
           valueOp(Op::Round, "round", "arithmetic", "Rounds to `precision` decimal places, half away from zero.",
              R"({"op": "round", "field": "total", "precision": 2})",
              {field("precision", K::Precision, P::Optional, "decimal places, 0-15 (default 0: an integer)")})),
      does({.apply = applyFloor, .neverAnObject = true},
           valueOp(Op::Floor, "floor", "arithmetic", "Rounds down to an integer.",
              R"({"op": "floor", "field": "ms"})")),
      does({.apply = applyCeil, .neverAnObject = true},
           valueOp(Op::Ceil, "ceil", "arithmetic", "Rounds up to an integer.", R"({"op": "ceil", "field": "hours"})")),
      does({.apply = applyPct, .neverAnObject = true, .sees = Sees::Input},
           {Op::Pct, "pct", "arithmetic", false,
       {field("part", K::Expr, P::Required, "number or expression"),
        field("whole", K::Expr, P::Required, "number or expression (not zero)")},
       "Percentage: part / whole * 100 (a float).", R"({"op": "pct", "part": 50, "whole": 200})"}),
      // logic
      does({.control = Control::And, .runs = Runs::Once, .neverAnObject = true, .rows = RowRole::Logic,
            .sees = Sees::Input},
           {Op::And, "and", "logic", false, {predicate("conditions", K::ExprList, "conditions")},
       "True when every condition is truthy (stops at the first falsy one).",
       R"({"op": "and", "conditions": [{"op": "gt", "field": "age", "value": 18}, {"op": "eq", "field": "active", "value": true}]})"}),
      does({.control = Control::Or, .runs = Runs::Once, .neverAnObject = true, .rows = RowRole::Logic,
            .sees = Sees::Input},
           {Op::Or, "or", "logic", false, {predicate("conditions", K::ExprList, "conditions")},
       "True when any condition is truthy (stops at the first truthy one).",
       R"({"op": "or", "conditions": [{"op": "eq", "field": "role", "value": "admin"}, {"op": "eq", "field": "role", "value": "owner"}]})"}),
      does({.apply = applyNot, .neverAnObject = true, .rows = RowRole::Logic, .sees = Sees::Input},
           {Op::Not, "not", "logic", false, {predicate("condition", K::Expr, "condition")},
       "True when the condition is falsy (null or false).",
       R"({"op": "not", "condition": {"op": "eq", "field": "deleted", "value": true}})"}),
      does({.control = Control::If, .runs = Runs::Once, .sees = Sees::Input, .gives = Gives::OneOfKids},
           {Op::If, "if", "logic", false,
       {predicate("condition", K::Expr, "condition (truthiness)"),
        field("then", K::Expr, P::Required, "value when truthy"),
        field("else", K::Expr, P::Required, "value when falsy (required)")},
       "Two-branch conditional; both branches are required.",
       R"({"op": "if", "condition": {"op": "gt", "field": "total", "value": 1000}, "then": "high", "else": "low"})"}),
      // tools
      does({.control = Control::Call, .runs = Runs::Once},
           {Op::Call, "call", "tools", false,
       {field("tool", K::Name, P::Required, "name of a registered tool"),
        field("args", K::ExprFields, P::Optional, "arguments object; values with an op are evaluated"),
        field("get", K::ItemField, P::Optional, "the field of the result to give instead of the result (as lookup's)")},
       "Calls a tool with `args`; gives its result, or the result's `get` field.",
       R"({"op": "call", "tool": "get_expenses", "args": {"year": 2024}})"}),
      // combine
      does({.apply = applyObject, .sees = Sees::Input, .gives = Gives::KeyedKids},
           {Op::Object, "object", "combine", false,
       {field("fields", K::ExprFields, P::Required, "keys to values; values with an op are evaluated")},
       "Builds an object; operations in its values are evaluated.",
       R"({"op": "object", "fields": {"count": {"op": "count"}, "source": "orders"}})"}),
      does({.apply = applyMerge, .sees = Sees::Input},
           combine(Op::Merge, "merge", "objects", "Merges objects left to right; later keys win.",
              R"({"op": "merge", "objects": [{"op": "var", "name": "defaults"}, {"op": "var", "name": "overrides"}]})")),
      does({.apply = applyConcat, .neverAnObject = true, .sees = Sees::Input},
           combine(Op::Concat, "concat", "lists", "Concatenates lists.",
              R"({"op": "concat", "lists": [{"op": "var", "name": "a"}, {"op": "var", "name": "b"}]})")),
      does({.apply = applyZip, .neverAnObject = true, .sees = Sees::Input},
           combine(Op::Zip, "zip", "lists", "Pairs up items of lists into tuples, stopping at the shortest.",
              R"({"op": "zip", "lists": [[1, 2, 3], ["a", "b"]]})")),
      does({.apply = applyList, .neverAnObject = true, .sees = Sees::Input},
           combine(Op::List, "list", "items",
              "Builds a list from expressions.",
              R"({"op": "list", "items": [{"op": "var", "name": "a"}, 2]})")),
      // conversions
      does({.apply = applyToNumber, .neverAnObject = true},
           valueOp(Op::ToNumber, "to_number", "conversions",
              "Text to number; numbers pass through, null stays null; unparsable text is an error unless `default` is "
              "given. With `decimal`, money and grouped digits (\"$1,234.50\", \"1.234,5 €\", \"12%\") too.",
              R"({"op": "to_number", "field": "price", "default": 0})",
              {field("default", K::Json, P::Optional, "value returned for an unparsable text or a non-number"),
               choice("decimal", P::Optional,
                      "read formatted text (\"$1,234.50\", \"12.5%\" as 12.5) with this decimal mark; the other is a "
                      "thousands separator",
                      kDecimalMarks)})),
      does({.apply = applyToString, .neverAnObject = true},
           valueOp(Op::ToString, "to_string", "conversions",
              "Any value to text (null as \"null\", lists and objects as JSON).",
              R"({"op": "to_string", "field": "id"})")),
      // group and reshape
      does({.control = Control::GroupBy, .runs = Runs::PerItem, .neverAnObject = true, .refusesCalls = true,
            .rows = RowRole::Group, .scopes = {{.binds = Binds::As, .seenBy = "key"}}},
           listOp(Op::GroupBy, "group_by", "reshape",
             "Groups a list by a field or `key` into [{key, items}] (first-seen order; `order`: sorted by key); with "
             "`aggs`, [{key, <name>: <agg over the group>}].",
             R"({"op": "group_by", "field": "region", "aggs": {"total": {"op": "sum", "field": "amount"}, "n": {"op": "count"}}})",
             {field("field", K::FieldName, P::OneOf, "field of each item to group by"),
              withRole(Role::Step, field("key", K::Expr, P::OneOf, "expression giving each item's key (the item is the current value)")),
              withRole(Role::Step, field("aggs", K::ExprFields, P::Optional,
                                         "named aggregates, each evaluated with the group's items as the current value")),
              field("order", K::Order, P::Optional, "\"asc\" or \"desc\": the groups sorted by key (as sort_by)"),
              asName()})),
      does({.apply = applyToEntries, .neverAnObject = true},
           listOp(Op::ToEntries, "to_entries", "reshape", "An object's members as a list of {key, value}, in order.",
             R"({"op": "to_entries"})")),
      does({.control = Control::FromEntries, .runs = Runs::PerItem, .refusesCalls = true,
            .scopes = {{.binds = Binds::As, .seenBy = "key value"}}},
           listOp(Op::FromEntries, "from_entries", "reshape",
             "An object from {key, value} items or [key, value] pairs (or `key`/`value` expressions, which may not call "
             "tools).",
             R"({"op": "from_entries", "key": {"op": "get", "field": "team"}, "value": {"op": "get", "field": "n"}})",
             {withRole(Role::Step, field("key", K::Expr, P::Optional, "each item's key (a text or number) instead of its \"key\"")),
              withRole(Role::Step, field("value", K::Expr, P::Optional, "each item's value instead of its \"value\"")),
              asName()})),
      does({.apply = applyFlatten, .neverAnObject = true},
           listOp(Op::Flatten, "flatten", "reshape", "Flattens a list of lists by one level (other items are kept).",
             R"({"op": "flatten"})")),
      does({.control = Control::Map, .runs = Runs::PerItem, .setsMapItem = true, .neverAnObject = true,
            .shortForm = ShortForm::Expr, .sees = Sees::EachItem, .scopes = {{.binds = Binds::As, .seenBy = "expr"}}},
           listOp(Op::FlatMap, "flat_map", "reshape",
             "Maps each item with `expr` and concatenates the resulting lists.",
             R"({"op": "flat_map", "field": "tags"})",
             {withRole(Role::Step, field("expr", K::Expr, P::OneOf, "expression evaluated with each item as the current value")),
              field("field", K::ItemField, P::OneOf, "instead of expr: this field of each item"), asName()})),
      // statistics
      medianEntry(),
      percentileEntry(),
      countDistinctEntry(),
      // text (value-level: the current value, its `field`, or `value`)
      does({.apply = applyLength, .neverAnObject = true},
           valueOp(Op::Length, "length", "text", "Length of a text (in characters), a list or an object; null stays null.",
              R"({"op": "length", "field": "name"})")),
      does({.apply = applyLower, .neverAnObject = true},
           valueOp(Op::Lower, "lower", "text", "Text in lower case.", R"({"op": "lower", "field": "email"})")),
      does({.apply = applyUpper, .neverAnObject = true},
           valueOp(Op::Upper, "upper", "text", "Text in upper case.", R"({"op": "upper", "field": "code"})")),
      does({.apply = applyTrim, .neverAnObject = true},
           valueOp(Op::Trim, "trim", "text", "Text without leading and trailing spaces.", R"({"op": "trim", "field": "name"})")),
      does({.apply = applySlice},
           valueOp(Op::Slice, "slice", "text",
              "Part of a text or list, `start` to `end` (exclusive; negative: from the end).",
              R"({"op": "slice", "field": "date", "start": 0, "end": 7})",
              {field("start", K::Expr, P::Optional, "first position (default 0)"),
               field("end", K::Expr, P::Optional, "position after the last (default: the end)")})),
      does({.apply = applySplit, .neverAnObject = true},
           valueOp(Op::Split, "split", "text", "Splits a text at each `sep` into a list of texts.",
              R"({"op": "split", "field": "tags", "sep": ","})",
              {field("sep", K::Expr, P::Required, "separator text (\"\" splits into characters)")})),
      does({.apply = applyJoin, .neverAnObject = true},
           valueOp(Op::Join, "join", "text", "Joins a list into one text with `sep` between items (null as \"\").",
              R"({"op": "join", "field": "names", "sep": ", "})",
              {field("sep", K::Expr, P::Optional, "separator text (default \"\")")})),
      does({.apply = applyStartsWith, .neverAnObject = true, .rows = RowRole::Compare},
           comparison(Op::StartsWith, "starts_with", "True when the field is a text starting with the value.",
                 R"({"op": "starts_with", "field": "sku", "value": "EU-"})")),
      does({.apply = applyEndsWith, .neverAnObject = true, .rows = RowRole::Compare},
           comparison(Op::EndsWith, "ends_with", "True when the field is a text ending with the value.",
                 R"({"op": "ends_with", "field": "email", "value": "@example.com"})")),
      does({.apply = applyReplace, .neverAnObject = true},
           valueOp(Op::Replace, "replace", "text", "Replaces every occurrence of `find` with `with` (plain text).",
              R"({"op": "replace", "field": "phone", "find": "-", "with": ""})",
              {field("find", K::Expr, P::Required, "text to find (not empty)"),
               field("with", K::Expr, P::Required, "replacement text")})),
      does({.apply = applyFormat, .neverAnObject = true},
           valueOp(Op::Format, "format", "text",
              "Fills a template: {name} is that field of the input; {id:06} zero-pads, {x:.2f} has 2 decimals; {{ }} are "
              "braces.",
              R"({"op": "format", "template": "{name} <{email}>"})",
              {field("template", K::Text, P::Required, "text with {field} or {field:spec} placeholders")})),
      // dates (UTC; ISO 8601 texts or epoch seconds)
      does({.apply = applyToTimestamp, .neverAnObject = true},
           valueOp(Op::ToTimestamp, "to_timestamp", "dates",
              "ISO 8601 text (Z or ±hh:mm; none: UTC) to epoch seconds.",
              R"({"op": "to_timestamp", "field": "created_at"})")),
      does({.apply = applyFormatDate, .neverAnObject = true},
           valueOp(Op::FormatDate, "format_date", "dates", "Epoch seconds or ISO text to ISO text (UTC).",
              R"({"op": "format_date", "field": "ts", "format": "date"})",
              {choice("format", P::Optional, "\"datetime\" (default), \"date\" or \"month\"", kDateFormats)})),
      does({.apply = applyDateDiff, .neverAnObject = true},
           valueOp(Op::DateDiff, "date_diff", "dates", "`to` minus the input date in `unit`s: fractional when not whole (1.5 hours), negative when earlier.",
              R"({"op": "date_diff", "field": "opened_at", "to": {"op": "get", "field": "closed_at"}, "unit": "hour"})",
              {field("to", K::Expr, P::Required, "the later date (text or epoch seconds)"),
               choice("unit", P::Required, "unit of the result", kDiffUnits)})),
      does({.apply = applyDateAdd, .neverAnObject = true},
           valueOp(Op::DateAdd, "date_add", "dates",
              "The date `amount` units later (months clamp to the month's end), as the input: UTC text or epoch "
              "seconds.",
              R"({"op": "date_add", "field": "due", "amount": 30, "unit": "day"})",
              {field("amount", K::Expr, P::Required, "number of units (an integer for month and year)"),
               choice("unit", P::Required, "unit", kAddUnits)})),
      does({.apply = applyDatePart, .neverAnObject = true},
           valueOp(Op::DatePart, "date_part", "dates", "A part of a date in UTC (weekday 1 = Monday).",
              R"({"op": "date_part", "field": "created_at", "part": "month"})",
              {choice("part", P::Required, "the part",
                      kDateParts)})),
      does({.apply = applyDateTrunc, .neverAnObject = true},
           valueOp(Op::DateTrunc, "date_trunc", "dates",
              "Start of the date's `unit` in UTC (weeks start Monday), as the input: \"2024-03-01\" for a day or longer, "
              "else a UTC date-time text; epoch seconds stay epoch seconds.",
              R"({"op": "date_trunc", "field": "created_at", "unit": "month"})",
              {choice("unit", P::Required, "unit", kTruncUnits)})),
      // control
      does({.control = Control::Try, .runs = Runs::Once, .sees = Sees::Input, .gives = Gives::OneOfKids,
            .scopes = {{.binds = Binds::Literal, .name = "error", .seenBy = "catch"}}},
           {Op::Try, "try", "control", false,
       {withRole(Role::Step, field("expr", K::Expr, P::Required, "the expression to attempt")),
        field("catch", K::Expr, P::Optional,
              "the value when expr fails (default null); sees \"$error\" = {type, code, message, path}, and for a "
              "failed tool its `tool` and `detail` (the tool's own message)")},
       "`expr`, or `catch` if it fails (e.g. a tool: \"$error.detail\" is its message).",
       R"({"op": "try", "expr": {"op": "call", "tool": "get_expenses", "args": {"year": 2024}}, "catch": []})"}),
      does({.control = Control::Loop, .runs = Runs::Once, .neverAnObject = true,
            .scopes = {{.binds = Binds::As, .seenBy = "next while"}}},
           {Op::Loop, "loop", "control", false,
       {field("init", K::Expr, P::Required, "the first result"),
        withRole(Role::Step, field("next", K::Expr, P::Required, "the next result; the previous result is the current value")),
        predicate("while", K::Expr, "go on while this is truthy; the latest result is the current value"),
        field("max", K::Iterations, P::Required, "at most this many results, 1 to 1000"),
        asName()},
       "Repeats `next` while `while` holds (at most `max` results); gives every result (pages), the one `while` "
       "rejected last.",
       R"({"op": "loop", "init": {"op": "call", "tool": "get_expenses", "args": {"page": 1}}, "while": {"op": "get", "field": "next_page"}, "next": {"op": "call", "tool": "get_expenses", "args": {"page": {"op": "get", "field": "next_page"}}}, "max": 20})"}),
      // text to data and sequences (issue 35, area "text"): op_table_entries_text.h
      parseJsonEntry(), parseCsvEntry(), parseKvEntry(), rangeEntry(), dateRangeEntry(),
      // workflow shapes (issue 36): op_table_entries_workflow.h
      forEachEntry(), retryEntry(),
      // lookups, quantifiers, ranks and trees (issue 35): op_table_entries_lookup.h
      lookupEntry(), anyEntry(), allEntry(), rankEntry(), descendantsEntry(),
      // workflow exits and undo lists (issue 36, round 2): op_table_entries_flow.h
      returnEntry(), reverseEntry(),
  }};
}
// clang-format on

// The table, evaluated once per translation unit that reads it at compile time.
inline constexpr std::array<Entry, kOpCount> kEntries = buildTable();

}  // namespace op_entry

}  // namespace ptc
