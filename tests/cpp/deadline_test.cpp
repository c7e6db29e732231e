// The loops that walk a value whole (equality, ordering, hashing, building
// objects, writing JSON) check the deadline of the work under way, and text
// written for the host counts toward the budget while it is written; wide
// objects answer lookups and comparisons through their key index exactly as
// a scan would.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <utility>

#include "api/engine.h"
#include "core/deadline.h"
#include "core/error.h"
#include "core/json.h"
#include "core/value.h"
#include "test_support.h"

namespace {

using ptc::Value;

Value longList(size_t n) {
  ptc::Array items;
  for (size_t i = 0; i < n; ++i) items.push_back(Value::integer(static_cast<int64_t>(i)));
  return Value::array(std::move(items));
}

Value objectOf(const std::vector<std::pair<std::string, int>>& members) {
  ptc::Members out;
  for (const auto& [key, value] : members) out.push_back(ptc::Member{Value::string(key), Value::integer(value)});
  return Value::object(std::move(out));
}

template <class F>
ptc::ErrorType thrownBy(F&& f) {
  try {
    f();
  } catch (const ptc::PtcError& e) {
    return e.error.type;
  }
  ADD_FAILURE() << "nothing was thrown";
  return ptc::ErrorType::Execution;
}

class PastDeadline : public ::testing::Test {
 protected:
  PastDeadline() { clock_.start(0); }
  ptc::Deadline clock_;
  ptc::DeadlineScope scope_{&clock_};
};

TEST_F(PastDeadline, EqualityOfLongListsStops) {
  Value a = longList(5000), b = longList(5000);
  EXPECT_EQ(thrownBy([&] { ptc::equals(a, b); }), ptc::ErrorType::Timeout);
}

TEST_F(PastDeadline, OrderingOfLongListsStops) {
  Value a = longList(5000), b = longList(5000);
  EXPECT_EQ(thrownBy([&] { ptc::compare(a, b); }), ptc::ErrorType::Timeout);
}

TEST_F(PastDeadline, HashingALongListStops) {
  Value a = longList(5000);
  EXPECT_EQ(thrownBy([&] { ptc::hashValue(a); }), ptc::ErrorType::Timeout);
}

TEST_F(PastDeadline, WritingALongListAsJsonStops) {
  Value a = longList(5000);
  EXPECT_EQ(thrownBy([&] { ptc::toJson(a); }), ptc::ErrorType::Timeout);
}

TEST_F(PastDeadline, BuildingAWideObjectStops) {
  EXPECT_EQ(thrownBy([&] {
              ptc::ObjectBuilder builder;
              for (int i = 0; i < 5000; ++i) builder.put(Value::string("k" + std::to_string(i)), Value());
            }),
            ptc::ErrorType::Timeout);
}

TEST(NoDeadline, NothingIsCheckedOutsideAnyWork) {
  Value a = longList(5000);
  EXPECT_TRUE(ptc::equals(a, longList(5000)));
  EXPECT_EQ(ptc::toJson(longList(3)), "[0,1,2]");
}

TEST(ChargedText, TextPastTheBudgetIsRefusedBeforeItIsWritten) {
  ptc::Budget budget(1 << 20);
  ptc::BudgetScope scope(&budget);
  Value s = Value::string(std::string(10000, 'x'));
  ptc::Array items(2000, s);  // 20 MB of text, 32 KB of values
  Value list = Value::array(std::move(items));
  std::string out;
  try {
    ptc::ChargedText charged(out, "the result");
    ptc::appendJson(out, list);
    ADD_FAILURE() << "the text was written whole";
  } catch (const ptc::PtcError& e) {
    EXPECT_EQ(e.error.type, ptc::ErrorType::MemoryExceeded);
    EXPECT_NE(e.error.message.find("while writing the result as JSON"), std::string::npos) << e.error.message;
  }
  EXPECT_LT(out.size(), 1u << 20) << "stopped before the limit";
  EXPECT_LE(budget.peak(), budget.limit());
}

TEST(ChargedText, TheChargeEndsWithTheText) {
  ptc::Budget budget(1 << 20);
  ptc::BudgetScope scope(&budget);
  Value list = Value::array(ptc::Array(50, Value::string(std::string(10000, 'x'))));
  const uint64_t held = budget.live();
  {
    std::string out;
    ptc::ChargedText charged(out, "the result");
    ptc::appendJson(out, list);
    charged.settle();
    EXPECT_GE(budget.live(), held + out.size());
  }
  EXPECT_EQ(budget.live(), held);
  EXPECT_GE(budget.peak(), held + 500000);
}

TEST(WideObjects, FindAndOrderAgreeWithASmallObject) {
  std::vector<std::pair<std::string, int>> members;
  for (int i = 0; i < 20; ++i) members.emplace_back(std::string(1, static_cast<char>('t' - i)), i);  // t..a
  Value wide = objectOf(members);
  ASSERT_NE(wide.keyIndex(), nullptr);
  for (const auto& [key, value] : members) EXPECT_EQ(wide.find(key)->asInt(), value) << key;
  EXPECT_EQ(wide.find("u"), nullptr);
  EXPECT_EQ(wide.find(""), nullptr);
  Value small = objectOf({{"b", 1}, {"a", 2}});
  EXPECT_EQ(small.keyIndex(), nullptr);
  EXPECT_EQ(small.find("a")->asInt(), 2);

  // Objects order by size, then keys in order, then values in key order.
  std::vector<std::pair<std::string, int>> other = members;
  other[19].second = 100;  // key "a", first in key order
  EXPECT_LT(ptc::compare(wide, objectOf(other)), 0);
  EXPECT_GT(ptc::compare(objectOf(other), wide), 0);
  other = members;
  other[0].first = "z";  // key "t" becomes "z": keys differ before values are looked at
  EXPECT_LT(ptc::compare(wide, objectOf(other)), 0);
  std::vector<std::pair<std::string, int>> reversed(members.rbegin(), members.rend());
  EXPECT_EQ(ptc::compare(wide, objectOf(reversed)), 0);
  EXPECT_TRUE(ptc::equals(wide, objectOf(reversed)));
  EXPECT_EQ(ptc::hashValue(wide), ptc::hashValue(objectOf(reversed)));
  EXPECT_FALSE(ptc::equals(wide, objectOf(other)));
}

TEST(WideObjects, TheBuilderKeepsFirstPositionsAndLastValues) {
  ptc::ObjectBuilder builder;
  for (int i = 0; i < 30; ++i) builder.put(Value::string("k" + std::to_string(i)), Value::integer(i));
  builder.put(Value::string("k3"), Value::integer(-3));
  builder.put(Value::string("k29"), Value::integer(-29));
  Value o = builder.build();
  ASSERT_EQ(o.members().size(), 30u);
  EXPECT_EQ(o.members()[3].key.str(), "k3");
  EXPECT_EQ(o.members()[3].value.asInt(), -3);
  EXPECT_EQ(o.members()[29].value.asInt(), -29);
  EXPECT_EQ(o.find("k29")->asInt(), -29);
}

// ---- sorts (issue 24, item 17) ----

// A sort of n items makes n log n comparisons that no loop around it counts:
// each comparison ticks the deadline. The fake clock moves a millisecond at
// every check of the deadline, so a limit is an amount of the engine's work.

// {"rows": [{"v": ...}, ...], "o": {"k...": ...}}: n rows in a scrambled order, an object of n keys.
std::string sortableContext(int n) {
  std::string rows, object;
  for (int i = 0; i < n; ++i) {
    const int v = static_cast<int>((static_cast<int64_t>(i) * 7919) % n);
    rows += (i ? "," : "") + std::string("{\"v\":") + std::to_string(v) + "}";
    object += (i ? "," : "") + std::string("\"k") + std::to_string(v) + "\":" + std::to_string(i);
  }
  return "{\"rows\":[" + rows + "],\"o\":{" + object + "}}";
}

// The status of a run under a fake clock, and how often the run read it.
std::pair<Value, int64_t> timedRun(const std::string& program, const std::string& context, int64_t timeoutMs) {
  ptc::testing::FakeClock clock(std::chrono::milliseconds(1));
  ptc::Engine engine;
  Value prepared = ptc::parseJson(
      engine.prepare(program, R"({"timeoutMs":)" + std::to_string(timeoutMs) + R"(,"maxHeapBytes":268435456})"), "s");
  EXPECT_EQ(prepared.field("state").str(), "prepared") << ptc::toJson(prepared);
  Value done =
      ptc::parseJson(engine.runPrepared(static_cast<int>(prepared.field("id").asInt()), context, "{}").text, "s");
  return {done, clock.readings()};
}

std::string pipeOf(const std::string& load, const std::string& steps) {
  return R"({"program":{"op":"pipe","steps":[{"op":"load","name":")" + load + "\"}," + steps + "]}}";
}

