#include "api/options.h"

#include <cmath>

#include "core/json.h"
#include "core/limits.h"
#include "core/protocol.h"

namespace ptc {

namespace {

// A limit's value: absent = the default; past the table's maximum is refused,
// not capped, so a run never has another limit than the one asked for.
int64_t positiveInt(const Value& options, const char* key, int64_t fallback, int64_t max) {
  const Value* v = options.find(key);
  if (!v || v->isNull()) return fallback;
  if (!v->isNumber() || v->asDouble() <= 0 || !std::isfinite(v->asDouble()) || v->asDouble() > static_cast<double>(max))
    throw PtcError(ErrorType::Validation, ErrorCode::BadOption,
                   std::string("Option '") + key + "' must be a positive number of at most " + std::to_string(max));
  return static_cast<int64_t>(std::floor(v->asDouble()));
}

// The options text as a value. Its text is the host's (limits, tool names, the
// tools' declared results): text the engine cannot read is the host's
// configuration at fault, never the program's, and the error says so.
Value optionsValue(std::string_view optionsJson) {
  try {
    return parseJson(optionsJson, "options");
  } catch (const PtcError& e) {
    throw PtcError(ErrorType::Validation, ErrorCode::BadOption,
                   "The run's options, which the host sends (not the program), cannot be read: " + e.error.message +
                       ". The host's configuration must be fixed; the program is not at fault");
  }
}

}  // namespace

EngineOptions parseEngineOptions(std::string_view optionsJson) {
  EngineOptions o;
  if (optionsJson.empty()) return o;
  BudgetScope noBudget(nullptr);
  Value v = optionsValue(optionsJson);
  o.limits.timeoutMs = positiveInt(v, "timeoutMs", o.limits.timeoutMs, limits::timeoutMsMax);
  o.limits.maxHeapBytes = static_cast<uint64_t>(
      positiveInt(v, "maxHeapBytes", static_cast<int64_t>(o.limits.maxHeapBytes), limits::maxHeapBytesMax));
  o.limits.maxDepth = static_cast<int>(positiveInt(v, "maxDepth", o.limits.maxDepth, limits::maxDepthMax));
  o.limits.maxToolCalls =
      static_cast<int>(positiveInt(v, "maxToolCalls", o.limits.maxToolCalls, limits::maxToolCallsMax));
  o.limits.maxConcurrency =
      static_cast<int>(positiveInt(v, "maxConcurrency", o.limits.maxConcurrency, limits::maxConcurrencyMax));
  o.compile.maxDepth = o.limits.maxDepth;
  if (const Value* once = v.find("singleTurn")) o.limits.singleTurn = once->truthy();
  if (const Value* entry = v.find("entry"); entry && entry->isString()) o.entry = entry->str();
  if (const Value* input = v.find("input")) o.inputJson = toJson(*input);
  if (const Value* keys = v.find("contextKeys"); keys && keys->isArray()) {
    o.contextKeysKnown = true;
    for (const Value& k : keys->items())
      if (k.isString()) o.contextKeys.push_back(k.str());
  }
  if (const Value* returns = v.find("returns"); returns && returns->isObject()) {
    for (MemberRef m : returns->members()) o.compile.returns.emplace(m.key.str(), m.value);
    o.returnsJson = toJson(*returns);  // part of the compiled program's cache key
  }
  if (const Value* tools = v.find("tools"); tools && tools->isArray()) {
    o.compile.toolsKnown = true;
    for (const Value& t : tools->items())
      if (t.isString()) o.compile.tools.push_back(t.str());
  }
  return o;
}

std::string preparedJson(int preparedId, const Program& program) {
  std::string out = withLoads("{\"state\":\"prepared\",\"id\":" + std::to_string(preparedId), program.loads);
  if (program.projections.empty()) return out;
  out.pop_back();
  out += ",\"fields\":{";
  bool firstKey = true;
  for (const auto& [name, fields] : program.projections) {
    if (!firstKey) out += ",";
    firstKey = false;
    appendJsonString(out, name);
    out += ":[";
    for (size_t i = 0; i < fields.size(); ++i) {
      if (i) out += ",";
      appendJsonString(out, fields[i]);
    }
    out += "]";
  }
  out += "}}";
  return out;
}

}  // namespace ptc
