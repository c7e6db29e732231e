// The op table's entries of text to data and sequences (issue 35): parse_json,
// parse_csv, parse_kv, range, date_range. Kept in their own header so that
// op_table_entries.h stays one file per reader; included by it after the entry
// builders (valueOp, field, choice), each named in buildTable's list in enum order.
#pragma once

namespace ptc {

namespace op_entry {

inline constexpr const char* kRangeUnits[] = {"day", "week", "month"};

// Not a $function of step functions yet: the step-function prompt has no room
// for them within its budget (tests/js/token-budgets.test.cjs).
constexpr OpSpec notAStepFunction(OpSpec spec) {
  spec.notAStepFunction = true;
  return spec;
}

// clang-format off
constexpr Entry parseJsonEntry() {
  return does({.apply = applyParseJson},
              notAStepFunction(valueOp(Op::ParseJson, "parse_json", "conversions",
                 "The value a JSON text holds (a file a tool read); bad JSON is an error giving the position.",
                 R"({"op": "parse_json", "field": "content"})")));
}

constexpr Entry parseCsvEntry() {
  return does({.apply = applyParseCsv, .neverAnObject = true},
              notAStepFunction(valueOp(Op::ParseCsv, "parse_csv", "conversions",
                 "CSV text (a header line, then rows; \"quoted\" cells) to a list of objects; cells stay texts.",
                 R"({"op": "parse_csv", "field": "report", "sep": ";"})",
                 {field("sep", K::Expr, P::Optional, "the cell separator, one character (default \",\")")})));
}

constexpr Entry parseKvEntry() {
  return does({.apply = applyParseKv},
              notAStepFunction(valueOp(Op::ParseKv, "parse_kv", "conversions",
                 "key=value text (a logfmt line: a=1 b=\"x y\") to an object; values stay texts, a bare key is true.",
                 R"({"op": "parse_kv", "field": "line"})",
                 {field("sep", K::Expr, P::Optional, "between pairs (default: spaces)"),
                  field("kv_sep", K::Expr, P::Optional, "between key and value (default \"=\")")})));
}

constexpr Entry rangeEntry() {
  return does({.apply = applyRange, .neverAnObject = true},
              {Op::Range, "range", "collections", false,
               {field("start", K::Expr, P::Optional, "the first number (default 0)"),
                field("end", K::Expr, P::Required, "where it stops: not included"),
                field("step", K::Expr, P::Optional, "the difference between items (default 1; negative counts down)")},
               "Numbers from `start` up to `end` (exclusive, as Python's range) by `step`.",
               R"({"op": "range", "start": 1, "end": 13})"});
}

constexpr Entry dateRangeEntry() {
  return does({.apply = applyDateRange, .neverAnObject = true},
              notAStepFunction(valueOp(Op::DateRange, "date_range", "dates",
                 "The dates from the input to `to` (included) every `step` units, in the input's kind (as date_add).",
                 R"({"op": "date_range", "field": "check_in", "to": {"op": "get", "field": "check_out"}})",
                 {field("to", K::Expr, P::Required, "the last date (included when reached)"),
                  choice("unit", P::Optional, "\"day\" (default), \"week\" or \"month\"", kRangeUnits),
                  field("step", K::Expr, P::Optional, "units between dates, a whole number (default 1)")})));
}
// clang-format on

}  // namespace op_entry

}  // namespace ptc
