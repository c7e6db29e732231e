// The engine's options against the limits table (core/limits.h): absent means
// the table's default, past its maximum is refused rather than capped.
#include <gtest/gtest.h>

#include "api/engine.h"
#include "api/options.h"
#include "core/json.h"
#include "core/limits.h"

namespace {

ptc::Error refusal(const char* optionsJson) {
  try {
    ptc::parseEngineOptions(optionsJson);
  } catch (const ptc::PtcError& e) {
    return e.error;
  }
  ADD_FAILURE() << "accepted " << optionsJson;
  return {};
}

TEST(EngineOptions, AbsentLimitsAreTheTablesDefaults) {
  ptc::EngineOptions o = ptc::parseEngineOptions("{}");
  EXPECT_EQ(o.limits.timeoutMs, ptc::limits::timeoutMsDefault);
  EXPECT_EQ(o.limits.maxHeapBytes, static_cast<uint64_t>(ptc::limits::maxHeapBytesDefault));
  EXPECT_EQ(o.limits.maxDepth, ptc::limits::maxDepthDefault);
  EXPECT_EQ(o.compile.maxDepth, ptc::limits::maxDepthDefault);
  EXPECT_EQ(o.limits.maxToolCalls, ptc::limits::maxToolCallsDefault);
  EXPECT_EQ(o.limits.maxConcurrency, ptc::limits::maxConcurrencyDefault);
}

// The engine's own default was 1 while the package sent 8: an embedder of the
// engine got sequential calls without saying so.
TEST(EngineOptions, ARunWithoutOptionsIssuesTheTablesDefaultOfCallsAtOnce) {
  ptc::Engine engine;
  const char* program = R"({"program": {"op": "pipe", "steps": [{"op": "literal", "value": [1,2,3,4,5,6,7,8,9,10]},)"
                        R"( {"op": "map", "expr": {"op": "call", "tool": "t"}}]}})";
  ptc::Value prepared = ptc::parseJson(engine.prepare(program, R"({"tools":["t"]})"), "status");
  ASSERT_EQ(prepared.field("state").str(), "prepared") << ptc::toJson(prepared);
  ptc::Value begun =
      ptc::parseJson(engine.runPrepared(static_cast<int>(prepared.field("id").asInt()), "{}", "{}").text, "status");
  ASSERT_EQ(begun.field("state").str(), "call") << ptc::toJson(begun);
  EXPECT_EQ(static_cast<int64_t>(begun.field("calls").items().size()), ptc::limits::maxConcurrencyDefault);
}

// maxDepth 1000 used to run with 500 ("nested more than 500 levels").
TEST(EngineOptions, ALimitPastItsMaximumIsRefusedNotCapped) {
  ptc::Error e = refusal(R"({"maxDepth":1000})");
  EXPECT_EQ(e.code, ptc::ErrorCode::BadOption);
  EXPECT_EQ(e.message, "Option 'maxDepth' must be a positive number of at most 500");
  EXPECT_EQ(refusal(R"({"maxConcurrency":1025})").code, ptc::ErrorCode::BadOption);
  EXPECT_EQ(ptc::parseEngineOptions(R"({"maxDepth":500})").limits.maxDepth, 500);
  EXPECT_EQ(ptc::parseEngineOptions(R"({"maxHeapBytes":9007199254740991})").limits.maxHeapBytes, 9007199254740991ULL);
}

// Issue 40 item 3: a tool's declared result nested past the parser's 1000
// levels made every run a parse_error "JSON nested deeper than 1000 levels in
// options", which reads as the model's program being wrong.
TEST(EngineOptions, OptionsTextTheEngineCannotReadIsTheHostsConfiguration) {
  std::string deep = "1";
  for (int i = 0; i < 1100; i++) deep = "[" + deep + "]";
  std::string options = R"({"tools":["t"],"returns":{"t":{"type":"object","examples":)" + deep + "}}}";
  ptc::Error e = refusal(options.c_str());
  EXPECT_EQ(e.type, ptc::ErrorType::Validation);
  EXPECT_EQ(e.code, ptc::ErrorCode::BadOption);
  EXPECT_NE(e.message.find("which the host sends (not the program)"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("nested deeper than 1000 levels"), std::string::npos) << e.message;
  ptc::Engine engine;
  const std::string status = engine.validate(R"({"program":{"op":"add","left":1,"right":2}})", options);
  EXPECT_EQ(ptc::parseJson(status, "status").field("error").field("code").str(), "bad_option") << status;
  EXPECT_EQ(refusal("{").code, ptc::ErrorCode::BadOption);
}

}  // namespace
