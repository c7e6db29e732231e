// The op table's entries of the workflow shapes (issue 36): for_each runs its
// items one after another (map's calls run concurrently) and may stop early;
// retry tries an expression again when it fails, its `as` the try's number
// (and a given-up error's `tries` how many). Both may call tools. Kept in
// their own header so that op_table_entries.h stays under the file-size limit;
// included by it after the entry builders, each named in buildTable's list in
// enum order.
#pragma once

namespace ptc {

namespace op_entry {

// clang-format off
constexpr Entry forEachEntry() {
  return does({.control = Control::ForEach, .runs = Runs::PerItem, .setsMapItem = true, .sees = Sees::EachItem,
            .gives = Gives::EachResult, .scopes = {{.binds = Binds::As, .seenBy = "expr"}}},
           listOp(Op::ForEach, "for_each", "control",
             "`expr` per item, one after another (map runs calls concurrently); stops after the first result for "
             "which `until` is truthy. Gives the results.",
             R"({"op": "for_each", "as": "year", "expr": {"op": "call", "tool": "get_expenses", "args": {"year": "$year"}}, "until": {"op": "eq", "field": "complete", "value": false}})",
             {withRole(Role::Step, field("expr", K::Expr, P::Required, "evaluated with each item as the current value")),
              withRole(Role::Predicate, field("until", K::Expr, P::Optional,
                                              "stop after a result for which this is truthy (the result is its current "
                                              "value; it is kept)")),
              asName()}));
}

constexpr Entry retryEntry() {
  return does({.control = Control::Retry, .runs = Runs::Once, .gives = Gives::OneOfKids,
            .scopes = {{.binds = Binds::Literal, .name = "error", .seenBy = "when"},
                       {.binds = Binds::As, .seenBy = "expr"}}},
           {Op::Retry, "retry", "control", false,
       {withRole(Role::Step, field("expr", K::Expr, P::Required, "the expression to try (e.g. a call)")),
        field("max", K::Iterations, P::Required, "at most this many tries, 1 to 1000"),
        withRole(Role::Predicate, field("when", K::Expr, P::Optional,
                                        "try again only when this is truthy; the error {type, code, message, path} is "
                                        "its current value and var error (default: any execution error)")),
        field("as", K::Name, P::Optional, "a variable name bound to the try's number (1, 2, ...) in expr")},
       "`expr`, tried again while it fails (e.g. a tool), at most `max` tries; then its last error (\"$error.tries\": "
       "how many).",
       R"({"op": "retry", "expr": {"op": "call", "tool": "get_expenses", "args": {"year": 2024}}, "max": 3, "when": {"op": "contains", "field": "message", "value": "timeout"}})"});
}
// clang-format on

}  // namespace op_entry

}  // namespace ptc
