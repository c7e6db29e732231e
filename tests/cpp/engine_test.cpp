// The engine's host protocol around prepared programs: what the package relies
// on beyond single conformance cases (reuse, limits per preparation, handles).
#include <gtest/gtest.h>

#include "api/engine.h"
#include "core/json.h"
#include "core/row_block.h"
#include "row_block_writer.h"
#include "test_support.h"

namespace {

using ptc::Value;

Value status(const std::string& text) { return ptc::parseJson(text, "status"); }

const char* kSumTravel =
    R"({"program":{"op":"pipe","steps":[{"op":"load","name":"rows"},)"
    R"({"op":"filter","where":{"op":"eq","field":"category","value":"travel"}},{"op":"sum","field":"amount"}]}})";

int prepareOk(ptc::Engine& engine, const std::string& program, const std::string& options = "{}") {
  Value prepared = status(engine.prepare(program, options));
  EXPECT_EQ(prepared.field("state").str(), "prepared") << ptc::toJson(prepared);
  return static_cast<int>(prepared.field("id").asInt());
}

TEST(PreparedPrograms, AnswerWhichContextKeysTheyLoad) {
  ptc::Engine engine;
  Value prepared = status(engine.prepare(kSumTravel, "{}"));
  EXPECT_EQ(ptc::toJson(prepared.field("loads")), R"(["rows"])");
}

TEST(PreparedPrograms, RunAgainWithOtherData) {
  ptc::Engine engine;
  int id = prepareOk(engine, kSumTravel);
  Value first = status(engine.runPrepared(id, R"({"rows":[{"category":"travel","amount":2}]})", "{}").text);
  Value second =
      status(engine.runPrepared(id, R"({"rows":[{"category":"travel","amount":5},{"amount":1}]})", "{}").text);
  EXPECT_EQ(first.field("result").asDouble(), 2);
  EXPECT_EQ(second.field("result").asDouble(), 5);
  EXPECT_EQ(engine.runPrepared(id, R"({"rows":[]})", "{}").run, 0) << "a finished run has no handle";
  EXPECT_EQ(engine.liveRuns(), 0u);
}

TEST(PreparedPrograms, KeepTheLimitsTheyWerePreparedWith) {
  ptc::Engine engine;
  int roomy = prepareOk(engine, kSumTravel, R"({"maxHeapBytes":1048576})");
  int tight = prepareOk(engine, kSumTravel, R"({"maxHeapBytes":64})");
  const std::string rows = R"({"rows":[{"category":"travel","amount":1},{"category":"travel","amount":2}]})";
  EXPECT_TRUE(status(engine.runPrepared(roomy, rows, "{}").text).field("ok").truthy());
  Value refused = status(engine.runPrepared(tight, rows, "{}").text);
  EXPECT_EQ(refused.field("error").field("type").str(), "memory_exceeded");
}

TEST(PreparedPrograms, AProgramThatFailsValidationIsNotPrepared) {
  ptc::Engine engine;
  Value refused = status(engine.prepare(R"({"program":{"op":"filer"}})", "{}"));
  EXPECT_EQ(refused.field("state").str(), "done");
  EXPECT_EQ(refused.field("error").field("type").str(), "validation_error");
  EXPECT_EQ(refused.field("error").field("path").str(), "/program");
  EXPECT_EQ(engine.preparedPrograms(), 0u);
}

TEST(PreparedPrograms, ARunWaitingOnAToolCarriesItsHandle) {
  ptc::Engine engine;
  int id = prepareOk(engine, R"({"program":{"op":"call","tool":"lookup","args":{"q":1}}})", R"({"tools":["lookup"]})");
  ptc::RunStatus started = engine.runPrepared(id, "{}", "{}");
  // The handle travels beside the status, not spliced into its text: the
  // text is a call status like any other, its state first.
  EXPECT_GT(started.run, 0);
  EXPECT_EQ(started.text.rfind(R"({"state":"call",)", 0), 0u) << started.text;
  Value waiting = status(started.text);
  ASSERT_EQ(waiting.field("state").str(), "call");
  EXPECT_EQ(waiting.find("run"), nullptr) << started.text;
  int run = started.run;
  Value done = status(engine.resume(run, "42"));
  EXPECT_EQ(done.field("result").asDouble(), 42);
  EXPECT_EQ(engine.liveRuns(), 0u);
}

TEST(PreparedPrograms, UnknownOrReleasedHandlesAreErrorsNotCrashes) {
  ptc::Engine engine;
  int id = prepareOk(engine, kSumTravel);
  engine.release(id);
  EXPECT_EQ(engine.preparedPrograms(), 0u);
  for (int handle : {id, 0, -1, 12345}) {
    Value refused = status(engine.runPrepared(handle, "{}", "{}").text);
    EXPECT_EQ(refused.field("error").field("type").str(), "execution_error");
    EXPECT_EQ(refused.field("error").field("message").str(), "Unknown prepared program " + std::to_string(handle));
  }
  Value noRun = status(engine.resume(999, "1"));
  EXPECT_EQ(noRun.field("error").field("message").str(), "Unknown run 999");
}

TEST(PreparedPrograms, BadDataIsAParseErrorAndTheProgramStaysUsable) {
  ptc::Engine engine;
  int id = prepareOk(engine, kSumTravel);
  Value bad = status(engine.runPrepared(id, R"({"rows":[1,}")", "{}").text);
  EXPECT_EQ(bad.field("error").field("type").str(), "parse_error");
  Value good = status(engine.runPrepared(id, R"({"rows":[]})", "{}").text);
  EXPECT_EQ(good.field("result").asDouble(), 0);
}

// Step-function files have the same lifecycle as programs (issue 27): prepared
// once, run by handle any number of times, each run taking the entry's input.
const char* kDouble =
    R"({"function":"twice","input":{"n":"number"},"output":"number","steps":[{"return":{"*":["$input.n",2]}}]})";

TEST(PreparedStepFunctions, RunAgainWithOtherInputs) {
  ptc::Engine engine;
  Value prepared = status(engine.prepareWorkflow(kDouble, "{}"));
  ASSERT_EQ(prepared.field("state").str(), "prepared") << ptc::toJson(prepared);
  EXPECT_EQ(ptc::toJson(prepared.field("loads")), "[]") << "the input is the whole payload";
  int id = static_cast<int>(prepared.field("id").asInt());
  EXPECT_EQ(status(engine.runPrepared(id, R"({"n":2})", "").text).field("result").asDouble(), 4);
  EXPECT_EQ(status(engine.runPrepared(id, R"({"n":5})", "").text).field("result").asDouble(), 10);
  EXPECT_EQ(engine.liveRuns(), 0u);
}

TEST(PreparedStepFunctions, AFileThatFailsVerificationIsNotPrepared) {
  ptc::Engine engine;
  Value refused = status(
      engine.prepareWorkflow(R"({"function":"f","output":"number","steps":[{"call":"nope"}]})", R"({"tools":[]})"));
  EXPECT_EQ(refused.field("state").str(), "done");
  EXPECT_EQ(refused.field("error").field("type").str(), "validation_error");
  EXPECT_EQ(engine.preparedPrograms(), 0u);
}

TEST(PreparedStepFunctions, TakeNeitherRowBlocksNorAResidentContext) {
  ptc::Engine engine;
  int id = static_cast<int>(status(engine.prepareWorkflow(kDouble, "{}")).field("id").asInt());
  for (Value refused : {status(engine.runPrepared(id, R"({"n":1})", "", 0, "x").text),
                        status(engine.runPrepared(id, R"({"n":1})", "", 0, {}, 1).text)}) {
    EXPECT_EQ(refused.field("error").field("code").str(), "bad_host_call");
    EXPECT_EQ(refused.field("error").field("message").str(),
              "A step-function run takes its input only: no row blocks, no resident context");
  }
  EXPECT_EQ(status(engine.runPrepared(id, R"({"n":1})", "").text).field("result").asDouble(), 2) << "still usable";
}

}  // namespace

// A journal entry with neither a value nor an error (issue 24, item 10) can only
// reach the engine as an answer that is no JSON value: whatever the host sends,
// it is a typed failure of that call, and the engine's other runs go on.
TEST(ToolAnswers, AnAnswerThatIsNoJsonValueFailsThatCallOnly) {
  ptc::Engine engine;
  const int program = prepareOk(engine, R"({"program":{"op":"call","tool":"t"}})", R"({"tools":["t"]})");
  for (const char* answer : {"", "undefined", " "}) {
    ptc::RunStatus waitingRun = engine.runPrepared(program, "{}", "{}");
    ptc::RunStatus bystanderRun = engine.runPrepared(program, "{}", "{}");
    Value waiting = status(waitingRun.text);
    ASSERT_EQ(waiting.field("state").str(), "call");
    Value done = status(engine.resume(waitingRun.run, answer));
    EXPECT_EQ(done.field("error").field("type").str(), "execution_error") << ptc::toJson(done);
    EXPECT_NE(done.field("error").field("message").str().find("Tool 't'"), std::string::npos) << ptc::toJson(done);
    Value other = status(engine.resume(bystanderRun.run, "2"));
    EXPECT_EQ(ptc::toJson(other.field("result")), "2") << ptc::toJson(other);
  }
  EXPECT_EQ(engine.liveRuns(), 0u);
}

// What a warm tiny run pays (issue 38, item 1), counted rather than timed: in
// wasm every reading of the clock is a call out to JavaScript. A run that
// ends at once reads it once, to start its deadline; the time the host spent
// before it (spentMs) is checked against that reading, and a column of fewer
// than 1024 cells is folded without a reading of its own.
TEST(TinyRuns, ReadTheClockOnce) {
  ptc::Engine engine;
  const int id = prepareOk(engine, kSumTravel);
  ptc::testing::RowBlockWriter rows;
  rows.block("rows", {"amount", "category"}, {{{ptc::RowTag::Number, 5}, {ptc::RowTag::String, 0}}}, {"travel"});
  ptc::testing::FakeClock clock;
  ptc::RunStatus done = engine.runPrepared(id, "{}", "{}", 0, rows.out);
  EXPECT_EQ(ptc::toJson(status(done.text).field("result")), "5") << done.text;
  EXPECT_EQ(clock.readings(), 1);
  // From JSON rather than a row block, the same.
  const int64_t before = clock.readings();
  done = engine.runPrepared(id, R"({"rows":[{"category":"travel","amount":2}]})", "{}");
  EXPECT_EQ(ptc::toJson(status(done.text).field("result")), "2") << done.text;
  EXPECT_EQ(clock.readings() - before, 1);
}

// The host's time spent before the run (spentMs) is still charged, without a
// second reading: past the time limit, the run is a timeout before it starts.
TEST(TinyRuns, TimeTheHostSpentStillCounts) {
  ptc::Engine engine;
  const int id = prepareOk(engine, kSumTravel, R"({"timeoutMs":50})");
  ptc::testing::FakeClock clock;
  Value late = status(engine.runPrepared(id, R"({"rows":[]})", "{}", 50).text);
  EXPECT_EQ(late.field("error").field("type").str(), "timeout") << ptc::toJson(late);
  Value inTime = status(engine.runPrepared(id, R"({"rows":[]})", "{}", 49).text);
  EXPECT_EQ(ptc::toJson(inTime.field("result")), "0") << ptc::toJson(inTime);
}

// Compiled programs are cached by their text (and options) within a bound of
// bytes as well as of entries: programs near the 1 MiB limit of text do not
// pile up in the engine's memory, which never shrinks. A program is answered
// the same whether it was compiled or found.
TEST(ProgramCache, KeepsABoundedAmountOfText) {
  ptc::Engine engine;
  const std::string padding(900 * 1024, ' ');  // blanks around the value: still JSON
  for (int i = 0; i < 20; ++i) {
    const std::string program = R"({"program":{"op":"literal","value":)" + std::to_string(i) + padding + "}}";
    for (int round = 0; round < 2; ++round) {
      const int id = prepareOk(engine, program);
      EXPECT_EQ(ptc::toJson(status(engine.runPrepared(id, "{}", "{}").text).field("result")), std::to_string(i));
      engine.release(id);
    }
    EXPECT_LE(engine.cachedTextBytes(), 4u * 1024 * 1024) << "after " << i + 1 << " programs";
  }
  EXPECT_GT(engine.cachedTextBytes(), 0u);
}
