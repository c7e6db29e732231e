// lookup (issue 35) inside a map is a join: the list it searches is indexed
// once per run of the map, so a map over n rows looking up in m rows does
// O(n + m) work, not O(n * m). Work is counted in readings of a fake clock
// (one per 1024 ticks of the engine's loops: FakeClock), never in time, so the
// test holds on a loaded machine.
#include <gtest/gtest.h>

#include <string>

#include "api/engine.h"
#include "core/json.h"
#include "test_support.h"

namespace {

using ptc::Value;

constexpr int kRows = 10000;

// 10,000 orders, each naming one of 10,000 customers; customer i has tier i % 3.
std::string joinContext() {
  std::string orders, customers;
  for (int i = 0; i < kRows; ++i) {
    orders += (i ? "," : "") + std::string("{\"customer_id\":") + std::to_string((i * 7919) % kRows) + "}";
    customers +=
        (i ? "," : "") + std::string("{\"id\":") + std::to_string(i) + ",\"tier\":" + std::to_string(i % 3) + "}";
  }
  return "{\"orders\":[" + orders + "],\"customers\":[" + customers + "]}";
}

// The run's result and the clock readings it took.
std::pair<Value, int64_t> counted(const std::string& program, const std::string& context) {
  ptc::testing::FakeClock clock(std::chrono::milliseconds(1));
  ptc::Engine engine;
  Value prepared =
      ptc::parseJson(engine.prepare(program, R"({"timeoutMs":1000000000,"maxHeapBytes":268435456})"), "status");
  EXPECT_EQ(prepared.field("state").str(), "prepared") << ptc::toJson(prepared);
  const int64_t before = clock.readings();
  Value done =
      ptc::parseJson(engine.runPrepared(static_cast<int>(prepared.field("id").asInt()), context, "{}").text, "s");
  return {done, clock.readings() - before};
}

TEST(LookupJoin, AMapOverTenThousandRowsLookingUpInTenThousandIsLinear) {
  const std::string context = joinContext();
  // The rows walked once each, without the lookup: what the join costs besides its probes.
  auto [walked, walk] = counted(
      R"({"program":{"op":"pipe","steps":["$orders",{"op":"map","expr":"$_.customer_id"},{"op":"sum"}]}})", context);
  ASSERT_TRUE(walked.field("ok").truthy()) << ptc::toJson(walked).substr(0, 300);
  auto [joined, work] =
      counted(R"({"program":{"op":"pipe","steps":["$orders",{"op":"map","expr":{"op":"lookup","field":"customer_id",)"
              R"("in":"$customers","key":"id","get":"tier"}},{"op":"sum"}]}})",
              context);
  ASSERT_TRUE(joined.field("ok").truthy()) << ptc::toJson(joined).substr(0, 300);
  int64_t want = 0;
  for (int i = 0; i < kRows; ++i) want += ((i * 7919) % kRows) % 3;
  EXPECT_EQ(ptc::toJson(joined.field("result")), std::to_string(want));
  // A scan per row would be 10^8 ticks (~100,000 readings); the index is a
  // walk of each list and a probe per row: a few walks' worth.
  EXPECT_LT(work, 10 * walk + 100) << "the lookup took " << work << " readings, a walk " << walk;
}

}  // namespace
