// Runs every case of tests/conformance/*.json (PTC-JSON) against the native
// engine, through the same JSON-text protocol the wasm bindings use.
#include <gtest/gtest.h>

#include <cmath>

#include "core/json.h"
#include "row_block_writer.h"
#include "test_support.h"

namespace {

using ptc::Value;
using ptc::testing::Case;

// A mock tool's `returnsSchema` is its declared result (the package's
// descriptor `returns`): the engine's option "returns".
std::string optionsFor(const Value& c) {
  ptc::Members members = ptc::testing::caseOptions(c);
  ptc::Members returns;
  for (ptc::MemberRef m : c.field("tools").members())
    if (const Value* schema = m.value.find("returnsSchema")) returns.push_back(ptc::Member{m.key, *schema});
  if (!returns.empty()) members.push_back(ptc::Member{Value::string("returns"), Value::object(std::move(returns))});
  if (!c.field("validateOnly").truthy()) {
    ptc::Array names;
    for (ptc::MemberRef m : c.field("tools").members()) names.push_back(m.key);
    members.push_back(ptc::Member{Value::string("tools"), Value::array(std::move(names))});
  }
  return ptc::toJson(Value::object(std::move(members)));
}

std::string textOr(const Value& v, const char* fallback) { return v.isNull() ? fallback : ptc::toJson(v); }

// A status that says it is a scalar (ScalarDone, what the package reads in
// its place) says what its text says: a done status with that result, no
// memory, no warnings, the same metrics; a scalar result of a status that
// says more is not one.
void expectScalarAsText(const ptc::RunStatus& started) {
  Value text = ptc::parseJson(started.text, "status");
  const ptc::ScalarDone& scalar = started.scalar;
  const bool plain = text.field("state").str() == "done" && text.field("ok").truthy() &&
                     text.field("memoryDelta").members().empty() && text.field("memory").members().empty() &&
                     !text.find("warnings");
  const Value& result = text.field("result");
  if (!plain || !(result.isNumber() || result.isNull() || result.kind() == ptc::Kind::Bool)) {
    EXPECT_EQ(scalar.kind, ptc::ScalarDone::None) << started.text;
    return;
  }
  ASSERT_NE(scalar.kind, ptc::ScalarDone::None) << started.text;
  Value said = scalar.kind == ptc::ScalarDone::Number ? Value::number(scalar.number)
               : scalar.kind == ptc::ScalarDone::Null ? Value()
                                                      : Value::boolean(scalar.kind == ptc::ScalarDone::True);
  EXPECT_EQ(ptc::toJson(said), ptc::toJson(result.isNumber() ? Value::number(result.asDouble()) : result))
      << started.text;
  EXPECT_EQ(static_cast<double>(scalar.memoryBytes), text.field("metrics").field("memoryBytes").asDouble());
  EXPECT_EQ(scalar.toolCalls, text.field("metrics").field("toolCalls").asInt());
}

// The wasm binding's run (scalarText false) of a run that finished at once:
// the same scalar and metrics, and no text exactly when the scalar says it all.
void expectSameWithoutText(ptc::Engine& engine, int id, const Value& c, const ptc::RunStatus& started) {
  if (started.run != 0) return;  // waits on tools: nothing to compare
  ptc::RunStatus bare =
      engine.runPrepared(id, textOr(c.field("context"), "{}"), textOr(c.field("memory"), "{}"), 0, {}, 0, false);
  EXPECT_EQ(bare.run, 0);
  EXPECT_EQ(bare.scalar.kind, started.scalar.kind) << started.text;
  if (started.scalar.kind == ptc::ScalarDone::None) {
    EXPECT_NE(bare.text, "");  // (not compared: a timeout's metrics vary)
    return;
  }
  EXPECT_EQ(bare.text, "") << started.text;
  EXPECT_TRUE(bare.scalar.number == started.scalar.number ||
              (std::isnan(bare.scalar.number) && std::isnan(started.scalar.number)));
  EXPECT_EQ(bare.scalar.memoryBytes, started.scalar.memoryBytes) << started.text;
  EXPECT_EQ(bare.scalar.toolCalls, started.scalar.toolCalls);
}

Value runCase(ptc::Engine& engine, const Value& c, ptc::Array& calls) {
  std::string program = c.find("source") ? c.field("source").str() : ptc::toJson(c.field("program"));
  if (c.field("validateOnly").truthy()) return ptc::parseJson(engine.validate(program, optionsFor(c)), "status");
  // The package's path: prepare once, then run the prepared program.
  Value prepared = ptc::parseJson(engine.prepare(program, optionsFor(c)), "status");
  if (prepared.field("state").str() != "prepared") return prepared;
  int id = static_cast<int>(prepared.field("id").asInt());
  ptc::RunStatus started = engine.runPrepared(id, textOr(c.field("context"), "{}"), textOr(c.field("memory"), "{}"));
  expectScalarAsText(started);
  expectSameWithoutText(engine, id, c, started);
  Value begun = ptc::parseJson(started.text, "status");
  if (begun.field("state").str() != "call") return begun;
  int run = started.run;
  return ptc::testing::driveWithMocks(engine, run, begun, c.field("tools"), calls);
}

class Conformance : public ::testing::TestWithParam<Case> {};

TEST_P(Conformance, Case) {
  ptc::testing::CaseTrace trace(GetParam());
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
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.testName; });

