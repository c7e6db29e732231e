// The JSON texts the engine exchanges with its host (the wasm bindings, the
// native tests): options in, statuses and errors out.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/run.h"
#include "core/warnings.h"
#include "ptc/program.h"

namespace ptc {

struct EngineOptions {
  RunLimits limits;
  CompileOptions compile;
  std::string entry;      // step functions: the entry function ("" = the last)
  std::string inputJson;  // step functions, validation only: the input to check
  // validate/analyze: the keys of the context the program will run with, when given
  bool contextKeysKnown = false;
  std::vector<std::string> contextKeys;
};

// {"timeoutMs":..,"maxHeapBytes":..,"maxDepth":..,"maxToolCalls":..,
// "maxConcurrency":..,"tools":[names],"entry":..,"input":..} (all optional; "tools" present means the tool set is
// known). Throws PtcError on bad options.
EngineOptions parseEngineOptions(std::string_view optionsJson);

std::string errorJson(const Error& e);
Error errorFromJson(std::string_view text);
std::string validOkJson(const std::vector<Warning>& warnings = {});
std::string validErrorJson(const Error& e);
std::string readyJson(int runId, const std::vector<std::string>& loads);
// {"state":"prepared","id":N,"loads":[...],"fields":{key:[fields]}} ("fields"
// only when some loads are projected).
std::string preparedJson(int preparedId, const Program& program);
// The texts below that carry values are ChargedTexts (json.h): they count
// toward the run's maxHeapBytes while written, and check its deadline.
// {"state":"call","calls":[{"id":..,"tool":..,"path":..,"args":..}, ...]}: the
// calls issued since the last status (none while the run waits on earlier ones).
std::string callStatusJson(const std::vector<int>& ids, const std::vector<const ToolRequest*>& calls);
// `metrics` is asked for once the values are written, so its peak includes them.
std::string doneOkJson(const Value& result, const Value& delta, const Value& memory,
                       const std::function<std::string()>& metrics);
std::string doneErrorJson(const Error& e, const std::string& metrics);
// "ValidationError at /program/steps/1: Unknown operation 'filer'. Did you mean 'filter'?"
std::string formatErrorLine(const Error& e);

}  // namespace ptc
