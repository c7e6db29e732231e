// Verification and compilation of a step-function file: every [V] rule of the
// semantics note is checked here, before anything runs; the first problem is a
// validation_error with the JSON Pointer of the offending step or field.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/value.h"
#include "step_functions/file.h"

namespace ptc::step_functions {

// The most for loops and calls of functions of the file a path through the
// steps may nest (each runs a level deeper on the engine's native stack).
constexpr int kMaxStepNesting = 100;

struct CompileOptions {
  std::string entry;  // "" = the last function of the file
  bool toolsKnown = false;
  std::vector<std::string> tools;
};

// `functions` are the top-level JSON values of the file, in order.
std::shared_ptr<const File> compileFile(const std::vector<Value>& functions, const CompileOptions& options);

// The entry's input must have exactly its declared parameters, each conforming (§3).
void checkEntryInput(const File& file, const Value& input);

}  // namespace ptc::step_functions
