// $references inside strings and the text form of values (§5).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/value.h"
#include "step_functions/file.h"

namespace ptc::step_functions {

// A string split into literal pieces and the references between them
// (texts.size() == refs.size() + 1). "$$" is a literal "$"; a "$" not followed
// by a letter or "_" is literal; a "." joins a segment only when a segment
// character follows ("failed: $error." ends the reference before the dot).
struct Interpolation {
  std::vector<std::string> texts;
  std::vector<Ref> refs;
};
Interpolation scanReferences(std::string_view s);

// Text as is; numbers as the shortest round-trip decimal, integers below 1e21
// without fraction or exponent; true/false; null; lists and objects as compact JSON.
std::string textForm(const Value& v);

}  // namespace ptc::step_functions
