// The op table's entries of workflow exits and undo lists (issue 36, round 2):
// return ends the whole program with a value, so a failure ladder reads like
// Python's early returns instead of nested let/if/try; reverse gives a list
// newest first, for rollbacks of what was done. Kept in their own header so
// that op_table_entries.h stays under the file-size limit; included by it
// after the entry builders, each named in buildTable's list in enum order.
#pragma once

namespace ptc {

namespace op_entry {

// clang-format off
constexpr Entry returnEntry() {
  return does({.control = Control::Return, .runs = Runs::Once},
           {Op::Return, "return", "control", false,
       {field("value", K::Expr, P::Required, "the program's result (an expression, seeing the current value)")},
       "Ends the program with `value` as its result; no try catches it.",
       R"({"op": "return", "value": {"status": "stopped", "table": "$_.table"}})"});
}

constexpr Entry reverseEntry() {
  return does({.apply = applyReverse, .sees = Sees::Input, .gives = Gives::SameItems},
           valueOp(Op::Reverse, "reverse", "collections",
             "A list's items, last first.",
             R"({"op": "reverse"})"));
}
// clang-format on

}  // namespace op_entry

}  // namespace ptc
