// Workloads of the language issue that a conformance case cannot carry: a
// group-by over 100,000 rows.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "api/engine.h"
#include "core/json.h"

namespace {

using ptc::Value;

Value status(const std::string& text) { return ptc::parseJson(text, "status"); }

// {"rows": [{"category": "c<i % 50>", "amount": i % 100}, ...]}
std::string salesContext(int rows) {
  std::string out = R"({"rows":[)";
  for (int i = 0; i < rows; ++i) {
    if (i) out += ",";
    out += R"({"category":"c)" + std::to_string(i % 50) + R"(","amount":)" + std::to_string(i % 100) + "}";
  }
  return out + "]}";
}

Value run(ptc::Engine& engine, const std::string& steps, const std::string& context) {
  // Loaded rows alone take some 10 MB here: the limit leaves room for them. The
  // time limit is generous: sizes are measured here, and ASan on a loaded machine
  // can take seconds.
  Value prepared =
      status(engine.prepare(R"({"program":{"op":"pipe","steps":[{"op":"load","name":"rows"},)" + steps + "]}}",
                            R"({"maxHeapBytes":33554432,"timeoutMs":60000})"));
  EXPECT_EQ(prepared.field("state").str(), "prepared") << ptc::toJson(prepared);
  return status(engine.runPrepared(static_cast<int>(prepared.field("id").asInt()), context, "{}").text);
}

TEST(LanguageWorkloads, GroupByOverAHundredThousandRowsCostsLittleBeyondTheRows) {
  ptc::Engine engine;
  const std::string context = salesContext(100000);
  Value grouped = run(engine,
                      R"({"op":"group_by","field":"category","aggs":{"total":{"op":"sum","field":"amount"},)"
                      R"("n":{"op":"count"}}},{"op":"sort_by","field":"total","order":"desc"},{"op":"first"})",
                      context);
  ASSERT_TRUE(grouped.field("ok").truthy()) << ptc::toJson(grouped.field("error"));
  // Category c49 holds i = 49, 99, 149, ...: amounts 49 and 99 alternate, 2,000 rows.
  EXPECT_EQ(ptc::toJson(grouped.field("result")), R"({"key":"c49","total":148000,"n":2000})");
  Value counted = run(engine, R"({"op":"count"})", context);
  ASSERT_TRUE(counted.field("ok").truthy());
  int64_t rows = counted.field("metrics").field("memoryBytes").asInt();
  int64_t withGroups = grouped.field("metrics").field("memoryBytes").asInt();
  std::printf("[ measure ] 100k rows: %lld bytes loaded, %lld at the peak of group_by with aggs\n",
              static_cast<long long>(rows), static_cast<long long>(withGroups));
  // The groups hold references to the rows (16 bytes an item), not copies of them.
  EXPECT_LT(withGroups - rows, 3 * 1024 * 1024);
}

}  // namespace
