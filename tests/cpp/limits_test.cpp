// Hostile data against the run limits, through the engine's JSON-text API:
// operations on wide objects that used to be quadratic in their keys (and
// blind to timeoutMs), values used in many places that are small to hold but
// huge as text, and program text that is huge itself. Every run here reads a
// fake clock that moves a millisecond at each check of the deadline (one per
// 1024 steps of work): timeoutMs is then an amount of work, the same on any
// machine, loaded or not. The limits below let the right (linear or n log n)
// work finish and stop the quadratic work each bug did.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "api/engine.h"
#include "core/json.h"
#include "test_support.h"

namespace {

using ptc::Value;

Value parsed(const std::string& text) { return ptc::parseJson(text, "status"); }

// {"k0":0,"k1":1,...}, keys in reverse order when `reversed`.
std::string wideObject(int n, const std::string& prefix = "k", bool reversed = false) {
  std::string out = "{";
  for (int j = 0; j < n; ++j) {
    int i = reversed ? n - 1 - j : j;
    if (j) out += ",";
    out += "\"" + prefix + std::to_string(i) + "\":" + std::to_string(i);
  }
  return out + "}";
}

struct Outcome {
  std::string text;  // the final status
};

Outcome runProgram(ptc::Engine& engine, const std::string& program, const std::string& context,
                   const std::string& options, const std::string& memory = "{}") {
  ptc::testing::FakeClock clock(std::chrono::milliseconds(1));
  Value prepared = parsed(engine.prepare(program, options));
  Outcome out;
  if (prepared.field("state").str() != "prepared") {
    out.text = ptc::toJson(prepared);
  } else {
    out.text = engine.runPrepared(static_cast<int>(prepared.field("id").asInt()), context, memory).text;
  }
  return out;
}

Outcome runWorkflow(ptc::Engine& engine, const std::string& source, const std::string& input,
                    const std::string& options) {
  ptc::testing::FakeClock clock(std::chrono::milliseconds(1));
  Outcome out;
  out.text = ptc::testing::startStepFunctionRun(engine, source, options, input).text;
  return out;
}

// The status, unless it is far bigger than any right answer here (the bugs
// returned hundreds of megabytes).
Value statusOf(const Outcome& o) {
  EXPECT_LT(o.text.size(), 4u << 20) << o.text.substr(0, 300);
  return o.text.size() < (4u << 20) ? parsed(o.text) : parsed(R"({"ok":null})");
}

std::string errorType(const Value& status) { return status.field("error").field("type").str(); }

// The right result within the run's limit of work.
void expectResult(const Outcome& o, const std::string& resultJson) {
  EXPECT_EQ(ptc::toJson(statusOf(o).field("result")), resultJson) << o.text.substr(0, 300);
}

// ---- wide objects (issue 11, item 5) ----

// Sizes are such that the quadratic versions took 5-30 s natively (and 5x that in wasm): hundreds
// of millions of steps, where the limits below allow some tens of millions.

TEST(WideObjects, MergeOfFortyThousandKeysWithItselfIsPrompt) {
  ptc::Engine engine;
  Outcome o = runProgram(engine,
                         R"({"program":{"op":"pipe","steps":[{"op":"merge","objects":[{"op":"load","name":"o"},)"
                         R"({"op":"load","name":"o"}]},{"op":"keys"},{"op":"count"}]}})",
                         "{\"o\":" + wideObject(40000) + "}", R"({"timeoutMs":20000})");
  expectResult(o, "40000");
}

TEST(WideObjects, EqualityOfSixtyThousandKeysInAnotherOrderIsPrompt) {
  ptc::Engine engine;
  Outcome o = runProgram(engine,
                         R"({"program":{"op":"pipe","steps":[{"op":"load","name":"a"},)"
                         R"({"op":"eq","value":{"op":"load","name":"b"}}]}})",
                         "{\"a\":" + wideObject(60000) + ",\"b\":" + wideObject(60000, "k", true) + "}",
                         R"({"timeoutMs":30000})");
  EXPECT_EQ(ptc::toJson(statusOf(o).field("result")), "true") << o.text.substr(0, 300);
}

TEST(WideObjects, DistinctOverOneWideObjectUsedManyTimesIsPrompt) {
  ptc::Engine engine;
  std::string indexes = "[";
  for (int i = 0; i < 200; ++i) indexes += (i ? "," : "") + std::to_string(i);
  indexes += "]";
  Outcome o =
      runProgram(engine,
                 R"({"program":{"op":"let","name":"o","value":{"op":"load","name":"o"},"in":)"
                 R"({"op":"pipe","steps":[{"op":"literal","value":)" +
                     indexes + R"(},{"op":"map","expr":{"op":"var","name":"o"}},{"op":"distinct"},{"op":"count"}]}}})",
                 "{\"o\":" + wideObject(5000) + "}", R"({"timeoutMs":20000})");
  expectResult(o, "1");
}

TEST(WideObjects, TheMemoryContractMergesWideMemoryPromptly) {
  ptc::Engine engine;
  Outcome o = runProgram(engine, R"({"program":{"op":"load","name":"o"}})", "{\"o\":" + wideObject(60000, "m") + "}",
                         R"({"timeoutMs":30000,"maxHeapBytes":67108864})", wideObject(60000, "m"));
  ASSERT_LT(o.text.size(), 16u << 20);
  EXPECT_EQ(parsed(o.text).field("memory").members().size(), 60000u) << o.text.substr(0, 300);
}

TEST(WideObjects, GetOnAWideObjectInsideAMapFindsTheKeyWithoutAScan) {
  ptc::Engine engine;
  std::string indexes = "[";
  for (int i = 0; i < 80000; ++i) indexes += (i ? "," : "") + std::to_string(i);
  indexes += "]";
  Outcome o =
      runProgram(engine,
                 R"({"program":{"op":"let","name":"o","value":{"op":"load","name":"o"},"in":)"
                 R"({"op":"pipe","steps":[{"op":"load","name":"xs"},)"
                 R"({"op":"map","expr":{"op":"pipe","steps":[{"op":"var","name":"o"},)"
                 R"({"op":"get","field":"k50000"}]}},{"op":"count"}]}}})",
                 "{\"o\":" + wideObject(80000, "k", true) + ",\"xs\":" + indexes + "}", R"({"timeoutMs":30000})");
  EXPECT_EQ(ptc::toJson(statusOf(o).field("result")), "80000") << o.text.substr(0, 300);
}

TEST(WideObjects, StepFunctionMergeOfFortyThousandKeysIsPrompt) {
  ptc::Engine engine;
  Outcome o = runWorkflow(engine,
                          R"({"function":"main","input":{"o":"any"},"output":"number","steps":[)"
                          R"({"let":"m","expr":{"$merge":["$input.o","$input.o"]}},{"return":1}]})",
                          "{\"o\":" + wideObject(40000) + "}", R"({"timeoutMs":20000})");
  expectResult(o, "1");
}

TEST(WideObjects, AStepFunctionFileWithAWideObjectIsReadPromptly) {
  ptc::Engine engine;
  Outcome o = runWorkflow(
      engine,
      R"({"function":"main","output":"number","steps":[{"let":"o","expr":)" + wideObject(50000) + R"(},{"return":1}]})",
      "{}", R"({"timeoutMs":20000})");
  expectResult(o, "1");
}

TEST(WideObjects, AWideObjectFollowedByBadJsonFailsPromptly) {
  ptc::Engine engine;
  // The fast parser declines the text; the one that words the error reads it all first.
  Outcome o = runProgram(engine, R"({"program":{"op":"load","name":"o"}})", "{\"o\":" + wideObject(50000) + "}}",
                         R"({"timeoutMs":60000})");
  Value status = statusOf(o);
  EXPECT_EQ(errorType(status), "parse_error") << o.text.substr(0, 300);
}

TEST(WideObjects, SelectListingAFieldTwiceKeepsItOnce) {
  // An object's keys are distinct (its key index relies on it).
  ptc::Engine engine;
  Outcome o = runProgram(engine,
                         R"({"program":{"op":"pipe","steps":[{"op":"literal","value":{"a":1,"b":2}},)"
                         R"({"op":"select","fields":["a","b","a"]}]}})",
                         "{}", "{}");
  EXPECT_NE(o.text.find(R"("result":{"a":1,"b":2},)"), std::string::npos) << o.text;
}

// ---- values used in many places (issue 11, item 6) ----

// s0 = [a 10 KB string]; s(i+1) = concat [s(i), s(i)]: 2^times references to one string.
std::string doubled(int times, const std::string& use) {
  std::string program = "{\"op\":\"let\",\"name\":\"s0\",\"value\":{\"op\":\"literal\",\"value\":[\"" +
                        std::string(10240, 'x') + "\"]},\"in\":";
  for (int i = 1; i <= times; ++i)
    program += "{\"op\":\"let\",\"name\":\"s" + std::to_string(i) +
               "\",\"value\":{\"op\":\"concat\",\"lists\":[{\"op\":\"var\",\"name\":\"s" + std::to_string(i - 1) +
               "\"},{\"op\":\"var\",\"name\":\"s" + std::to_string(i - 1) + "\"}]},\"in\":";
  program += use;
  for (int i = 0; i <= times; ++i) program += "}";
  return "{\"program\":" + program + "}";
}

TEST(Amplification, AResultThatRepeatsOneStringIsChargedAsItsText) {
  ptc::Engine engine;
  Outcome o = runProgram(engine, doubled(14, R"({"op":"var","name":"s14"})"), "{}", R"({"timeoutMs":60000})");
  Value status = statusOf(o);
  EXPECT_EQ(errorType(status), "memory_exceeded");
  EXPECT_NE(status.field("error").field("message").str().find("while writing the result"), std::string::npos);
  EXPECT_LE(status.field("metrics").field("memoryBytes").asInt(), 10 * 1024 * 1024);
}

TEST(Amplification, TheMemoryDeltaAndMemoryAreChargedAsTheirText) {
  ptc::Engine engine;
  // 1,024 references to a 10 KB string: 10 MB of text wherever the list is written.
  Outcome twice = runProgram(engine, doubled(10, R"({"result":1,"a":{"op":"var","name":"s10"}})"), "{}",
                             R"({"maxHeapBytes":30000000,"timeoutMs":60000})");
  EXPECT_TRUE(parsed(twice.text).field("ok").truthy()) << "memoryDelta and memory: 2 x 10 MB fit in 30 MB";
  Outcome fourTimes =
      runProgram(engine, doubled(10, R"({"result":1,"a":{"op":"var","name":"s10"},"b":{"op":"var","name":"s10"}})"),
                 "{}", R"({"maxHeapBytes":30000000,"timeoutMs":60000})");
  Value status = statusOf(fourTimes);
  EXPECT_EQ(errorType(status), "memory_exceeded") << "4 x 10 MB do not";
  EXPECT_NE(status.field("error").field("message").str().find("while writing the result and memory"),
            std::string::npos);
}

TEST(Amplification, WritingTheResultCountsTowardTheTimeLimit) {
  ptc::Engine engine;
  // 164 MB of text, allowed by the memory limit: writing it cannot fit in 1 ms.
  Outcome o = runProgram(engine, doubled(14, R"({"op":"var","name":"s14"})"), "{}",
                         R"({"timeoutMs":1,"maxHeapBytes":1099511627776})");
  EXPECT_EQ(errorType(statusOf(o)), "timeout");
}

TEST(Amplification, ToolArgsThatRepeatOneStringAreChargedAsTheirText) {
  ptc::Engine engine;
  Outcome o = runProgram(engine, doubled(14, R"({"op":"call","tool":"t","args":{"x":{"op":"var","name":"s14"}}})"),
                         "{}", R"({"tools":["t"],"timeoutMs":60000})");
  Value status = statusOf(o);
  EXPECT_EQ(status.field("state").str(), "done") << "the call never reaches the host";
  EXPECT_EQ(errorType(status), "memory_exceeded");
  EXPECT_NE(status.field("error").field("message").str().find("the args of tool 't'"), std::string::npos);
}

// 2,000 steps each binding the same 10,000-item list.
std::string rebindingSteps() {
  std::string steps;
  for (int i = 0; i < 2000; ++i) steps += R"({"let":"xs","expr":"$input.xs"},)";
  return R"({"function":"main","input":{"xs":"list number"},"output":"number","steps":[)" + steps + R"({"return":1}]})";
}

std::string tenThousandNumbers() {
  std::string xs = "{\"xs\":[";
  for (int i = 0; i < 10000; ++i) xs += (i ? "," : "") + std::to_string(i);
  return xs + "]}";
}

TEST(Amplification, AStepFunctionTraceThatRepeatsOneListIsChargedAsItsText) {
  ptc::Engine engine;
  Outcome o = runWorkflow(engine, rebindingSteps(), tenThousandNumbers(), R"({"timeoutMs":60000})");
  Value status = statusOf(o);
  EXPECT_EQ(errorType(status), "memory_exceeded");
  EXPECT_NE(status.field("error").field("message").str().find("the trace leaves out the steps' values"),
            std::string::npos);
  const ptc::Array& trace = status.field("trace").items();
  ASSERT_EQ(trace.size(), 2001u) << "every step is still there";
  EXPECT_EQ(trace[0].field("outcome").str(), "value");
  EXPECT_EQ(trace[0].find("value"), nullptr);
}

// ---- program text (issue 11, item 22) ----

std::string programOfBytes(size_t bytes) {
  std::string head = R"({"program":{"op":"literal","value":")";
  std::string tail = "\"}}";
  return head + std::string(bytes - head.size() - tail.size(), 'x') + tail;
}

