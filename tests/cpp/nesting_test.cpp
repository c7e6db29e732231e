// Hostile depth: no JSON the engine reads and no value it builds may nest deep
// enough to exhaust the native stack (in wasm that is a trap, which takes down
// every run of the instance). Each way in is refused with a typed error naming
// the limit, and everything the engine writes it can read back.
#include <gtest/gtest.h>

#include <string>

#include "api/engine.h"
#include "core/json.h"
#include "step_functions/compiler.h"
#include "test_support.h"

namespace {

using ptc::Value;

Value status(const std::string& text) { return ptc::parseJson(text, "status"); }

// A status holding a value nested to the limit nests deeper than JSON the engine
// reads (a host reads it with its own parser): these look at its text.
std::string between(const std::string& text, const std::string& from, const std::string& to) {
  size_t start = text.find(from);
  size_t end = text.find(to, start);
  if (start == std::string::npos || end == std::string::npos) return "";
  return text.substr(start + from.size(), end - start - from.size());
}
// The deepest nesting of brackets in a JSON text without brackets in its strings.
int nestingOf(const std::string& json) {
  int depth = 0, deepest = 0;
  for (char c : json) {
    if (c == '[' || c == '{') deepest = std::max(deepest, ++depth);
    if (c == ']' || c == '}') --depth;
  }
  return deepest;
}
bool succeeded(const std::string& text) { return text.rfind(R"({"state":"done","ok":true,)", 0) == 0; }

// A JSON list nested `levels` deep around 1.
std::string nested(int levels) { return std::string(levels, '[') + "1" + std::string(levels, ']'); }

const int kLimit = ptc::kMaxNesting;

// Runs a program on a context and a memory; the final status as text / parsed.
std::string runText(ptc::Engine& engine, const std::string& root, const std::string& context = "{}",
                    const std::string& memory = "{}") {
  std::string prepared = engine.prepare(R"({"program":)" + root + "}", "{}");
  if (status(prepared).field("state").str() != "prepared") return prepared;
  return engine.runPrepared(static_cast<int>(status(prepared).field("id").asInt()), context, memory).text;
}
Value run(ptc::Engine& engine, const std::string& root, const std::string& context = "{}",
          const std::string& memory = "{}") {
  return status(runText(engine, root, context, memory));
}

void expectError(const Value& s, const char* type, const std::string& messagePart, const std::string& path = "") {
  ASSERT_EQ(s.field("ok").truthy(), false) << ptc::toJson(s).substr(0, 300);
  EXPECT_EQ(s.field("error").field("type").str(), type) << ptc::toJson(s.field("error"));
  EXPECT_NE(s.field("error").field("message").str().find(messagePart), std::string::npos)
      << ptc::toJson(s.field("error"));
  if (!path.empty()) {
    EXPECT_EQ(s.field("error").field("path").str(), path);
  }
}

const std::string kDeepJsonMessage = "nested deeper than " + std::to_string(kLimit) + " levels";
const std::string kDeepValueMessage = "more than " + std::to_string(kLimit) + " levels deep";

// ---- JSON read by the engine ----

TEST(HostileDepth, EveryJsonInputIsCappedWithAnErrorNamingTheLimit) {
  ptc::Engine engine;
  const std::string hostile = nested(100000);  // would exhaust any native stack if parsed recursively
  expectError(run(engine, R"({"op":"literal","value":)" + hostile + "}"), "parse_error",
              kDeepJsonMessage + " in program");
  const std::string load = R"({"op":"load","name":"v"})";
  expectError(run(engine, load, R"({"v":)" + hostile + "}"), "parse_error", kDeepJsonMessage + " in context");
  expectError(run(engine, load, "{}", R"({"v":)" + hostile + "}"), "parse_error", kDeepJsonMessage + " in memory");

  std::string prepared = engine.prepare(R"({"program":{"op":"call","tool":"t"}})", "{}");
  ptc::RunStatus call = engine.runPrepared(static_cast<int>(status(prepared).field("id").asInt()), "{}", "{}");
  ASSERT_EQ(status(call.text).field("state").str(), "call");
  Value answered = status(engine.resume(call.run, hostile));
  expectError(answered, "execution_error", "Tool 't' returned data the engine cannot read: JSON " + kDeepJsonMessage,
              "/program");
  EXPECT_EQ(engine.liveRuns(), 0u);
}

TEST(HostileDepth, StepFunctionFilesAndInputsAreCappedToo) {
  ptc::Engine engine;
  const std::string hostile = nested(100000);
  Value file = status(
      engine.prepareWorkflow(R"({"function":"f","output":"number","steps":[{"return":)" + hostile + "}]}", "{}"));
  expectError(file, "parse_error", kDeepJsonMessage + " in step-function file");

  Value begun =
      status(ptc::testing::startStepFunctionRun(
                 engine, R"({"function":"f","input":{"x":"list number"},"output":"number","steps":[{"return":1}]})",
                 "{}", R"({"x":)" + hostile + "}")
                 .text);
  expectError(begun, "parse_error", kDeepJsonMessage + " in input");
}

TEST(HostileDepth, JsonExactlyAtTheLimitIsRead) {
  ptc::Engine engine;
  // The context object is one level, so a value in it may nest kLimit - 1 levels.
  Value ok = run(engine, R"({"op":"load","name":"v"})", R"({"v":)" + nested(kLimit - 1) + "}");
  EXPECT_TRUE(ok.field("ok").truthy()) << ptc::toJson(ok.field("error"));
  EXPECT_EQ(ok.field("result").height(), kLimit - 1);
  expectError(run(engine, R"({"op":"load","name":"v"})", R"({"v":)" + nested(kLimit) + "}"), "parse_error",
              kDeepJsonMessage + " in context");
}

// ---- values built by a run ----

// A context whose "v" nests kLimit - 1 levels: one level more is the most a value may have.
const std::string kDeepContext = R"({"v":)" + nested(kLimit - 1) + "}";
const std::string kWrapInput = R"({"op":"object","fields":{"a":{"op":"get","path":[]}}})";

TEST(HostileDepth, ARunBuildingAValueTooDeepFailsAtTheNodeThatBuildsIt) {
  ptc::Engine engine;
  // The 20,000-step program of the review is over the 1 MiB program limit now; 2,000 steps, each
  // wrapping the last value in an object, still build a value past the nesting limit.
  std::string steps = R"({"op":"literal","value":1})";
  for (int i = 0; i < 2000; ++i) steps += "," + kWrapInput;
  expectError(run(engine, R"({"op":"pipe","steps":[)" + steps + "]}"), "execution_error", kDeepValueMessage,
              "/program/steps/" + std::to_string(kLimit + 1));

  const std::string load = R"({"op":"load","name":"v"})";
  const std::string wrapLoad = R"({"op":"object","fields":{"a":)" + load + "}}";
  std::string atLimit = runText(engine, wrapLoad, kDeepContext);
  ASSERT_TRUE(succeeded(atLimit)) << atLimit.substr(0, 300);
  EXPECT_EQ(nestingOf(between(atLimit, R"("result":)", R"(,"memoryDelta")")), kLimit);

  // One level more, by each operation that nests what it is given.
  const std::string listOfDeep =
      R"({"op":"pipe","steps":[{"op":"literal","value":[1]},{"op":"map","expr":)" + wrapLoad + "}]}";
  expectError(run(engine, listOfDeep, kDeepContext), "execution_error", kDeepValueMessage, "/program/steps/1");
  const std::string wrapTwice = R"({"op":"object","fields":{"b":)" + wrapLoad + "}}";
  expectError(run(engine, wrapTwice, kDeepContext), "execution_error", kDeepValueMessage, "/program");
  const std::string zip =
      R"({"op":"zip","lists":[{"op":"pipe","steps":[{"op":"literal","value":[1]},{"op":"map","expr":)" + load +
      R"(}]},{"op":"literal","value":[2]}]})";
  expectError(run(engine, R"({"op":"pipe","steps":[{"op":"literal","value":0},)" + zip + "]}", kDeepContext),
              "execution_error", kDeepValueMessage, "/program/steps/1");

  // The operations of the language issue that nest what they are given do the same.
  const std::string deepList =
      R"({"op":"pipe","steps":[{"op":"literal","value":0},{"op":"list","items":[)" + wrapLoad + "]}]}";
  expectError(run(engine, deepList, kDeepContext), "execution_error", kDeepValueMessage, "/program/steps/1");
  const std::string deepGroups =
      R"({"op":"pipe","steps":[{"op":"literal","value":[1]},{"op":"group_by","key":)" + load + "}]}";
  expectError(run(engine, deepGroups, kDeepContext), "execution_error", kDeepValueMessage, "/program/steps/1");
  const std::string deepEntries = R"({"op":"pipe","steps":[)" + wrapLoad + R"(,{"op":"to_entries"}]})";
  expectError(run(engine, deepEntries, kDeepContext), "execution_error", kDeepValueMessage, "/program/steps/1");
  const std::string deepLoop = R"({"op":"loop","init":)" + wrapLoad +
                               R"(,"next":{"op":"get","path":[]},"while":{"op":"get","field":"a"},"max":2})";
  expectError(run(engine, deepLoop, kDeepContext), "execution_error", kDeepValueMessage, "/program");
}

TEST(HostileDepth, ToolArgsTooDeepFailBeforeTheToolIsCalled) {
  ptc::Engine engine;
  Value s =
      run(engine, R"({"op":"call","tool":"t","args":{"x":{"op":"object","fields":{"a":{"op":"load","name":"v"}}}}})",
          kDeepContext);
  EXPECT_EQ(s.field("state").str(), "done");
  expectError(s, "execution_error", kDeepValueMessage, "/program");
  EXPECT_EQ(s.field("metrics").field("toolCalls").asInt(), 0);
  EXPECT_EQ(engine.liveRuns(), 0u);
}

TEST(HostileDepth, WhatAProgramStoresInMemoryALaterProgramCanRead) {
  ptc::Engine engine;
  // The deepest value a program can store: its root object is the one level more.
  std::string stored = runText(engine, R"({"result":1,"keep":{"op":"load","name":"v"}})", kDeepContext);
  ASSERT_TRUE(succeeded(stored)) << stored.substr(0, 300);
  std::string memory = between(stored, R"("memory":)", R"(,"metrics")");
  EXPECT_EQ(nestingOf(memory), kLimit);
  std::string later = runText(engine, R"({"op":"var","name":"keep"})", "{}", memory);
  ASSERT_TRUE(succeeded(later)) << later.substr(0, 300);
  EXPECT_EQ(nestingOf(between(later, R"("result":)", R"(,"memoryDelta")")), kLimit - 1);

  // One level more is refused when stored: the run fails, memory gets no delta.
  Value refused =
      run(engine, R"({"result":1,"keep":{"op":"object","fields":{"a":{"op":"load","name":"v"}}}})", kDeepContext);
  expectError(refused, "execution_error", kDeepValueMessage, "/program");
  EXPECT_EQ(refused.find("memory"), nullptr);
}

// ---- step functions ----

std::string chainOfFunctions(int n) {
  std::string file = R"({"function":"f0","output":"number","steps":[{"return":1}]})";
  for (int i = 1; i < n; ++i)
    file += R"({"function":"f)" + std::to_string(i) + R"(","output":"number","steps":[{"let":"x","call":"f)" +
            std::to_string(i - 1) + R"("},{"return":"$x"}]})";
  return file;
}

