// A step-function run's trace counts toward maxHeapBytes as it grows: every
// entry names its function, its path and a call's tool, and keeps the error of
// a failed call, and each of those texts is written out once per entry. A file
// of a few kilobytes (a long function name, two nested loops) used to build a
// trace of hundreds of megabytes under a limit of 4 MiB; now the step that
// would outgrow the limit ends the run with memory_exceeded, and the status
// the host gets stays within the limit (docs/step-functions.md, Limits).
#include <gtest/gtest.h>

#include <string>

#include "api/engine.h"
#include "core/json.h"
#include "test_support.h"

namespace {

using ptc::Value;

constexpr uint64_t kLimit = 4 * 1024 * 1024;

Value status(const std::string& text) { return ptc::parseJson(text, "status"); }

// Two nested loops over 400 items in a function named by `nameLength`
// characters: 160,000 steps, past the step limit, each repeating the name.
std::string nestedLoops(size_t nameLength) {
  std::string items = "0";
  for (int i = 1; i < 400; ++i) items += "," + std::to_string(i);
  return R"({"function":")" + std::string(nameLength, 'f') + R"(","output":"any","steps":[{"let":"xs","expr":[)" +
         items + R"(]},{"for":"a","in":"$xs","do":[{"for":"b","in":"$xs","do":[{"let":"c","expr":"$b"}]}]}]})";
}

class TraceBudget : public ::testing::TestWithParam<size_t> {};

TEST_P(TraceBudget, ALongFunctionNameRepeatedByEveryStepEndsTheRunAsMemoryExceeded) {
  ptc::Engine engine;
  const std::string options = R"({"timeoutMs":600000,"maxHeapBytes":)" + std::to_string(kLimit) + "}";
  const std::string text = ptc::testing::startStepFunctionRun(engine, nestedLoops(GetParam()), options, "{}").text;
  EXPECT_LT(text.size(), 2 * kLimit) << "the trace the host gets stays within the run's limit";
  Value done = status(text);
  const Value& error = done.field("error");
  ASSERT_EQ(error.field("type").str(), "memory_exceeded") << ptc::toJson(error);
  EXPECT_NE(error.field("message").str().find("trace"), std::string::npos) << error.field("message").str();
  const ptc::Array& trace = done.field("trace").items();
  ASSERT_GT(trace.size(), 2u);
  EXPECT_LT(trace.size(), 100000u) << "the limit ends the run before the step limit does";
  EXPECT_EQ(trace[0].field("function").str().size(), GetParam());
  EXPECT_EQ(trace[0].field("outcome").str(), "value");
  EXPECT_EQ(trace[1].field("outcome").str(), "failure") << "the loop the limit struck inside";
  EXPECT_LE(static_cast<uint64_t>(done.field("metrics").field("memoryBytes").asInt()), kLimit);
  EXPECT_EQ(engine.liveRuns(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Names, TraceBudget, ::testing::Values(size_t{1000}, size_t{5000}));

TEST(TraceBudgetErrors, AToolFailureMessageKeptByEveryStepCountsTowardTheLimit) {
  // 100 calls caught by on-error, each failing with a 200 KB message: 20 MB
  // of errors in the trace under a limit of 4 MiB.
  std::string items = "0";
  for (int i = 1; i < 100; ++i) items += ",0";
  const std::string file = R"({"function":"f","output":"any","steps":[{"for":"i","in":[)" + items +
                           R"(],"do":[{"call":"t","on-error":{"continue":true}}]}]})";
  ptc::Engine engine;
  const std::string options =
      R"({"timeoutMs":600000,"maxConcurrency":1,"tools":["t"],"maxHeapBytes":)" + std::to_string(kLimit) + "}";
  ptc::RunStatus begun = ptc::testing::startStepFunctionRun(engine, file, options, "{}");
  std::string text = begun.text;
  const std::string message(200 * 1024, 'x');
  const int run = begun.run;
  int calls = 0;
  for (Value s = status(text); s.field("state").str() == "call"; s = status(text)) {
    ASSERT_LT(++calls, 200);
    text = engine.fail(run, message);
  }
  EXPECT_LT(text.size(), 2 * kLimit);
  Value done = status(text);
  ASSERT_EQ(done.field("error").field("type").str(), "memory_exceeded") << text.substr(0, 300);
  EXPECT_LT(calls, 100) << "the limit ends the run before its last call";
}

}  // namespace
