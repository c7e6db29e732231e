// The engine's options against the limits table (core/limits.h): absent means
// the table's default, past its maximum is refused rather than capped.
#include <gtest/gtest.h>

#include "api/options.h"
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

}  // namespace
