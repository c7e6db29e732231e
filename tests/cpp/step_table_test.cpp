// The step table against Step::Kind, the run's trace and verification: one entry
// per kind in enum order (stepSpecOf indexes by it), the trace names each step
// by its entry, and the table's keys are what verification accepts and asks for.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "api/engine.h"
#include "core/json.h"
#include "step_functions/step_table.h"
#include "test_support.h"

namespace {

using ptc::Value;
using ptc::step_functions::KeyPresence;
using ptc::step_functions::Step;
using ptc::step_functions::StepSpec;

TEST(StepTable, HoldsOneEntryPerKindInEnumOrder) {
  const std::span<const StepSpec> table = ptc::step_functions::stepTable();
  ASSERT_EQ(table.size(), ptc::step_functions::kStepKindCount);
  std::set<std::string> names, kindKeys;
  for (size_t i = 0; i < table.size(); ++i) {
    const Step::Kind kind = static_cast<Step::Kind>(i);
    EXPECT_EQ(table[i].kind, kind) << "entry " << i << " ('" << table[i].name << "') is out of enum order";
    EXPECT_EQ(&ptc::step_functions::stepSpecOf(kind), &table[i]);
    EXPECT_TRUE(names.insert(table[i].name).second) << "two kinds named '" << table[i].name << "'";
    EXPECT_TRUE(kindKeys.insert(table[i].kindKey()).second) << "two kinds made by '" << table[i].kindKey() << "'";
    for (const auto& key : table[i].keys)
      EXPECT_EQ(key.presence == KeyPresence::Required, key.whenMissing != nullptr)
          << table[i].name << "." << key.name << ": a required key has a message for its absence, no other key does";
  }
}

TEST(StepTable, ShapesListTheKeysInOrderWithOptionalOnesMarked) {
  EXPECT_EQ(ptc::step_functions::stepShape(ptc::step_functions::stepSpecOf(Step::Kind::Call)),
            "{let?, call, args?, on-error?, retry?, undo?}");
  EXPECT_EQ(ptc::step_functions::stepShape(ptc::step_functions::stepSpecOf(Step::Kind::Return)), "{return}");
}

// Every kind's trace name is seen in the expected trace of some conformance case
// that runs, so a kind's trace name cannot drift from the table unnoticed.
TEST(StepTable, EveryKindIsTracedByItsNameInAConformanceCase) {
  std::set<std::string> traced;
  for (const ptc::testing::Case& c : ptc::testing::loadCases(PTC_WORKFLOW_CONFORMANCE_DIR))
    for (const Value& entry : c.data.field("expect").field("trace").items())
      if (entry.field("kind").isString()) traced.insert(entry.field("kind").str());
  for (const StepSpec& spec : ptc::step_functions::stepTable())
    EXPECT_TRUE(traced.count(spec.name)) << "no case in tests/conformance-workflows traces a '" << spec.name
                                         << "' step: add one";
}

Value verified(const std::string& steps, const char* output = "any") {
  ptc::Engine engine;
  std::string source = std::string(R"({"function":"f","output":")") + output + R"(","steps":)" + steps + "}";
  return ptc::parseJson(engine.validateWorkflow(source, R"({"tools":["t"]})"), "status");
}

std::string messageOf(const Value& status) { return status.field("error").field("message").str(); }

TEST(StepTableVerification, AStepWithNoKindListsEveryShapeOfTheTable) {
  Value s = verified(R"([{"args":{}}])");
  EXPECT_EQ(messageOf(s),
            "Unknown step shape: a step is one of {let, expr}, {let?, call, args?, on-error?, retry?, undo?}, {let, "
            "match, cases}, {if, then?, else?, return?, compensate?, break?}, {return}, {for, in, where?, do, let?, "
            "parallel?, state?} or {yield, to?}");
  EXPECT_EQ(s.field("error").field("path").str(), "/0/steps/0");
}

TEST(StepTableVerification, ReturnWithIfIsOneIfStepAndIsNamedLastAmongTwoKinds) {
  EXPECT_TRUE(verified(R"([{"if":true,"return":1},{"return":2}])").field("ok").asBool());
  EXPECT_EQ(messageOf(verified(R"([{"return":1,"for":"x","in":[],"do":[{"yield":1}]}])")),
            "A step has exactly one kind, but this one has both 'for' and 'return': split it into two steps");
  EXPECT_EQ(messageOf(verified(R"([{"if":true,"return":1,"yield":2}])")),
            "A step has exactly one kind, but this one has both 'if' and 'yield': split it into two steps");
}

TEST(StepTableVerification, UnknownAndMissingKeysComeFromTheKindsEntry) {
  Value unknown = verified(R"([{"let":"x","call":"t","retyr":3},{"return":1}])");
  EXPECT_EQ(messageOf(unknown),
            "Unknown key 'retyr' in a call step. Did you mean 'retry'? Its keys are: let, call, args, on-error, retry, "
            "undo.");
  EXPECT_EQ(unknown.field("error").field("path").str(), "/0/steps/0/retyr");
  EXPECT_EQ(messageOf(verified(R"([{"for":"x","do":[{"yield":1}]}])")),
            "A for step needs \"in\": the list to loop over");
  EXPECT_EQ(messageOf(verified(R"([{"for":"x","in":[]}])")), "A for step needs \"do\": the steps of each iteration");
}

}  // namespace
