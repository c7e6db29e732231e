// Fields a program reads of a tool's result that the tool's declared `returns`
// (a JSON Schema: the descriptor's returns, MCP's outputSchema) says it cannot
// have. Known before anything runs, so validate, analyze and the run's own
// result all say it (unknown_result_field), with the schema's field names.
//
// The check follows a call's result along what it can see: the pipe steps
// after the call (get, filter, map, sort_by, select, sum ...), `let` and `as`
// bindings read with var, a map of calls. Anything it does not model makes
// the value unknown, and an unknown value is never warned of: a warning here
// must be right whatever the data.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/value.h"
#include "core/warnings.h"
#include "ptc_json/program.h"

namespace ptc {

// The warnings of a compiled program given each tool's declared result schema.
std::vector<Warning> returnsWarnings(const Node& root, const std::map<std::string, Value>& returns);

}  // namespace ptc