// `levels` for loops inside one another, the innermost running `inner`.
std::string nestedLoops(int levels, const std::string& inner) {
  std::string steps = inner;
  for (int i = 0; i < levels; ++i) steps = R"({"for":"x)" + std::to_string(i) + R"(","in":[1],"do":[)" + steps + "]}";
  return steps;
}

Value runWorkflow(ptc::Engine& engine, const std::string& source) {
  // Depth is measured here, not time: a generous limit for ASan on a loaded machine.
  return status(ptc::testing::startStepFunctionRun(engine, source, R"({"timeoutMs":60000})", "{}").text);
}

TEST(HostileDepth, StepFunctionsNestAtMostTheLimitOfLoopsAndCalls) {
  const int limit = ptc::step_functions::kMaxStepNesting;
  ptc::Engine engine;
  // The entry of a chain of n functions nests n - 1 calls.
  Value chain = runWorkflow(engine, chainOfFunctions(limit + 1));
  EXPECT_TRUE(chain.field("ok").truthy()) << ptc::toJson(chain.field("error"));
  expectError(runWorkflow(engine, chainOfFunctions(limit + 2)), "validation_error",
              "more than " + std::to_string(limit) + " levels deep");
  expectError(runWorkflow(engine, chainOfFunctions(3000)), "validation_error",
              "levels deep");  // trapped the wasm engine

  auto loops = [&](int levels) {
    return R"({"function":"f","output":"nil","steps":[)" + nestedLoops(levels, R"({"yield":1})") + "]}";
  };
  Value deepest = runWorkflow(engine, loops(limit));
  EXPECT_TRUE(deepest.field("ok").truthy()) << ptc::toJson(deepest.field("error"));
  expectError(
      runWorkflow(engine, loops(limit + 1)), "validation_error", "levels deep", "/0/steps/0" + [&] {
        std::string p;
        for (int i = 0; i < limit; ++i) p += "/do/0";
        return p;
      }());

  // Loops and calls add up across functions: half the limit of loops around a
  // call of a function with half the limit of loops, plus one.
  const std::string inner =
      R"({"function":"g","output":"nil","steps":[)" + nestedLoops(limit / 2, R"({"yield":1})") + "]}";
  const std::string outer =
      R"({"function":"f","output":"nil","steps":[)" + nestedLoops(limit / 2, R"({"call":"g"})") + "]}";
  expectError(runWorkflow(engine, inner + outer), "validation_error", "levels deep");
}

