// What the host API (engine.cpp) needs of the step-function dialect, behind
// functions that one of two files defines, so that the dialect can be left out
// of a build: step_functions_on.cpp calls engine/step_functions/; in
// step_functions_off.cpp every one of them refuses. ptc.wasm (the package's
// module), the native tests and the fuzz targets link the first; the wasm
// target ptc_json (PTC-JSON only, 43 KB gzip smaller) links the second
// (CMakeLists.txt).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/run.h"
#include "core/value.h"
#include "step_functions/compiler.h"
#include "step_functions/file.h"

namespace ptc::stepfn {

// Whether this build has the dialect (false: each function below throws a
// bad_host_call execution error saying which module has it).
bool available();
std::shared_ptr<const step_functions::File> compile(const std::vector<Value>& functions,
                                                    const step_functions::CompileOptions& options);
void checkEntryInput(const step_functions::File& file, const Value& input);
std::string analyze(const step_functions::File& file);
std::string languageJson();
std::unique_ptr<RunBase> newRun(std::shared_ptr<const step_functions::File> file, const RunLimits& limits);

}  // namespace ptc::stepfn