TEST(SortDeadline, EverySortChecksTheDeadline) {
  constexpr int kItems = 50000;
  const std::string context = sortableContext(kItems);
  // The work of reading the data and walking it once: what every program below does besides sorting.
  const int64_t walk = timedRun(pipeOf("rows", R"({"op":"sum","field":"v"})"), context, 1 << 30).second;
  const int64_t walkObject = timedRun(pipeOf("o", R"({"op":"length"})"), context, 1 << 30).second;
  // Twice the walk, and a walk's worth of checks more: enough for anything
  // linear; a sort of 50,000 items makes ~800,000 comparisons (~780 checks).
  const int64_t pastTheWalk = 2 * walk + kItems / 1024;
  for (const char* sort : {R"({"op":"median","field":"v"})", R"({"op":"percentile","field":"v","p":90})",
                           R"({"op":"sort_by","by":["v"]},{"op":"count"})"}) {
    auto [done, readings] = timedRun(pipeOf("rows", sort), context, pastTheWalk);
    EXPECT_EQ(done.field("error").field("type").str(), "timeout") << sort << ": " << ptc::toJson(done).substr(0, 300);
    EXPECT_EQ(done.field("error").field("code").str(), "timeout") << sort;
  }
  auto [keys, readings] = timedRun(pipeOf("o", R"({"op":"keys"},{"op":"count"})"), context, 2 * walkObject + 40);
  EXPECT_EQ(keys.field("error").field("type").str(), "timeout")
      << "keys sorts a wide object's keys: " << ptc::toJson(keys).substr(0, 300);
  // With time enough, the same runs finish.
  EXPECT_EQ(
      ptc::toJson(timedRun(pipeOf("rows", R"({"op":"median","field":"v"})"), context, 1 << 30).first.field("result")),
      "24999.5");
}

