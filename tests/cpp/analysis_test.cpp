// Preflight analysis (engine/ptc_json/analysis.cpp, engine/step_functions/analysis.cpp)
// through the engine API, as the wasm bindings call it.
#include <gtest/gtest.h>

#include <string>

#include "api/engine.h"
#include "core/json.h"

namespace {

using ptc::Value;

std::string analysisOf(const std::string& program, const char* options = "{}") {
  ptc::Engine engine;
  Value status = ptc::parseJson(engine.analyze(program, options), "status");
  EXPECT_TRUE(status.field("ok").isBool() && status.field("ok").asBool()) << ptc::toJson(status);
  return ptc::toJson(status.field("analysis"));
}

TEST(Analysis, AMapOverALoadedListCallsItsToolPerItemOfTheList) {
  EXPECT_EQ(
      analysisOf(R"({"program": {"op": "pipe", "steps": [
      {"op": "load", "name": "orders"},
      {"op": "filter", "where": {"op": "eq", "field": "status", "value": "open"}},
      {"op": "map", "expr": {"op": "call", "tool": "get_customer", "args": {"id": {"op": "get", "field": "customer"}}}}]}})"),
      R"({"tools":[{"name":"get_customer","calls":[{"path":"/program/steps/2/expr","count":"per item of /program/steps/1","bounded":false}]}],)"
      R"("context":[{"key":"orders"}],"memory":{"reads":[],"writes":[],"writesUnknown":false},"depth":4,"nodes":8})");
}

TEST(Analysis, LoopCallsAreBoundedByItsMaxTryCallsAreCaught) {
  EXPECT_EQ(
      analysisOf(R"({"program": {"op": "try", "expr": {"op": "loop",
      "init": {"op": "call", "tool": "page", "args": {"n": 1}},
      "while": {"op": "get", "field": "next"},
      "next": {"op": "call", "tool": "page", "args": {"n": {"op": "get", "field": "next"}}}, "max": 20}}})"),
      R"({"tools":[{"name":"page","calls":[{"path":"/program/expr/init","count":"once","bounded":true,"caught":true},)"
      R"({"path":"/program/expr/next","count":"at most 20 times","bounded":true,"caught":true}]}],)"
      R"("context":[],"memory":{"reads":[],"writes":[],"writesUnknown":false},"depth":4,"nodes":7})");
}

TEST(Analysis, VarsNoLetBindsAreMemoryReadsAndTheFinalObjectsKeysAreWrites) {
  EXPECT_EQ(
      analysisOf(R"({"program": {"op": "let", "name": "seen", "value": {"op": "var", "name": "count"},
      "in": {"result": {"op": "var", "name": "seen"}, "count": {"op": "add", "left": {"op": "var", "name": "seen"}, "right": 1}}}})"),
      R"({"tools":[],"context":[],"memory":{"reads":["count"],"writes":["count"],"writesUnknown":false},"depth":4,"nodes":7})");
}

// A return's value is a final value too (issue 36): its keys are writes,
// though the program's last op (count) never gives an object.
TEST(Analysis, AReturnsValueIsAFinalValueItsKeysAreWrites) {
  EXPECT_EQ(
      analysisOf(R"({"program": {"op": "pipe", "steps": [[1, 2], {"op": "map", "expr": {"op": "if",
      "condition": {"op": "gt", "field": null, "value": 1}, "then": {"op": "return", "value": {"big": "$_"}},
      "else": "$_"}}, {"op": "count"}]}})"),
      R"({"tools":[],"context":[],"memory":{"reads":[],"writes":["big"],"writesUnknown":false},"depth":6,"nodes":11})");
}

TEST(Analysis, NestedRepeatsAreJoinedOutermostFirst) {
  std::string a = analysisOf(R"({"program": {"op": "pipe", "steps": [{"op": "load", "name": "teams"},
      {"op": "map", "expr": {"op": "pipe", "steps": [{"op": "get", "field": "members"},
        {"op": "map", "expr": {"op": "loop", "init": {"op": "call", "tool": "ping"}, "while": {"op": "get", "field": "more"},
          "next": {"op": "call", "tool": "ping"}, "max": 3}}]}}]}})");
  EXPECT_NE(
      a.find(R"({"name":"ping","calls":[{"path":"/program/steps/1/expr/steps/1/expr/init",)"
             R"("count":"per item of /program/steps/0, per item of /program/steps/1/expr/steps/0","bounded":false},)"
             R"({"path":"/program/steps/1/expr/steps/1/expr/next","count":"per item of /program/steps/0, )"
             R"(per item of /program/steps/1/expr/steps/0, at most 3 times","bounded":false}]})"),
      std::string::npos)
      << a;
}

TEST(Analysis, BothBranchesOfAnIfMayWrite) {
  std::string a = analysisOf(R"({"program": {"op": "if", "condition": {"op": "var", "name": "first"},
      "then": {"a": 1, "result": 0}, "else": {"op": "literal", "value": {"b": 2}}}})");
  EXPECT_NE(a.find(R"("memory":{"reads":["first"],"writes":["a","b"],"writesUnknown":false})"), std::string::npos) << a;
}

TEST(Analysis, AFinalValueFromAToolMayWriteAnyKey) {
  std::string a = analysisOf(R"({"program": {"op": "call", "tool": "t"}})");
  EXPECT_NE(a.find(R"("memory":{"reads":[],"writes":[],"writesUnknown":true})"), std::string::npos) << a;
}

// select of an object is an object: a program ending in one writes the keys it keeps.
TEST(Analysis, AFinalSelectMayWriteAnyKey) {
  std::string a = analysisOf(R"({"program": {"op": "pipe", "steps": [{"op": "var", "name": "profile"},
      {"op": "select", "fields": ["name", "plan"]}]}})");
  EXPECT_NE(a.find(R"("memory":{"reads":["profile"],"writes":[],"writesUnknown":true})"), std::string::npos) << a;
}

