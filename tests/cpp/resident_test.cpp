// Resident context (core/resident.h): context data loaded into the engine once
// and loaded by name by any number of runs, bounded by its own limit.
#include <gtest/gtest.h>

#include "api/engine.h"
#include "core/json.h"

namespace {

using ptc::Value;

Value status(const std::string& text) { return ptc::parseJson(text, "status"); }

const char* kSumTravel =
    R"({"program":{"op":"pipe","steps":[{"op":"load","name":"rows"},)"
    R"({"op":"filter","where":{"op":"eq","field":"category","value":"travel"}},{"op":"sum","field":"amount"}]}})";
const char* kRows = R"({"rows":[{"category":"travel","amount":2},{"category":"food","amount":4},)"
                    R"({"category":"travel","amount":5}],"label":"resident"})";

int prepared(ptc::Engine& engine, const std::string& program) {
  return static_cast<int>(status(engine.prepare(program, "{}")).field("id").asInt());
}

int loaded(ptc::Engine& engine, const std::string& context, uint64_t maxBytes = 1 << 20) {
  Value s = status(engine.loadResident(context, maxBytes, 1000));
  EXPECT_EQ(s.field("state").str(), "resident") << ptc::toJson(s);
  return static_cast<int>(s.field("id").asInt());
}

TEST(Resident, AnswersItsKeysAndBytes) {
  ptc::Engine engine;
  Value s = status(engine.loadResident(kRows, 1 << 20, 1000));
  EXPECT_EQ(ptc::toJson(s.field("keys")), R"(["rows","label"])");
  EXPECT_GT(s.field("bytes").asInt(), 0);
  EXPECT_EQ(static_cast<uint64_t>(s.field("bytes").asInt()), engine.residentBytes());
}

TEST(Resident, RunsLoadItsKeysWithoutTheirContextCarryingThem) {
  ptc::Engine engine;
  int data = loaded(engine, kRows);
  int program = prepared(engine, kSumTravel);
  for (int i = 0; i < 3; i++) {
    Value done = status(engine.runPrepared(program, "{}", "{}", 0, {}, data));
    EXPECT_EQ(done.field("result").asDouble(), 7) << ptc::toJson(done);
  }
}

TEST(Resident, TheRunsOwnContextKeyOfTheSameNameWins) {
  ptc::Engine engine;
  int data = loaded(engine, kRows);
  int program = prepared(engine, R"({"program":{"op":"load","name":"label"}})");
  Value own = status(engine.runPrepared(program, R"({"label":"own"})", "{}", 0, {}, data));
  EXPECT_EQ(own.field("result").str(), "own");
  Value fallback = status(engine.runPrepared(program, "{}", "{}", 0, {}, data));
  EXPECT_EQ(fallback.field("result").str(), "resident");
}

TEST(Resident, PastItsLimitItIsAMemoryExceededErrorNamingTheLimit) {
  ptc::Engine engine;
  Value s = status(engine.loadResident(kRows, 64, 1000));
  EXPECT_EQ(s.field("state").str(), "done");
  EXPECT_EQ(s.field("error").field("type").str(), "memory_exceeded");
  EXPECT_NE(s.field("error").field("message").str().find("maxResidentBytes"), std::string::npos);
  EXPECT_EQ(engine.residentBytes(), 0u);
}

TEST(Resident, NotAnObjectIsAParseError) {
  ptc::Engine engine;
  Value s = status(engine.loadResident("[1,2]", 1 << 20, 1000));
  EXPECT_EQ(s.field("error").field("type").str(), "parse_error");
}

TEST(Resident, ReleasedItsMemoryIsFreeAndRunsWithItFail) {
  ptc::Engine engine;
  int data = loaded(engine, kRows);
  int program = prepared(engine, kSumTravel);
  engine.releaseResident(data);
  EXPECT_EQ(engine.residentBytes(), 0u);
  Value done = status(engine.runPrepared(program, "{}", "{}", 0, {}, data));
  EXPECT_EQ(done.field("error").field("type").str(), "execution_error");
  EXPECT_NE(done.field("error").field("message").str().find("resident"), std::string::npos);
}

TEST(Resident, ARunWaitingOnAToolKeepsItAfterRelease) {
  ptc::Engine engine;
  int data = loaded(engine, kRows);
  int program = static_cast<int>(
      status(engine.prepare(R"({"program":{"op":"pipe","steps":[{"op":"call","tool":"t"},{"op":"load","name":"rows"},)"
                            R"({"op":"count"}]}})",
                            R"({"tools":["t"]})"))
          .field("id")
          .asInt());
  Value waiting = status(engine.runPrepared(program, "{}", "{}", 0, {}, data));
  ASSERT_EQ(waiting.field("state").str(), "call") << ptc::toJson(waiting);
  engine.releaseResident(data);
  Value done = status(engine.resume(static_cast<int>(waiting.field("run").asInt()), "null"));
  EXPECT_EQ(done.field("result").asInt(), 3) << ptc::toJson(done);
}

}  // namespace