TEST(ProgramText, OverOneMebibyteIsAValidationErrorThatSaysWhy) {
  ptc::Engine engine;
  EXPECT_TRUE(parsed(engine.prepare(programOfBytes(1 << 20), "{}")).field("state").str() == "prepared");
  for (const std::string& text :
       {engine.prepare(programOfBytes((1 << 20) + 1), "{}"), engine.validate(programOfBytes((1 << 20) + 1), "{}")}) {
    Value error = parsed(text).field("error");
    EXPECT_EQ(error.field("type").str(), "validation_error");
    EXPECT_NE(error.field("message").str().find("1048577 bytes"), std::string::npos) << text;
    EXPECT_NE(error.field("message").str().find("limit of 1048576 bytes"), std::string::npos) << text;
    EXPECT_NE(error.field("message").str().find("context"), std::string::npos) << text;
  }
}

TEST(ProgramText, AStepFunctionFileOverOneMebibyteIsAValidationError) {
  ptc::Engine engine;
  std::string source =
      R"({"function":"main","output":"text","steps":[{"return":")" + std::string(1 << 20, 'x') + "\"}]}";
  for (const std::string& text : {engine.prepareWorkflow(source, "{}"), engine.validateWorkflow(source, "{}")}) {
    Value error = parsed(text).field("error");
    EXPECT_EQ(error.field("type").str(), "validation_error") << text.substr(0, 300);
    EXPECT_NE(error.field("message").str().find("input"), std::string::npos) << text.substr(0, 300);
  }
}

