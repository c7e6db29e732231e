// Resident context (core/resident.h): context data loaded into the engine once
// and loaded by name by any number of runs, bounded by its own limit.
#include <gtest/gtest.h>

#include "api/engine.h"
#include "core/json.h"
#include "test_support.h"

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

int loaded(ptc::Engine& engine, const std::string& context, uint64_t maxBytes = 1 << 20, int64_t timeoutMs = 1000) {
  Value s = status(engine.loadResident(context, maxBytes, timeoutMs));
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
    Value done = status(engine.runPrepared(program, "{}", "{}", 0, {}, data).text);
    EXPECT_EQ(done.field("result").asDouble(), 7) << ptc::toJson(done);
  }
}

TEST(Resident, TheRunsOwnContextKeyOfTheSameNameWins) {
  ptc::Engine engine;
  int data = loaded(engine, kRows);
  int program = prepared(engine, R"({"program":{"op":"load","name":"label"}})");
  Value own = status(engine.runPrepared(program, R"({"label":"own"})", "{}", 0, {}, data).text);
  EXPECT_EQ(own.field("result").str(), "own");
  Value fallback = status(engine.runPrepared(program, "{}", "{}", 0, {}, data).text);
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
  Value done = status(engine.runPrepared(program, "{}", "{}", 0, {}, data).text);
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
  ptc::RunStatus started = engine.runPrepared(program, "{}", "{}", 0, {}, data);
  Value waiting = status(started.text);
  ASSERT_EQ(waiting.field("state").str(), "call") << ptc::toJson(waiting);
  engine.releaseResident(data);
  Value done = status(engine.resume(started.run, "null"));
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
  Value first = status(engine.runPrepared(program, "{}", "{}", 0, {}, data).text);
  const uint64_t after = engine.residentBytes();
  // category and amount: a 9-byte cell each of the 3 rows, and the 2 distinct texts
  EXPECT_EQ(after - before, 2 * 3 * 9 + 2 * sizeof(Value));
  Value second = status(engine.runPrepared(program, "{}", "{}", 0, {}, data).text);
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
      // The matches grouped from the columns (kPlanGroup), as over the rows they are.
      programs.push_back(
          R"({"program":{"op":"pipe","steps":[)" + load + "," + filter +
          R"(,{"op":"group_by","field":"k","aggs":{"n":{"op":"count"},"s":{"op":"sum","field":"v"},)"
          R"("a":{"op":"avg","field":"v"},"lo":{"op":"min","field":"v"},"hi":{"op":"max","field":"v"}}}]}})");
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
    Value resident = status(engine.runPrepared(program, "{}", "{}", 0, {}, data).text);
    Value plain = status(engine.runPrepared(program, rows, "{}", 0, {}, 0).text);
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
  Value done = status(engine.runPrepared(program, "{}", "{}", 0, {}, data).text);
  EXPECT_EQ(done.field("result").asDouble(), 7) << ptc::toJson(done);
}

// A filter on a field, then group_by a field with folded aggregates, over a
// resident list (issue 38 item 4: the browser's group-by): the kept positions
// come from the filter field's column and group_by reads its columns there, so
// no row is visited and no list of the matches is built. Before, that list
// (a Value per match) was built and each match's object read, a cache miss a
// row: 30-40 ms over 50,000 rows of 14 fields, ~0.4 ms since.
TEST(ResidentColumns, AFilterThenGroupByReadsTheColumnsAndBuildsNoListOfTheMatches) {
  constexpr int kCount = 30000;
  std::string rows = R"({"rows":[)";
  for (int i = 0; i < kCount; ++i)
    rows += std::string(i ? "," : "") + R"({"id":)" + std::to_string(i) + R"(,"status":")" +
            (i % 3 == 2 ? "refunded" : "paid") + R"(","category":"c)" + std::to_string(i % 5) + R"(","total":)" +
            std::to_string(i) + ".5" + R"(,"quantity":)" + std::to_string(i % 7) + "}";
  rows += "]}";
  const std::string program =
      R"({"program":{"op":"pipe","steps":[{"op":"load","name":"rows"},)"
      R"({"op":"filter","where":{"op":"neq","field":"status","value":"refunded"}},)"
      R"({"op":"group_by","field":"category","aggs":{"total":{"op":"sum","field":"total"},"count":{"op":"count"},)"
      R"("avg_qty":{"op":"avg","field":"quantity"}}}]}})";
  ptc::Engine engine;
  int data = loaded(engine, rows, uint64_t{64} << 20, 10000);
  int run = static_cast<int>(status(engine.prepare(program, R"({"maxHeapBytes":67108864})")).field("id").asInt());
  status(engine.runPrepared(run, "{}", "{}", 0, {}, data).text);  // builds the columns (charged to the resident)
  Value resident = status(engine.runPrepared(run, "{}", "{}", 0, {}, data).text);
  Value plain = status(engine.runPrepared(run, rows, "{}", 0, {}, 0).text);
  ASSERT_TRUE(resident.field("ok").asBool()) << ptc::toJson(resident);
  EXPECT_EQ(ptc::toJson(resident.field("result")), ptc::toJson(plain.field("result")));
  EXPECT_EQ(resident.field("result").items().size(), 5u);
  // The list of the 20,000 matches alone takes a Value each; the positions of
  // the kept items take 4 bytes an item of the list.
  const int64_t matchesList = int64_t{20000} * static_cast<int64_t>(sizeof(Value));
  EXPECT_LT(resident.field("metrics").field("memoryBytes").asInt(), matchesList)
      << ptc::toJson(resident.field("metrics"));
}