TEST(Analysis, ProjectedLoadsNameTheFieldsTheyRead) {
  std::string a = analysisOf(R"({"program": {"op": "pipe", "steps": [{"op": "load", "name": "rows"},
      {"op": "filter", "where": {"op": "eq", "field": "cat", "value": "a"}}, {"op": "sum", "field": "amount"}]}})");
  EXPECT_NE(a.find(R"("context":[{"key":"rows","fields":["amount","cat"]}])"), std::string::npos) << a;
}

TEST(Analysis, AnInvalidProgramGivesTheErrorValidateGives) {
  ptc::Engine engine;
  const char* program = R"({"program": {"op": "call", "tool": "nope"}})";
  const char* options = R"({"tools": ["t"]})";
  EXPECT_EQ(engine.analyze(program, options), engine.validate(program, options));
}

TEST(StepFunctionAnalysis, ForStepsCallTheirToolsPerItemOfTheirList) {
  ptc::Engine engine;
  std::string source =
      R"({"function": "main", "input": {"user": "text", "orders": "list any"}, "output": "any", "steps": [
      {"let": "user", "call": "get_user", "args": {"id": "$input.user"}},
      {"for": "o", "in": "$input.orders", "do": [
        {"call": "ship", "args": {"order": "$o"}, "on-error": {"continue": true}}]}]})";
  Value status = ptc::parseJson(engine.analyzeWorkflow(source, "{}"), "status");
  ASSERT_TRUE(status.field("ok").asBool()) << ptc::toJson(status);
  EXPECT_EQ(
      ptc::toJson(status.field("analysis")),
      R"({"tools":[{"name":"get_user","calls":[{"path":"/0/steps/0","function":"main","count":"once","bounded":true}]},)"
      R"({"name":"ship","calls":[{"path":"/0/steps/1/do/0","function":"main","count":"per item of /0/steps/1/in","bounded":false,"caught":true}]}],)"
      R"("input":["orders","user"],"depth":2,"nodes":3})");
}

// What a write left standing if a later step fails: the first later call step
// (a for's body counts right after the for) whose failure stops the function
// without compensating: no on-error, or one that returns without compensate.
TEST(StepFunctionAnalysis, ACallNamesTheFirstLaterStepThatMayFailWithoutCompensating) {
  ptc::Engine engine;
  std::string source =
      R"({"function": "main", "output": "any", "steps": [
      {"let": "r", "call": "reserve"},
      {"call": "charge", "on-error": {"compensate": [{"call": "release", "args": {"id": "$r"}}], "return": 0}},
      {"for": "x", "in": [1, 2], "do": [{"call": "log", "on-error": {"continue": true}}, {"call": "audit"}]},
      {"call": "notify", "on-error": {"return": 1}},
      {"return": 2}]})";
  Value status = ptc::parseJson(engine.analyzeWorkflow(source, "{}"), "status");
  ASSERT_TRUE(status.field("ok").asBool()) << ptc::toJson(status);
  auto site = [&](const char* tool) {
    for (const Value& t : status.field("analysis").field("tools").items())
      if (t.field("name").str() == tool) return t.field("calls").items()[0];
    ADD_FAILURE() << tool;
    return Value();
  };
  EXPECT_EQ(site("reserve").field("uncompensatedAfter").str(), "/0/steps/2/do/1");  // log's failure goes on
  EXPECT_EQ(site("charge").field("uncompensatedAfter").str(), "/0/steps/2/do/1");
  EXPECT_EQ(site("log").field("uncompensatedAfter").str(), "/0/steps/2/do/1");
  EXPECT_EQ(site("audit").field("uncompensatedAfter").str(), "/0/steps/3");  // a return without compensate
  EXPECT_TRUE(site("notify").field("uncompensatedAfter").isNull());          // nothing after it may fail
  EXPECT_TRUE(site("release").field("uncompensatedAfter").isNull());         // a compensation is not a step
}

// A call with an "undo" is undone by a later failure that stops the function;
// only a later on-error that returns without compensating leaves it standing.
TEST(StepFunctionAnalysis, ACallWithAnUndoIsLeftStandingOnlyByALaterReturnThatUndoesNothing) {
  ptc::Engine engine;
  std::string source =
      R"({"function": "main", "output": "any", "steps": [
      {"let": "r", "call": "reserve", "undo": {"call": "release", "args": {"id": "$r"}}},
      {"call": "charge"},
      {"call": "ship", "on-error": {"return": 0}},
      {"return": 2}]})";
  Value status = ptc::parseJson(engine.analyzeWorkflow(source, "{}"), "status");
  ASSERT_TRUE(status.field("ok").asBool()) << ptc::toJson(status);
  auto site = [&](const char* tool) {
    for (const Value& t : status.field("analysis").field("tools").items())
      if (t.field("name").str() == tool) return t.field("calls").items()[0];
    ADD_FAILURE() << tool;
    return Value();
  };
  EXPECT_EQ(site("reserve").field("uncompensatedAfter").str(), "/0/steps/2");  // charge's failure runs the undo
  EXPECT_EQ(site("charge").field("uncompensatedAfter").str(), "/0/steps/2");
}

TEST(StepFunctionAnalysis, AnInvalidFileGivesTheErrorValidateWorkflowGives) {
  ptc::Engine engine;
  const char* source = R"({"function": "main", "output": "any", "steps": [{"call": "nope"}]})";
  EXPECT_EQ(engine.analyzeWorkflow(source, R"({"tools": ["t"]})"),
            engine.validateWorkflow(source, R"({"tools": ["t"]})"));
}

}  // namespace
