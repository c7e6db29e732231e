// Runs every case of tests/conformance-workflows/*.json (step functions)
// against the native engine, through the JSON-text protocol.
#include <gtest/gtest.h>

#include "core/json.h"
#include "test_support.h"

namespace {

using ptc::Value;
using ptc::testing::Case;

std::string sourceOf(const Value& c) {
  if (const Value* file = c.find("sourceFile"))
    return ptc::testing::readFile(std::string(PTC_REPO_DIR) + "/" + file->str());
  if (const Value* source = c.find("source")) return source->str();
  std::string out;
  for (const Value& f : c.field("functions").items()) out += ptc::toJson(f) + "\n";
  return out;
}

std::string optionsFor(const Value& c) {
  ptc::Members members = ptc::testing::caseOptions(c);
  ptc::Array names;
  for (ptc::MemberRef m : c.field("tools").members()) names.push_back(m.key);
  members.push_back(ptc::Member{Value::string("tools"), Value::array(std::move(names))});
  if (const Value* entry = c.find("entry")) members.push_back(ptc::Member{Value::string("entry"), *entry});
  if (c.field("validateOnly").truthy())
    if (const Value* input = c.find("input")) members.push_back(ptc::Member{Value::string("input"), *input});
  return ptc::toJson(Value::object(std::move(members)));
}

class StepFunctionConformance : public ::testing::TestWithParam<Case> {};

TEST_P(StepFunctionConformance, Case) {
  ptc::testing::CaseTrace trace(GetParam());
  const Value& c = GetParam().data;
  ptc::Engine engine;
  ptc::Array calls;
  std::string source = sourceOf(c);
  Value status;
  if (c.field("validateOnly").truthy()) {
    status = ptc::parseJson(engine.validateWorkflow(source, optionsFor(c)), "status");
  } else {
    Value input = c.find("input") ? c.field("input") : Value::object({});
    ptc::RunStatus begun = ptc::testing::startStepFunctionRun(engine, source, optionsFor(c), ptc::toJson(input));
    status = ptc::parseJson(begun.text, "status");
    if (status.field("state").str() == "call") {
      int run = begun.run;
      status = ptc::testing::driveWithMocks(engine, run, status, c.field("tools"), calls);
    }
  }
  SCOPED_TRACE("status: " + ptc::toJson(status));
  ptc::testing::checkExpectation(status, c.field("expect"), calls);
}

std::vector<Case> allCases() {
  static std::vector<Case> cases = ptc::testing::loadCases(PTC_WORKFLOW_CONFORMANCE_DIR);
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, StepFunctionConformance, ::testing::ValuesIn(allCases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.testName; });

}  // namespace
