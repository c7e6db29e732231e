// Preflight analysis of a verified step-function file, without running it:
// the host tools each function may call (each call site with how often it
// may run), the fields of $input the file reads, its step nesting depth and
// step count. The PTC-JSON counterpart is ptc_json/analysis.h.
#pragma once

#include <string>

#include "step_functions/file.h"

namespace ptc::step_functions {

// {"tools":[{"name","calls":[{"path","function","count","bounded","caught"?,"uncompensatedAfter"?}]}],
// a call's count being per call of the function it is written in;
//  "input":[first field of each $input reference], "depth","nodes"}
std::string analyzeFile(const File& wf);

}  // namespace ptc::step_functions
