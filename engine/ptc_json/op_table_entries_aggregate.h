// The op table's entries of count and the aggregates (sum, avg, min, max,
// median, percentile, count_distinct), which take `where` and `expr` besides
// their `field`: {"op": "sum", "expr": E, "where": W} is the pipe [filter W,
// map E, sum] (ShortForm::Items, built by the compiler), as Python's
// sum(E for x in xs if W) and SQL's SUM(E) FILTER (WHERE W). Kept in their own
// header so that op_table_entries.h stays under the file-size limit; included
// by it after the entry builders, each named in buildTable's list in enum order.
#pragma once

namespace ptc {

namespace op_entry {

// clang-format off
constexpr FieldSpec itemsWhere() {
  return withRole(Role::Predicate,
                  field("where", K::Expr, P::Optional, "only the items for which this holds (as filter's where)"));
}

// `expr` instead of `field` (and of min's and max's `values`: `others`).
constexpr FieldSpec itemsExpr(const char* others) {
  return excluding(others, "takes 'expr' (each item's value) or 'field', not both",
                   withRole(Role::Step, field("expr", K::Expr, P::Optional, "instead of field: each item's value (the item is the current value)")));
}

// An aggregate's fields: `field` and its own, then `expr` and `where`.
constexpr OpFields aggregateFields(OpFields own, const char* exprExcludes = "field") {
  own.push_back(itemsExpr(exprExcludes));
  own.push_back(itemsWhere());
  return own;
}

constexpr Entry countEntry() {
  return does({.apply = applyCount, .neverAnObject = true, .shortForm = ShortForm::Items, .rows = RowRole::Count,
               .folds = Folds::Count},
           listOp(Op::Count, "count", "collections", "The number of items in a list.",
             R"({"op": "count", "where": {"op": "gt", "field": "total", "value": 100}})", {itemsWhere()}));
}

constexpr Entry sumEntry() {
  return does({.apply = applySum, .neverAnObject = true, .shortForm = ShortForm::Items, .rows = RowRole::Aggregate,
               .folds = Folds::Sum},
           listOp(Op::Sum, "sum", "aggregation",
             "Sum of a field over a list (0 when empty; non-numbers are an error).",
             R"({"op": "sum", "field": "amount"})", aggregateFields({fieldOf("field to sum; omit to sum the items")})));
}

constexpr Entry avgEntry() {
  return does({.apply = applyAvg, .neverAnObject = true, .shortForm = ShortForm::Items, .rows = RowRole::Aggregate,
               .folds = Folds::Avg},
           listOp(Op::Avg, "avg", "aggregation", "Average of the numeric values of a field (null when none).",
             R"({"op": "avg", "expr": {"op": "mul", "left": "$_.qty", "right": "$_.price"}})",
             aggregateFields({fieldOf("field to average; omit to average the items")})));
}

constexpr Entry minEntry() {
  return does({.apply = applyMin, .shortForm = ShortForm::Items, .rows = RowRole::Aggregate, .folds = Folds::Min},
           listOp(Op::Min, "min", "aggregation",
             "Smallest value of a field, numbers or texts (null when empty), or of `values`.",
             R"({"op": "min", "field": "price"})",
             aggregateFields({fieldOf("field; omit to compare the items"),
              field("values", K::ExprList, P::Optional, "instead of the input list: these ([a, b]: of two values)")}, "field values")));
}

constexpr Entry maxEntry() {
  return does({.apply = applyMax, .shortForm = ShortForm::Items, .rows = RowRole::Aggregate, .folds = Folds::Max},
           listOp(Op::Max, "max", "aggregation",
             "Largest value of a field, numbers or texts (null when empty), or of `values`.",
             R"({"op": "max", "field": "price", "where": {"status": "paid"}})",
             aggregateFields({fieldOf("field; omit to compare the items"),
              field("values", K::ExprList, P::Optional, "instead of the input list: these ([a, b]: of two values)")}, "field values")));
}

constexpr Entry medianEntry() {
  return does({.apply = applyMedian, .neverAnObject = true, .shortForm = ShortForm::Items, .rows = RowRole::Aggregate},
           listOp(Op::Median, "median", "aggregation",
             "Median of a field's numbers, skipping nulls (null when none).",
             R"({"op": "median", "field": "duration"})", aggregateFields({fieldOf("field; omit to use the items")})));
}

constexpr Entry percentileEntry() {
  return does({.apply = applyPercentile, .neverAnObject = true, .shortForm = ShortForm::Items, .rows = RowRole::Aggregate},
           listOp(Op::Percentile, "percentile", "aggregation",
             "p-th percentile of a field's numbers, skipping nulls (linear interpolation, or nearest rank).",
             R"({"op": "percentile", "field": "duration", "p": 95})",
             aggregateFields({fieldOf("field; omit to use the items"), field("p", K::Percent, P::Required, "percentile, 0 to 100"),
              field("method", K::Method, P::Optional, "\"linear\" (default) or \"nearest\"")})));
}

constexpr Entry countDistinctEntry() {
  return does({.apply = applyCountDistinct, .neverAnObject = true, .shortForm = ShortForm::Items, .rows = RowRole::Aggregate},
           listOp(Op::CountDistinct, "count_distinct", "aggregation",
             "Number of distinct non-null values of a field.",
             R"({"op": "count_distinct", "field": "customer_id"})", aggregateFields({fieldOf("field; omit to use the items")})));
}
// clang-format on

}  // namespace op_entry

}  // namespace ptc
