// What the engine API takes and gives beyond the statuses every run writes
// (core/protocol.h): the options of a call, and the status of a prepared
// PTC-JSON program.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/run.h"
#include "ptc_json/program.h"

namespace ptc {

struct EngineOptions {
  RunLimits limits;
  CompileOptions compile;
  std::string entry;      // step functions: the entry function ("" = the last)
  std::string inputJson;  // step functions, validation only: the input to check
  // validate/analyze: the keys of the context the program will run with, when given
  bool contextKeysKnown = false;
  std::vector<std::string> contextKeys;
  std::string returnsJson;  // "returns": {tool: JSON Schema}, as JSON text ("" without)
};

// {"timeoutMs":..,"maxHeapBytes":..,"maxDepth":..,"maxToolCalls":..,
// "maxConcurrency":..,"tools":[names],"returns":{tool: JSON Schema},"entry":..,"input":..} (all optional;
// "tools" present means the tool set is known). Throws PtcError on bad options.
EngineOptions parseEngineOptions(std::string_view optionsJson);

// {"state":"prepared","id":N,"loads":[...],"fields":{key:[fields]}} ("fields"
// only when some loads are projected).
std::string preparedJson(int preparedId, const Program& program);

}  // namespace ptc
