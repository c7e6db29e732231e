// The JSON texts a run exchanges with its host (the wasm bindings, the native
// tests), whatever its dialect: statuses and errors out. The options going in
// and the status of a prepared PTC-JSON program are the API's (api/options.h).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/run.h"
#include "core/warnings.h"

namespace ptc {

std::string errorJson(const Error& e);
Error errorFromJson(std::string_view text);
std::string validOkJson(const std::vector<Warning>& warnings = {});
std::string validErrorJson(const Error& e);
// `out` (an object's text without its closing brace) with ,"loads":[...]}.
std::string withLoads(std::string out, const std::vector<std::string>& loads);
// The texts below that carry values are ChargedTexts (json.h): they count
// toward the run's maxHeapBytes while written, and check its deadline.
// {"state":"call","calls":[{"id":..,"tool":..,"path":..,"args":..}, ...]}: the
// calls issued since the last status (none while the run waits on earlier ones).
std::string callStatusJson(const std::vector<int>& ids, const std::vector<const ToolRequest*>& calls);
// `appendMetrics` writes the metrics once the values are written, so their peak includes them.
std::string doneOkJson(const Value& result, const Value& delta, const Value& memory,
                       const std::function<void(std::string&)>& appendMetrics);
// While one with `omit` lives, doneOkJson of a scalar result with nothing
// stored (run.h's ScalarDone) writes no text: it returns "" and charges the
// bytes the text's result and memory would take, so the peak (the metrics'
// memoryBytes, read by noteScalar) is the same. For a host that reads
// ScalarDone in the text's place (the wasm binding).
class OmitScalarText {
 public:
  explicit OmitScalarText(bool omit);
  ~OmitScalarText();
  OmitScalarText(const OmitScalarText&) = delete;
  OmitScalarText& operator=(const OmitScalarText&) = delete;

 private:
  bool previous_;
};
std::string doneErrorJson(const Error& e, const std::string& metrics);
// "ValidationError at /program/steps/1: Unknown operation 'filer'. Did you mean 'filter'?"
std::string formatErrorLine(const Error& e);

}  // namespace ptc