TEST(HostileDepth, StepFunctionTypesNestListsAtMostAsDeepAsValues) {
  ptc::Engine engine;
  auto withOutput = [](int lists) {
    std::string type;
    for (int i = 0; i < lists; ++i) type += "list ";
    return R"({"function":"f","output":")" + type + R"(number","steps":[{"return":[]}]})";
  };
  Value ok = runWorkflow(engine, withOutput(kLimit));
  EXPECT_TRUE(ok.field("ok").truthy()) << ptc::toJson(ok.field("error"));
  expectError(runWorkflow(engine, withOutput(kLimit + 1)), "validation_error",
              "at most " + std::to_string(kLimit) + " levels");
  expectError(runWorkflow(engine, withOutput(20000)), "validation_error",
              "at most " + std::to_string(kLimit) + " levels");
}

TEST(HostileDepth, AStepFunctionBuildingAValueTooDeepFaultsAtTheExpression) {
  ptc::Engine engine;
  // Each iteration wraps the accumulated value in a list: [$acc].
  std::string steps = R"({"let":"acc","expr":1})";
  for (int i = 0; i < kLimit + 1; ++i) steps += R"(,{"let":"acc","expr":["$acc"]})";
  // (Its trace holds values nested to the limit: only the error is read.)
  std::string done = ptc::testing::startStepFunctionRun(
                         engine, R"({"function":"f","output":"nil","steps":[)" + steps + "]}", "{}", "{}")
                         .text;
  Value error = status(between(done, R"("error":)", R"(,"trace")"));
  EXPECT_EQ(error.field("type").str(), "execution_error");
  EXPECT_NE(error.field("message").str().find(kDeepValueMessage), std::string::npos) << error.field("message").str();
  EXPECT_EQ(error.field("path").str(), "/0/steps/" + std::to_string(kLimit + 1) + "/expr");
}

}  // namespace
