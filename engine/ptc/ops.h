// The semantics of each operation over already-evaluated operands. Shared by
// the synchronous and the resumable evaluator, so each rule is written once.
#pragma once

#include <cstddef>
#include <string>

#include "ptc/program.h"
#include "core/value.h"

namespace ptc {

// Applies a "strict" operation: one whose expression fields (n.kids) have all
// been evaluated against the current value `in`, in order, into args[0..].
// Covers everything except the control operations (let, pipe, filter, reject,
// map, and, or, if, var, load, call), which the evaluators run themselves.
Value applyOp(const Node& n, const Value& in, const Value* args, size_t nargs);

// Helpers the evaluators share.
[[noreturn]] void throwExecution(const Node& n, std::string message);
[[noreturn]] void throwNoInput(const Node& n);
const Array& expectList(const Node& n, const Value& in);
Value objectFromFields(const Node& n, const Value* args, size_t nargs);

// Helpers the op families (ops_*.cpp) share.
std::string quoted(const Node& n);  // 'name' of the op
// The field `n.field` of the current value, or the value itself without a
// field: null when the value is null, an execution error when it is a number,
// text, boolean or list (fail fast: reading a field of those is a mistake).
Value readField(const Node& n, const Value& in);
// The input of a value-level op: its `value` expression when given, else readField.
inline Value valueInput(const Node& n, const Value& in, const Value* args) {
  return n.valueGiven ? args[0] : readField(n, in);
}
// A text where a number is needed: the message names the value and to_number.
[[noreturn]] void throwTextNotNumber(const Node& n, const std::string& context, const Value& text);

// conversions (ops_convert.cpp)
Value toNumber(const Node& n, const Value& v);
Value toText(const Node& n, const Value& v);

}  // namespace ptc