// The time a run waits on a tool counts toward its limit: the evaluation after
// the answer gets only what is left (replaces a Jest test that measured a
// runaway after a real sleep, which a slow payload could starve). The fake
// clock moves a millisecond at each reading, so work is counted in readings.
TEST(ToolWait, TheTimeWaitingOnAToolCountsTowardTheEvaluationAfterIt) {
  std::string items = "0";
  for (int i = 1; i < 60000; ++i) items += "," + std::to_string(i);
  const std::string program =
      R"({"program":{"op":"let","name":"w","value":{"op":"call","tool":"wait"},"in":{"op":"pipe","steps":[)"
      R"({"op":"literal","value":[)" +
      items + R"(]},{"op":"map","expr":{"op":"add","left":1,"right":1}},{"op":"sum"}]}}})";
  ptc::testing::FakeClock clock(std::chrono::milliseconds(1));
  ptc::Engine engine;
  // Answers the call after `waitMs` and says how the run ended and how many readings the evaluation after it took.
  auto runWaiting = [&](int64_t timeoutMs, int64_t waitMs) {
    Value prepared = ptc::parseJson(
        engine.prepare(program, R"({"tools":["wait"],"timeoutMs":)" + std::to_string(timeoutMs) + "}"), "status");
    ptc::RunStatus started = engine.runPrepared(static_cast<int>(prepared.field("id").asInt()), "{}", "{}");
    Value waiting = ptc::parseJson(started.text, "s");
    EXPECT_EQ(waiting.field("state").str(), "call") << ptc::toJson(waiting).substr(0, 300);
    clock.advance(std::chrono::milliseconds(waitMs));
    const int64_t before = clock.readings();
    Value done = ptc::parseJson(engine.resume(started.run, "0"), "status");
    return std::make_pair(done, clock.readings() - before);
  };
  auto [alone, work] = runWaiting(600000000, 0);
  ASSERT_EQ(ptc::toJson(alone.field("result")), "120000") << ptc::toJson(alone).substr(0, 300);
  ASSERT_GT(work, 100) << "the evaluation checks its deadline as it goes";
  // A limit of twice the work: without the wait it completes; after a wait of
  // all but half the work, what is left is not enough.
  const int64_t limit = 2 * work;
  EXPECT_EQ(ptc::toJson(runWaiting(limit, 0).first.field("result")), "120000");
  Value late = runWaiting(limit, limit - work / 2).first;
  EXPECT_EQ(late.field("error").field("type").str(), "timeout") << ptc::toJson(late).substr(0, 300);
}

}  // namespace
