// Runs every case of tests/conformance/*.json (PTC-JSON) against the native
// engine, through the same JSON-text protocol the wasm bindings use.
#include <gtest/gtest.h>

#include "core/json.h"
#include "test_support.h"

namespace {

using ptc::Value;
using ptc::testing::Case;

std::string optionsFor(const Value& c) {
  ptc::Members members;
  for (const ptc::Member& m : c.field("options").members()) members.push_back(m);
  if (!c.field("validateOnly").truthy()) {
    ptc::Array names;
    for (const ptc::Member& m : c.field("tools").members()) names.push_back(m.key);
    members.push_back(ptc::Member{Value::string("tools"), Value::array(std::move(names))});
  }
  return ptc::toJson(Value::object(std::move(members)));
}

std::string textOr(const Value& v, const char* fallback) { return v.isNull() ? fallback : ptc::toJson(v); }

Value runCase(ptc::Engine& engine, const Value& c, ptc::Array& calls) {
  std::string program = c.find("source") ? c.field("source").str() : ptc::toJson(c.field("program"));
  if (c.field("validateOnly").truthy()) return ptc::parseJson(engine.validate(program, optionsFor(c)), "status");
  // The package's path: prepare once, then run the prepared program.
  Value prepared = ptc::parseJson(engine.prepare(program, optionsFor(c)), "status");
  if (prepared.field("state").str() != "prepared") return prepared;
  int id = static_cast<int>(prepared.field("id").asInt());
  Value begun = ptc::parseJson(
      engine.runPrepared(id, textOr(c.field("context"), "{}"), textOr(c.field("memory"), "{}")), "status");
  if (begun.field("state").str() != "call") return begun;
  int run = static_cast<int>(begun.field("run").asInt());
  return ptc::testing::driveWithMocks(engine, run, begun, c.field("tools"), calls);
}

class Conformance : public ::testing::TestWithParam<Case> {};

TEST_P(Conformance, Case) {
  const Value& c = GetParam().data;
  ptc::Engine engine;
  ptc::Array calls;
  Value status = runCase(engine, c, calls);
  SCOPED_TRACE("status: " + ptc::toJson(status));
  ptc::testing::checkExpectation(status, c.field("expect"), calls);
}

std::vector<Case> allCases() {
  static std::vector<Case> cases = ptc::testing::loadCases(PTC_CONFORMANCE_DIR);
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, Conformance, ::testing::ValuesIn(allCases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return ptc::testing::testName(info.param, info.index); });

TEST(ConformanceFiles, ThereAreCases) { EXPECT_GT(allCases().size(), 100u); }

}  // namespace
