// The operations of PTC-JSON, as every compiled node names its own (Node::op
// in program.h). Only the enum: what each op is and does is its entry in the
// table (op_table.h), which only the files that read it include, so a change
// to the table recompiles those, not every user of a Node.
#pragma once

#include <cstddef>
#include <cstdint>

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
  Reduce,
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
  // text to data and sequences (issue 35, area "text"): parse a text, ranges
  ParseJson,
  ParseCsv,
  ParseKv,
  Range,
  DateRange,
  // workflow shapes (issue 36): a for-each in order that may stop early, a retry
  ForEach,
  Retry,
  // lookups, quantifiers, ranks and trees (issue 35: the `lookup` area)
  Lookup,
  Any,
  All,
  Rank,
  Descendants,
  // workflow exits and undo lists (issue 36, round 2): return ends the program
  // with a value (a failure ladder reads like Python's early returns); reverse
  // lists what was done newest first, for rollbacks
  Return,
  Reverse,
  // Not an operation: their number. A new operation goes before it.
  End_,
};

inline constexpr size_t kOpCount = static_cast<size_t>(Op::End_);

// One field of one op, by its place in the op's entry: what a control op's
// case reads of a Node (Node::kid). Made by fieldRef (op_fields.h) from the
// field's name, checked against the table while compiling: a name the entry
// does not have does not compile.
struct FieldRef {
  Op op = Op::End_;
  uint8_t index = 0;
};

}  // namespace ptc