namespace {

// Scans of resident lists read columns (core/columns.h), built on the first
// run that filters on a field and kept with the resident, charged to it.
TEST(ResidentColumns, AreBuiltOnceChargedToTheResidentAndAnswerAsTheRowsDo) {
  ptc::Engine engine;
  int data = loaded(engine, kRows);
  const uint64_t before = engine.residentBytes();
  int program = prepared(engine, kSumTravel);
  Value first = status(engine.runPrepared(program, "{}", "{}", 0, {}, data));
  const uint64_t after = engine.residentBytes();
  // category and amount: a 9-byte cell each of the 3 rows, and the 2 distinct texts
  EXPECT_EQ(after - before, 2 * 3 * 9 + 2 * sizeof(Value));
  Value second = status(engine.runPrepared(program, "{}", "{}", 0, {}, data));
  EXPECT_EQ(first.field("result").asDouble(), 7);
  EXPECT_EQ(second.field("result").asDouble(), 7);
  EXPECT_EQ(engine.residentBytes(), after);  // built once
}

// A cell holds a number only where it gives the same number back; integers
// past 2^53, integral floats, -0, objects and lists are held as values. Folds,
// filters and group_by over the cells answer as over the rows.
TEST(ResidentColumns, HoldEveryKindOfValueAsTheRowsDo) {
  const std::string rows =
      R"({"rows":[{"k":9007199254740993,"v":9007199254740993},{"k":9007199254740992,"v":1},{"k":5.0,"v":2.5},)"
      R"({"k":5,"v":-0.0},{"k":-0.0,"v":0},{"k":{"a":1},"v":3},{"k":[1],"v":4},{"k":true,"v":null},{"v":6},)"
      R"({"k":"t","v":1e300},{"k":"t","v":1e300},{"k":null,"v":7}]})";
  std::vector<std::string> programs;
  const std::string load = R"({"op":"load","name":"rows"})";
  for (const char* value :
       {"9007199254740993", "9007199254740992", "5", "5.0", "0", R"({"a":1})", "[1]", "true", "null", R"("t")"})
    for (const char* op : {"eq", "neq"}) {
      const std::string filter =
          std::string(R"({"op":"filter","where":{"op":")") + op + R"(","field":"k","value":)" + value + "}}";
      programs.push_back(R"({"program":{"op":"pipe","steps":[)" + load + "," + filter +
                         R"(,{"op":"sum","field":"v"}]}})");
      programs.push_back(R"({"program":{"op":"pipe","steps":[)" + load + "," + filter + R"(]}})");
    }
  programs.push_back(
      R"({"program":{"op":"pipe","steps":[)" + load +
      R"(,{"op":"group_by","field":"k","aggs":{"n":{"op":"count"},"s":{"op":"sum","field":"v"},)"
      R"("lo":{"op":"min","field":"v"},"hi":{"op":"max","field":"v"},"a":{"op":"avg","field":"v"}}}]}})");
  programs.push_back(R"({"program":{"op":"pipe","steps":[)" + load +
                     R"(,{"op":"group_by","field":"v","aggs":{"n":{"op":"count"}}}]}})");
  for (const std::string& text : programs) {
    SCOPED_TRACE(text);
    ptc::Engine engine;
    int data = loaded(engine, rows);
    int program = prepared(engine, text);
    Value resident = status(engine.runPrepared(program, "{}", "{}", 0, {}, data));
    Value plain = status(engine.runPrepared(program, rows, "{}", 0, {}, 0));
    EXPECT_EQ(ptc::toJson(resident.field("result")), ptc::toJson(plain.field("result")));
    EXPECT_EQ(ptc::toJson(resident.field("error")), ptc::toJson(plain.field("error")));
  }
}

TEST(ResidentColumns, AResidentWithNoRoomForThemStillAnswers) {
  ptc::Engine engine;
  Value probe = status(engine.loadResident(kRows, 1 << 20, 1000));
  const auto bytes = static_cast<uint64_t>(probe.field("bytes").asInt());
  int data = loaded(engine, kRows, bytes + sizeof(Value));  // no room for a 3-row column
  int program = prepared(engine, kSumTravel);
  Value done = status(engine.runPrepared(program, "{}", "{}", 0, {}, data));
  EXPECT_EQ(done.field("result").asDouble(), 7) << ptc::toJson(done);
}

TEST(ResidentColumns, AListWithAnItemThatIsNoObjectGivesTheFiltersError) {
  ptc::Engine engine;
  int data = loaded(engine, R"({"rows":[{"category":"travel","amount":2},3]})");
  int program = prepared(engine, kSumTravel);
  Value done = status(engine.runPrepared(program, "{}", "{}", 0, {}, data));
  EXPECT_EQ(done.field("error").field("code").str(), "type_mismatch") << ptc::toJson(done);
  EXPECT_EQ(done.field("error").field("path").str(), "/program/steps/1/where");
}

}  // namespace
