#include "host/protocol.h"

#include <cmath>

#include "core/json.h"

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
  if (const Value* once = v.find("singleTurn")) o.limits.singleTurn = once->truthy();
  if (const Value* entry = v.find("entry"); entry && entry->isString()) o.entry = entry->str();
  if (const Value* input = v.find("input")) o.inputJson = toJson(*input);
  if (const Value* keys = v.find("contextKeys"); keys && keys->isArray()) {
    o.contextKeysKnown = true;
    for (const Value& k : keys->items())
      if (k.isString()) o.contextKeys.push_back(k.str());
  }
  if (const Value* tools = v.find("tools"); tools && tools->isArray()) {
    o.compile.toolsKnown = true;
    for (const Value& t : tools->items())
      if (t.isString()) o.compile.tools.push_back(t.str());
  }
  return o;
}

std::string errorJson(const Error& e) {
  std::string out = "{\"type\":";
  appendJsonString(out, errorTypeName(e.type));
  out += ",\"code\":";
  appendJsonString(out, errorCodeName(e.code));
  out += ",\"message\":";
  appendJsonString(out, e.message);
  if (e.hasPath) {
    out += ",\"path\":";
    appendJsonString(out, e.path);
  }
  if (e.position >= 0) out += ",\"position\":" + std::to_string(e.position);
  out += "}";
  return out;
}

Error errorFromJson(std::string_view text) {
  BudgetScope noBudget(nullptr);
  Value v = parseJson(text, "error");
  Error e;
  const std::string& type = v.field("type").str();
  for (ErrorType t :
       {ErrorType::Parse, ErrorType::Validation, ErrorType::Execution, ErrorType::Timeout, ErrorType::MemoryExceeded})
    if (type == errorTypeName(t)) e.type = t;
  const std::string& code = v.field("code").str();
  for (int c = 0; c < static_cast<int>(ErrorCode::Count_); ++c)
    if (code == errorCodeName(static_cast<ErrorCode>(c))) e.code = static_cast<ErrorCode>(c);
  e.message = v.field("message").isString() ? v.field("message").str() : toJson(v.field("message"));
  if (v.field("path").isString()) {
    e.path = v.field("path").str();
    e.hasPath = true;
  }
  if (v.field("position").isNumber()) e.position = static_cast<long long>(v.field("position").asDouble());
  return e;
}

std::string validOkJson(const std::vector<Warning>& warnings) {
  return warnings.empty() ? "{\"ok\":true}" : "{\"ok\":true,\"warnings\":" + warningsJson(warnings) + "}";
}

std::string validErrorJson(const Error& e) { return "{\"ok\":false,\"error\":" + errorJson(e) + "}"; }

namespace {

std::string withLoads(std::string out, const std::vector<std::string>& loads) {
  out += ",\"loads\":[";
  for (size_t i = 0; i < loads.size(); ++i) {
    if (i) out += ",";
    appendJsonString(out, loads[i]);
  }
  out += "]}";
  return out;
}

}  // namespace

std::string readyJson(int runId, const std::vector<std::string>& loads) {
  return withLoads("{\"state\":\"ready\",\"run\":" + std::to_string(runId), loads);
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

std::string callStatusJson(const std::vector<int>& ids, const std::vector<const ToolRequest*>& calls) {
  std::string out = "{\"state\":\"call\",\"calls\":[";
  ChargedText charged(out, calls.size() == 1 ? "the args of tool '" + calls[0]->tool + "'" : "the args of tool calls");
  for (size_t i = 0; i < calls.size(); ++i) {
    out += i ? ",{\"id\":" : "{\"id\":";
    out += std::to_string(ids[i]);
    out += ",\"tool\":";
    appendJsonString(out, calls[i]->tool);
    out += ",\"path\":";
    appendJsonString(out, calls[i]->path);
    out += ",\"args\":";
    appendJson(out, calls[i]->args);
    out += "}";
  }
  out += "]}";
  return out;
}

std::string doneOkJson(const Value& result, const Value& delta, const Value& memory,
                       const std::function<std::string()>& metrics) {
  std::string out = "{\"state\":\"done\",\"ok\":true,\"result\":";
  ChargedText charged(out, "the result and memory");
  appendJson(out, result);
  out += ",\"memoryDelta\":";
  appendJson(out, delta);
  out += ",\"memory\":";
  appendJson(out, memory);
  charged.settle();
  out += ",\"metrics\":" + metrics() + "}";
  return out;
}

std::string doneErrorJson(const Error& e, const std::string& metrics) {
  return "{\"state\":\"done\",\"ok\":false,\"error\":" + errorJson(e) + ",\"metrics\":" + metrics + "}";
}

std::string formatErrorLine(const Error& e) {
  static const char* names[] = {"ParseError", "ValidationError", "ExecutionError", "Timeout", "MemoryExceeded"};
  std::string out = names[static_cast<int>(e.type)];
  if (e.hasPath && !e.path.empty()) out += " at " + e.path;
  else if (e.position >= 0) out += " at position " + std::to_string(e.position);
  out += ": " + e.message;
  return out;
}

}  // namespace ptc
