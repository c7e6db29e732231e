// Types of the step-function dialect (§3 of the semantics note): number, text,
// bool, nil, list T, result T E, and opaque named types.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/value.h"

namespace ptc::step_functions {

struct Type {
  enum class Kind { Number, Text, Bool, Nil, List, Result, Named };
  Kind kind = Kind::Nil;
  std::string name;        // the written word (named types: the name)
  std::vector<Type> args;  // List: [T]; Result: [T, E]

  bool isResult() const { return kind == Kind::Result; }
  // An output of nil or result nil E: reaching the end of steps is allowed.
  bool allowsFallingOffTheEnd() const {
    return kind == Kind::Nil || (kind == Kind::Result && args[0].kind == Kind::Nil);
  }
};

// Parses a type string; `allowResult` only for a whole output type. Returns
// false with a message naming the problem.
bool parseType(std::string_view text, bool allowResult, Type& out, std::string& error);

// Does the value conform to the type? A result type takes {"ok": T} or {"error": E}.
bool conforms(const Value& v, const Type& t);

// NAME = [A-Za-z_][A-Za-z0-9_]* optionally followed by -groups (make-id, user-id).
bool isName(std::string_view s);

// A tool of an upstream MCP server, "<server>.<tool>": a NAME, a dot, then
// [A-Za-z0-9_.-]+ (MCP tool names). Only tools have such names, never functions.
bool isServerToolName(std::string_view s);

// The type as written ("list customer").
std::string typeText(const Type& t);

}  // namespace ptc::step_functions
