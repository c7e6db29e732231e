// Preflight analysis of a compiled program, without running it: the tools it
// may call (each call site with how often it may run), the context keys it
// loads (with the fields it reads of them, where projection.h can tell), the
// memory keys it reads and may write, its depth and node count. Hosts use it
// to ask a user before running, or to refuse a program.
#pragma once

#include <string>

#include "ptc_json/program.h"

namespace ptc {

// The analysis as JSON text (docs: README "Analyze before running"):
// {"tools":[{"name","calls":[{"path","count","bounded","caught"?}]}],
//  "context":[{"key","fields"?}], "memory":{"reads","writes","writesUnknown"},
//  "depth","nodes"}
std::string analyzeProgram(const Program& program);

}  // namespace ptc
