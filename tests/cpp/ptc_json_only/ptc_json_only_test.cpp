// The engine built without the step-function dialect (CMakeLists.txt's
// ptc_engine_ptc_json, the wasm target ptc_json): PTC-JSON programs prepare and
// run as in the full build; every step-function entry point answers a typed
// error (bad_host_call) that names the module which has the dialect, and the
// engine stays usable. A binary of its own: the full build's ptc_tests links
// the other definition of api/step_functions.h.
#include <gtest/gtest.h>

#include "api/engine.h"
#include "api/step_functions.h"
#include "core/json.h"

namespace {

using ptc::Value;

Value parsed(const std::string& text) { return ptc::parseJson(text, "status"); }

const char* kStepFunctions = R"({"function": "main", "output": "number", "steps": [{"return": 1}]})";
const char* kSum = R"({"program":{"op":"pipe","steps":[{"op":"load","name":"rows"},{"op":"sum","field":"n"}]}})";

void expectNoDialect(const Value& error) {
  EXPECT_EQ(error.field("type").str(), "execution_error") << ptc::toJson(error);
  EXPECT_EQ(error.field("code").str(), "bad_host_call") << ptc::toJson(error);
  EXPECT_NE(error.field("message").str().find("PTC-JSON only"), std::string::npos) << ptc::toJson(error);
  EXPECT_NE(error.field("message").str().find("ptc.wasm"), std::string::npos) << ptc::toJson(error);
}

TEST(PtcJsonOnly, HasNoStepFunctions) { EXPECT_FALSE(ptc::stepfn::available()); }

TEST(PtcJsonOnly, StepFunctionEntryPointsAnswerATypedError) {
  ptc::Engine engine;
  Value prepared = parsed(engine.prepareWorkflow(kStepFunctions, "{}"));
  EXPECT_EQ(prepared.field("state").str(), "done");
  expectNoDialect(prepared.field("error"));
  expectNoDialect(parsed(engine.validateWorkflow(kStepFunctions, "{}")).field("error"));
  expectNoDialect(parsed(engine.analyzeWorkflow(kStepFunctions, "{}")).field("error"));
  expectNoDialect(parsed(engine.workflowLanguage()).field("error"));
}

TEST(PtcJsonOnly, ProgramsRunAsInTheFullBuild) {
  ptc::Engine engine;
  engine.prepareWorkflow(kStepFunctions, "{}");  // refused, and nothing left behind
  Value prepared = parsed(engine.prepare(kSum, "{}"));
  ASSERT_EQ(prepared.field("state").str(), "prepared") << ptc::toJson(prepared);
  int id = static_cast<int>(prepared.field("id").asInt());
  Value done = parsed(engine.runPrepared(id, R"({"rows":[{"n":2},{"n":5}]})", "{}").text);
  EXPECT_EQ(done.field("state").str(), "done") << ptc::toJson(done);
  EXPECT_EQ(done.field("result").asDouble(), 7);
  EXPECT_NE(engine.operations().find("\"group_by\""), std::string::npos);
  EXPECT_EQ(engine.liveRuns(), 0u);
}

}  // namespace
