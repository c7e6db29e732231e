#include "api/options.h"

#include <cmath>

#include "core/json.h"
#include "core/protocol.h"

namespace ptc {

namespace {

int64_t positiveInt(const Value& options, const char* key, int64_t fallback, int64_t max) {
  const Value* v = options.find(key);
  if (!v || v->isNull()) return fallback;
  if (!v->isNumber() || v->asDouble() <= 0 || !std::isfinite(v->asDouble()))
    throw PtcError(ErrorType::Validation, ErrorCode::BadOption,
                   std::string("Option '") + key + "' must be a positive number");
  double d = std::floor(v->asDouble());
  return d > static_cast<double>(max) ? max : static_cast<int64_t>(d);
}

}  // namespace

EngineOptions parseEngineOptions(std::string_view optionsJson) {
  EngineOptions o;
  if (optionsJson.empty()) return o;
  BudgetScope noBudget(nullptr);
  Value v = parseJson(optionsJson, "options");
  o.limits.timeoutMs = positiveInt(v, "timeoutMs", o.limits.timeoutMs, (1LL << 31) - 1);  // the longest JS timer
  o.limits.maxHeapBytes =
      static_cast<uint64_t>(positiveInt(v, "maxHeapBytes", static_cast<int64_t>(o.limits.maxHeapBytes), 1LL << 40));
  o.limits.maxDepth = static_cast<int>(positiveInt(v, "maxDepth", o.limits.maxDepth, 500));
  o.limits.maxToolCalls = static_cast<int>(positiveInt(v, "maxToolCalls", o.limits.maxToolCalls, 1LL << 30));
  o.limits.maxConcurrency = static_cast<int>(positiveInt(v, "maxConcurrency", o.limits.maxConcurrency, 1024));
  o.compile.maxDepth = o.limits.maxDepth;
  if (const Value* entry = v.find("entry"); entry && entry->isString()) o.entry = entry->str();
  if (const Value* input = v.find("input")) o.inputJson = toJson(*input);
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