// The same cases with their context loaded as a resident context (runs read it
// where it stays, through the column cache of core/resident.h after the first
// run), run twice: the same answers. Cases about the run's memory limit are
// left out (resident data is charged to its own budget, not the run's).
bool residentApplies(const Value& c) {
  return !c.field("validateOnly").truthy() && c.field("context").isObject() &&
         !c.field("options").find("maxHeapBytes") && !c.field("source").isString();
}

class ResidentConformance : public ::testing::TestWithParam<Case> {};

TEST_P(ResidentConformance, Case) {
  ptc::testing::CaseTrace trace(GetParam());
  const Value& c = GetParam().data;
  ptc::Engine engine;
  Value loaded = ptc::parseJson(engine.loadResident(ptc::toJson(c.field("context")), 1u << 30, 10000), "status");
  ASSERT_EQ(loaded.field("state").str(), "resident") << ptc::toJson(loaded);
  const int resident = static_cast<int>(loaded.field("id").asInt());
  Value prepared = ptc::parseJson(engine.prepare(ptc::toJson(c.field("program")), optionsFor(c)), "status");
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    ptc::Array calls;
    Value status = prepared;
    if (prepared.field("state").str() == "prepared") {
      int id = static_cast<int>(prepared.field("id").asInt());
      ptc::RunStatus started = engine.runPrepared(id, "{}", textOr(c.field("memory"), "{}"), 0, {}, resident);
      expectScalarAsText(started);
      status = ptc::parseJson(started.text, "status");
      if (status.field("state").str() == "call")
        status = ptc::testing::driveWithMocks(engine, started.run, status, c.field("tools"), calls);
    }
    SCOPED_TRACE("status: " + ptc::toJson(status));
    ptc::testing::checkExpectation(status, c.field("expect"), calls);
  }
}

std::vector<Case> residentCases() {
  std::vector<Case> cases;
  for (const Case& c : allCases())
    if (residentApplies(c.data)) cases.push_back(c);
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, ResidentConformance, ::testing::ValuesIn(residentCases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.testName; });

// The same cases with every list of objects that the program reads only
// through some fields sent as columns (core/row_block.h), as the package sends
// them: folds read the columns, everything else the rows built from them.
// (Cases about the run's memory limit are left out: columns are charged too.)

class ColumnarConformance : public ::testing::TestWithParam<Case> {};

TEST_P(ColumnarConformance, Case) {
  ptc::testing::CaseTrace trace(GetParam());
  const Value& c = GetParam().data;
  ptc::Engine engine;
  Value prepared = ptc::parseJson(engine.prepare(ptc::toJson(c.field("program")), optionsFor(c)), "status");
  Value status = prepared;
  ptc::Array calls;
  if (prepared.field("state").str() == "prepared") {
    ptc::testing::RowBlockWriter blocks;
    ptc::Members json;
    for (ptc::MemberRef m : c.field("context").members()) {
      const Value* fields = prepared.field("fields").find(m.key.str());
      std::vector<std::string> names;
      if (fields)
        for (const Value& f : fields->items()) names.push_back(f.str());
      if (!fields || !m.value.isArray() || !blocks.list(m.key.str(), m.value, names))
        json.push_back(ptc::Member{m.key, m.value});
    }
    int id = static_cast<int>(prepared.field("id").asInt());
    ptc::RunStatus started = engine.runPrepared(id, ptc::toJson(Value::object(std::move(json))),
                                                textOr(c.field("memory"), "{}"), 0, blocks.out);
    expectScalarAsText(started);
    status = ptc::parseJson(started.text, "status");
    if (status.field("state").str() == "call")
      status = ptc::testing::driveWithMocks(engine, started.run, status, c.field("tools"), calls);
  }
  SCOPED_TRACE("status: " + ptc::toJson(status));
  ptc::testing::checkExpectation(status, c.field("expect"), calls);
}

INSTANTIATE_TEST_SUITE_P(Cases, ColumnarConformance, ::testing::ValuesIn(residentCases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.testName; });

TEST(ConformanceFiles, ThereAreCases) { EXPECT_GT(allCases().size(), 100u); }

// A failing case prints file:line of its opening brace: braces and brackets in
// strings, escaped quotes and nested lists must not move it.
TEST(ConformanceFiles, CaseLinesSkipStringsAndNesting) {
  std::string text = R"({"area": "x", "note": "a [note] with {braces} and \"cases\"",
  "cases": [
    {"name": "one", "program": {"steps": [{"a": [1, {"b": 2}]}]}},
    {"name": "two \" [", "expect": {"result": ["{"]}}, {"name": "three"}
  ],
  "after": [{"x": 1}]
})";
  EXPECT_EQ(ptc::testing::caseLines(text), (std::vector<int>{3, 4, 4}));
}

TEST(ConformanceFiles, EveryCaseHasItsLine) {
  for (const Case& c : allCases()) {
    std::string text = ptc::testing::readFile(std::string(PTC_REPO_DIR) + "/" + c.file);
    size_t at = 0;
    for (int line = 1; line < c.line; ++line) at = text.find('\n', at) + 1;
    size_t name = text.find("\"name\"", at);
    EXPECT_GT(c.line, 0) << c.id;
    EXPECT_EQ(text.find_first_not_of(" \t", at), text.find('{', at)) << c.id << ": no case opens at line " << c.line;
    EXPECT_NE(name, std::string::npos) << c.id;
  }
}

}  // namespace
