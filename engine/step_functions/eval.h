// Evaluation of value expressions (§5, §6, §8): references, interpolation,
// operators and $merge. Synchronous: calls never appear inside expressions.
#pragma once

#include "core/value.h"
#include "step_functions/file.h"

namespace ptc::step_functions {

struct Frame;

Value evaluate(const Frame& frame, const Expr& e);
// A truth value (§6): bool, or nil as false; anything else is a fault.
bool truthValue(const Value& v, const std::string& path, const char* where);
// A double result as a Value: integral values below 2^53 become integers.
Value numberValue(double d, const std::string& path);

}  // namespace ptc::step_functions
