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

}  // namespace ptc