TEST(ProgramText, ReadingItCountsTowardTheTimeLimit) {
  ptc::testing::FakeClock clock(std::chrono::milliseconds(1));
  ptc::Engine engine;
  std::string numbers;
  for (int i = 0; numbers.size() < 1000000; ++i) numbers += (i ? ",123456" : "123456");
  std::string program =
      R"({"program":{"op":"pipe","steps":[{"op":"literal","value":[)" + numbers + R"(]},{"op":"count"}]}})";
  Value error = parsed(engine.prepare(program, R"({"timeoutMs":1})")).field("error");
  EXPECT_EQ(error.field("type").str(), "timeout");
  EXPECT_NE(error.field("message").str().find("Reading the program"), std::string::npos);
  // With time enough, it is prepared.
  EXPECT_EQ(parsed(engine.prepare(program, R"({"timeoutMs":5000})")).field("state").str(), "prepared");
}

TEST(ProgramText, AMebibyteOfDistinctLoadsIsReadPromptly) {
  ptc::Engine engine;
  std::string steps;
  for (int i = 0; i < 34000; ++i)
    steps += (i ? "," : "") + std::string(R"({"op":"load","name":"n)") + std::to_string(i) + "\"}";
  ptc::testing::FakeClock clock(std::chrono::milliseconds(1));
  Value prepared =
      parsed(engine.prepare(R"({"program":{"op":"pipe","steps":[)" + steps + "]}}", R"({"timeoutMs":30000})"));
  EXPECT_EQ(prepared.field("state").str(), "prepared") << ptc::toJson(prepared).substr(0, 300);
  EXPECT_EQ(prepared.field("loads").items().size(), 34000u);
}

TEST(ProgramText, AStepFunctionFileBindingThirtyThousandNamesIsReadPromptly) {
  ptc::Engine engine;
  std::string steps = R"({"let":"v0","expr":1})";
  for (int i = 1; i < 30000; ++i)
    steps += R"(,{"let":"v)" + std::to_string(i) + R"(","expr":"$v)" + std::to_string(i - 1) + "\"}";
  Outcome o =
      runWorkflow(engine, R"({"function":"main","output":"number","steps":[)" + steps + R"(,{"return":"$v29999"}]})",
                  "{}", R"({"timeoutMs":300000})");  // a run checks its deadline at every step: 30,000 of them
  EXPECT_EQ(ptc::toJson(statusOf(o).field("result")), "1") << o.text.substr(0, 300);
}

}  // namespace
