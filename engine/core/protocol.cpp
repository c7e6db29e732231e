#include "core/protocol.h"

#include "core/json.h"

namespace ptc {

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

std::string withLoads(std::string out, const std::vector<std::string>& loads) {
  out += ",\"loads\":[";
  for (size_t i = 0; i < loads.size(); ++i) {
    if (i) out += ",";
    appendJsonString(out, loads[i]);
  }
  out += "]}";
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

namespace {

bool omitScalarText = false;  // OmitScalarText

constexpr std::string_view kDoneOkHead = "{\"state\":\"done\",\"ok\":true,\"result\":";
constexpr std::string_view kNothingStored = ",\"memoryDelta\":{},\"memory\":{}";

// The text of a number, null or boolean result as appendJson writes it; false
// for anything else.
bool scalarJson(const Value& v, std::string& out) {
  switch (v.kind()) {
    case Kind::Null: out = "null"; return true;
    case Kind::Bool: out = v.asBool() ? "true" : "false"; return true;
    case Kind::Int: out = std::to_string(v.asInt()); return true;
    case Kind::Double: appendNumber(out, v.asDouble()); return true;
    default: return false;
  }
}

// doneOkJson of a scalar result with nothing stored, the most common status
// (a count, a sum, a check), written without the JSON writer's walk and its
// appends of a character at a time (they were half of a tiny run's status).
// Charged as the ChargedText of doneOkJson charges it: the result and memory
// text, counted while the metrics are written, refused past maxHeapBytes with
// its message.
std::string doneScalarJson(const std::string& result, const std::function<void(std::string&)>& appendMetrics) {
  const uint64_t charged = result.size() + kNothingStored.size();
  Budget* budget = Budget::current();
  if (budget && !budget->fits(charged)) {
    std::string unused;
    ChargedText(unused, "the result and memory").settle(charged);  // throws memory_exceeded
  }
  if (omitScalarText) {
    // Charged and let go at once: the peak is what writing the metrics saw.
    if (budget) {
      budget->charge(charged);
      budget->release(charged);
    }
    return {};
  }
  constexpr std::string_view kMetrics = ",\"metrics\":";
  std::string out;
  out.reserve(kDoneOkHead.size() + result.size() + kNothingStored.size() + kMetrics.size() + 64);
  // (pointer, length): appending a string_view goes through a template of its own.
  out.append(kDoneOkHead.data(), kDoneOkHead.size());
  out.append(result);
  out.append(kNothingStored.data(), kNothingStored.size());
  out.append(kMetrics.data(), kMetrics.size());
  if (budget) budget->charge(charged);
  try {
    appendMetrics(out);
  } catch (...) {
    if (budget) budget->release(charged);
    throw;
  }
  if (budget) budget->release(charged);
  out.push_back('}');
  return out;
}

}  // namespace

OmitScalarText::OmitScalarText(bool omit) : previous_(omitScalarText) { omitScalarText = omit; }
OmitScalarText::~OmitScalarText() { omitScalarText = previous_; }

std::string doneOkJson(const Value& result, const Value& delta, const Value& memory,
                       const std::function<void(std::string&)>& appendMetrics) {
  std::string scalar;
  if (delta.members().empty() && memory.members().empty() && scalarJson(result, scalar))
    return doneScalarJson(scalar, appendMetrics);
  // Written into one string, room made once for a small status: building it
  // from temporaries cost a fifth of a tiny run in the engine.
  constexpr std::string_view kHead = kDoneOkHead;
  std::string out;
  out.reserve(128);
  out.append(kHead);
  ChargedText charged(out, "the result and memory");
  appendJson(out, result);
  out.append(",\"memoryDelta\":");
  appendJson(out, delta);
  out.append(",\"memory\":");
  appendJson(out, memory);
  charged.settle();
  out.append(",\"metrics\":");
  appendMetrics(out);
  out.push_back('}');
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