TEST(ResidentColumns, AListWithAnItemThatIsNoObjectGivesTheFiltersError) {
  ptc::Engine engine;
  int data = loaded(engine, R"({"rows":[{"category":"travel","amount":2},3]})");
  int program = prepared(engine, kSumTravel);
  Value done = status(engine.runPrepared(program, "{}", "{}", 0, {}, data).text);
  EXPECT_EQ(done.field("error").field("code").str(), "type_mismatch") << ptc::toJson(done);
  EXPECT_EQ(done.field("error").field("path").str(), "/program/steps/1/where");
}

}  // namespace

namespace {

// {"key0":0,...,"key<n-1>":n-1,"target":42}: a resident context of many top-level keys.
std::string manyKeys(int n) {
  std::string out = "{";
  for (int i = 0; i < n; ++i) out += "\"key" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  return out + "\"target\":42}";
}

int64_t memoryBytes(const Value& done) { return done.field("metrics").field("memoryBytes").asInt(); }

// A run reads resident keys where they are: it is charged for what it reads
// and builds, not ~36 bytes for each of the resident's keys (300,000 of them
// took more than the default 10 MiB of maxHeapBytes to load one number).
TEST(ResidentKeys, ARunIsChargedForWhatItReadsNotForHowManyKeysThereAre) {
  ptc::Engine engine;
  int many = loaded(engine, manyKeys(300000), uint64_t{256} << 20, 600000);
  int one = loaded(engine, manyKeys(0));
  int program = prepared(engine, R"({"program":{"op":"load","name":"target"}})");
  Value overMany = status(engine.runPrepared(program, "{}", "{}", 0, {}, many).text);
  Value overOne = status(engine.runPrepared(program, "{}", "{}", 0, {}, one).text);
  ASSERT_EQ(ptc::toJson(overMany.field("result")), "42") << ptc::toJson(overMany).substr(0, 300);
  EXPECT_EQ(memoryBytes(overMany), memoryBytes(overOne));
  // The run's own context still wins over a resident key of the same name, and
  // a key that crossed in neither is read from the resident.
  Value own = status(engine.runPrepared(program, R"({"target":"own","key7":1})", "{}", 0, {}, many).text);
  EXPECT_EQ(own.field("result").str(), "own");
  int key9 = prepared(engine, R"({"program":{"op":"load","name":"key9"}})");
  Value read = status(engine.runPrepared(key9, R"({"target":"own"})", "{}", 0, {}, many).text);
  EXPECT_EQ(read.field("result").asInt(), 9);
}

// One typo among 100,000 resident keys: the nearest few and how many more,
// not every key (1,089,078 characters of warning or error).
TEST(ResidentKeys, ATypoNamesTheNearestKeysAndHowManyMore) {
  ptc::Engine engine;
  int data = loaded(engine, manyKeys(100000), uint64_t{64} << 20, 600000);
  int load = prepared(engine, R"({"program":{"op":"load","name":"targte"}})");
  Value warned = status(engine.runPrepared(load, R"({"own":1})", "{}", 0, {}, data).text);
  ASSERT_EQ(warned.field("result").str(), "") << ptc::toJson(warned).substr(0, 300);
  const std::string warning = warned.field("warnings").items().at(0).field("message").str();
  EXPECT_EQ(warning,
            "'load' reads context key 'targte', which the context does not have, so it is null. Did you mean "
            "'target'? The context keys nearest 'targte' are: target, key0, key1, key10, key100 and 99,997 more.");
  int reference = prepared(engine, R"({"program":{"op":"let","name":"tagret","value":1,"in":"$targte"}})");
  Value failed = status(engine.runPrepared(reference, "{}", R"({"memo":1})", 0, {}, data).text);
  EXPECT_EQ(failed.field("error").field("code").str(), "unknown_variable");
  EXPECT_EQ(failed.field("error").field("message").str(),
            "\"$targte\" names no let or 'as' binding, memory key or context key. Did you mean 'target'? The names "
            "nearest 'targte' are: target, tagret, key0, key1, key10 and 99,998 more. For the text \"$targte\" "
            "itself write {\"op\": \"literal\", \"value\": \"$targte\"}");
}

// Naming the nearest keys scores every one of them, which counts against the
// run's deadline as any long loop does: under a clock that moves 1 ms a
// reading, loading a key is done in a few readings (the resident's key index
// was sorted when it was loaded), a typo among 200,000 keys needs ~200 and
// ends the run with a timeout.
TEST(ResidentKeys, NamingTheNearestKeysCountsAgainstTheDeadline) {
  ptc::testing::FakeClock clock(std::chrono::milliseconds(1));
  ptc::Engine engine;
  Value s = status(engine.loadResident(manyKeys(200000), uint64_t{64} << 20, 1 << 30));
  ASSERT_EQ(s.field("state").str(), "resident");
  const int data = static_cast<int>(s.field("id").asInt());
  auto run = [&](const char* key) {
    const std::string program = std::string(R"({"program":{"op":"load","name":")") + key + "\"}}";
    int id = static_cast<int>(status(engine.prepare(program, R"({"timeoutMs":50})")).field("id").asInt());
    return status(engine.runPrepared(id, "{}", "{}", 0, {}, data).text);
  };
  Value read = run("target");
  EXPECT_EQ(ptc::toJson(read.field("result")), "42") << ptc::toJson(read).substr(0, 300);
  Value typo = run("targte");
  EXPECT_EQ(typo.field("error").field("type").str(), "timeout") << ptc::toJson(typo).substr(0, 300);
}

}  // namespace
