// How a step-function run's trace ends when the run ends outside a step's own
// handling: the time limit or the caller's abort interrupts the steps still
// open, and each says so with its own outcome (docs/step-functions.md).
#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "api/engine.h"
#include "core/json.h"
#include "test_support.h"

namespace {

using ptc::Value;

Value status(const std::string& text) { return ptc::parseJson(text, "status"); }

std::string outcomes(const Value& done) {
  std::string out;
  for (const Value& t : done.field("trace").items())
    out += t.field("kind").str() + ":" + t.field("outcome").str() + " ";
  return out;
}

const char* kCallThenReturn =
    R"({"function":"f","output":"any","steps":[{"let":"x","call":"slow","on-error":{"return":"caught"}},{"return":"$x"}]})";

// The handle of a run that waits on its first call.
int waitingOnACall(ptc::Engine& engine, const std::string& source, const std::string& options) {
  ptc::RunStatus first = ptc::testing::startStepFunctionRun(engine, source, options, "{}");
  EXPECT_EQ(status(first.text).field("state").str(), "call") << first.text;
  return first.run;
}

Value finishedRun(ptc::Engine& engine, const std::string& source, const std::string& options) {
  return status(ptc::testing::startStepFunctionRun(engine, source, options, "{}").text);
}

TEST(StepFunctionTrace, ACallAnsweredAfterTheDeadlineEndsAsTimeout) {
  ptc::testing::FakeClock clock;  // time passes only where the test says
  ptc::Engine engine;
  int run = waitingOnACall(engine, kCallThenReturn, R"({"timeoutMs":300,"tools":["slow"]})");
  clock.advance(std::chrono::milliseconds(600));  // the tool overstays
  Value done = status(engine.resume(run, "1"));
  EXPECT_EQ(done.field("error").field("type").str(), "timeout");
  EXPECT_EQ(outcomes(done), "call:timeout ");
  EXPECT_EQ(done.field("trace").items()[0].find("value"), nullptr);
}

TEST(StepFunctionTrace, TheDeadlinePassingBetweenStepsEndsTheOpenStepsAsTimeout) {
  // Two loops over 200 items each: 80,000 steps. The fake clock moves a
  // millisecond at each check of the deadline, so the limit is an amount of
  // work: a fifth of what the whole run does, whatever the machine's speed.
  std::string items = "0";
  for (int i = 1; i < 200; ++i) items += "," + std::to_string(i);
  std::string source = R"({"function":"f","output":"any","steps":[{"let":"xs","expr":[)" + items +
                       R"(]},{"for":"a","in":"$xs","do":[{"for":"b","in":"$xs","do":[{"yield":"$b"}]}]}]})";
  ptc::testing::FakeClock clock(std::chrono::milliseconds(1));
  ptc::Engine engine;
  const int64_t before = clock.readings();
  Value finished = finishedRun(engine, source, R"({"timeoutMs":600000000})");
  ASSERT_TRUE(finished.field("ok").truthy()) << ptc::toJson(finished.field("error"));
  const int64_t limitMs = (clock.readings() - before) / 5;
  ASSERT_GT(limitMs, 100) << "the run checks its deadline as its steps go";
  Value done = finishedRun(engine, source, R"({"timeoutMs":)" + std::to_string(limitMs) + "}");
  ASSERT_EQ(done.field("error").field("type").str(), "timeout") << ptc::toJson(done.field("error"));
  const ptc::Array& trace = done.field("trace").items();
  ASSERT_GE(trace.size(), 3u);
  EXPECT_EQ(trace[0].field("outcome").str(), "value") << "the let ended before the limit";
  // The limit strikes as a step is about to start: the loops it is inside end as
  // timeouts (both, or only the outer one when it strikes as an inner loop is
  // about to start), every step that ended before keeps its outcome.
  std::vector<std::string> timedOut;
  for (const Value& t : trace)
    if (t.field("outcome").str() == "timeout") {
      timedOut.push_back(t.field("path").str());
      EXPECT_EQ(t.field("error").str(), done.field("error").field("message").str());
    }
  const std::vector<std::string> both{"/0/steps/1", "/0/steps/1/do/0"};
  const std::vector<std::string> outer{"/0/steps/1"};
  EXPECT_TRUE(timedOut == both || timedOut == outer) << ::testing::PrintToString(timedOut);
}

TEST(StepFunctionTrace, AHostFaultIsAFailureOfTheCallNamingTheTool) {
  ptc::Engine engine;
  int run = waitingOnACall(engine, kCallThenReturn, R"({"tools":["slow"]})");
  Value done = status(engine.cancel(run, "fault", "a BigInt"));
  EXPECT_EQ(done.field("error").field("message").str(), "Tool 'slow' returned a value that is not JSON data: a BigInt");
  EXPECT_EQ(done.field("error").field("path").str(), "/0/steps/0");
  EXPECT_EQ(outcomes(done), "call:failure ");
  EXPECT_EQ(engine.liveRuns(), 0u);
}

TEST(StepFunctionTrace, DataTheEngineCannotReadIsAFailureOfTheCall) {
  ptc::Engine engine;
  int run = waitingOnACall(engine, kCallThenReturn, R"({"tools":["slow"]})");
  Value done = status(engine.resume(run, "[1,"));
  EXPECT_NE(done.field("error").field("message").str().find("Tool 'slow' returned data the engine cannot read"),
            std::string::npos);
  EXPECT_EQ(outcomes(done), "call:failure ");
}

}  // namespace
