// Where a resident context's memory goes (issue 37 item 4, "data held once"):
// the 50,000 rows of tests/browser/resident-memory.test.mjs, made the same way
// here, loaded with loadResident, then walked block by block. It prints the
// bytes by kind (objects and their members, key index, strings shared or not,
// lists) as this build lays them out and as the wasm32 build does (4-byte
// pointers, libc++'s 12-byte string, dlmalloc's chunks), and asserts the
// engine's own count of them (what maxResidentBytes bounds) stays under a bound.
//   npm run test:cpp -- --gtest_filter='ResidentFootprint.*'
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <unordered_set>

#include "core/json.h"
#include "core/resident.h"

namespace ptc_test_rows {

// The browser test's rows: JSON.stringify({rows}) of its generator (also
// resident_load_peak_test.cpp's).
std::string browserRows(int n) {
  static const char* regions[] = {"north", "south", "east", "west"};
  static const char* categories[] = {"books", "games", "tools", "garden", "food"};
  static const char* statuses[] = {"paid", "shipped", "refunded"};
  static const char* channels[] = {"web", "store", "phone"};
  auto cents = [](long long c) {  // Math.round(x * 100) / 100 as JS prints it
    std::string s = std::to_string(c / 100);
    long long frac = c % 100;
    if (frac != 0) {
      s += '.';
      s += static_cast<char>('0' + frac / 10);
      if (frac % 10 != 0) s += static_cast<char>('0' + frac % 10);
    }
    return s;
  };
  auto two = [](int v) { return std::string(v < 10 ? "0" : "") + std::to_string(v); };
  std::string out = "{\"rows\":[";
  for (int i = 0; i < n; ++i) {
    if (i) out += ',';
    char order[16];
    std::snprintf(order, sizeof order, "ORD-%08d", i);
    // 2024-01-01T00:00Z plus i minutes (January has 31 days, 2024's February 29).
    int minutes = i, day = minutes / 1440, month = 1;
    if (day >= 31) day -= 31, month = 2;
    if (month == 2 && day >= 29) day -= 29, month = 3;
    std::string created = "2024-" + two(month) + "-" + two(day + 1) + "T" + two(minutes % 1440 / 60) + ":" +
                          two(minutes % 60) + ":00.000Z";
    int quantity = i % 7 + 1;
    out += "{\"id\":" + std::to_string(i) + ",\"order_id\":\"" + order + "\",\"customer\":\"customer-" +
           std::to_string(i % 1000) + "\",\"email\":\"user" + std::to_string(i % 1000) +
           "@example.com\",\"region\":\"" + regions[i % 4] + "\",\"product\":\"Product " + std::to_string(i % 250) +
           "\",\"category\":\"" + categories[i % 5] + "\",\"quantity\":" + std::to_string(quantity) +
           ",\"unit_price\":" + cents((i % 100) * 317) + ",\"total\":" + cents(quantity * (i % 100) * 317LL) +
           ",\"created_at\":\"" + created + "\",\"status\":\"" + statuses[i % 3] + "\",\"notes\":\"" +
           (i % 10 == 0 ? "gift wrap, deliver after 5pm" : "") + "\",\"channel\":\"" + channels[i % 3] + "\"}";
  }
  return out + "]}";
}

}  // namespace ptc_test_rows

namespace {

using ptc::MemberRef;
using ptc::Value;
using ptc_test_rows::browserRows;

// dlmalloc's chunk for a request of n bytes in wasm32: a 4-byte header, 8-byte
// alignment, 16 bytes at least.
uint64_t chunk32(uint64_t n) { return std::max<uint64_t>(16, (n + 4 + 7) & ~uint64_t{7}); }
// libc++'s std::string in wasm32: 12 bytes in its holder, a heap buffer past 10 bytes.
uint64_t stringHeap32(size_t size) { return size <= 10 ? 0 : chunk32(((size + 1) + 15) & ~size_t{15}); }

struct Footprint {
  uint64_t objects = 0, shaped = 0, members = 0, indexed = 0, arrays = 0, items = 0;
  uint64_t strings = 0, stringChars = 0, keyStrings = 0;
  uint64_t objectBytes32 = 0, indexBytes32 = 0, arrayBytes32 = 0, stringBytes32 = 0, keyBytes32 = 0;
  uint64_t uncharged = 0;  // blocks charged to no budget
  std::unordered_set<const void*> seen;

  // A block is charged to the budget it names (value.h's HeapBlock).
  bool fresh(const Value& v) {
    if (!seen.insert(v.identity()).second) return false;  // shared: counted once
    if (static_cast<const ptc::HeapBlock*>(v.identity())->budget == nullptr) ++uncharged;
    return true;
  }
  void string(const Value& s, bool isKey) {
    if (!fresh(s)) return;
    uint64_t bytes = chunk32(24) + stringHeap32(s.str().size());
    (isKey ? keyStrings : strings) += 1;
    (isKey ? keyBytes32 : stringBytes32) += bytes;
    stringChars += s.str().size();
  }
  void walk(const Value& v) {
    if (v.isString()) return string(v, false);
    if (v.isArray()) {
      if (!fresh(v)) return;
      arrays += 1;
      items += v.items().size();
      arrayBytes32 += chunk32(24) + chunk32(v.items().size() * 16);
      for (const Value& x : v.items()) walk(x);
    } else if (v.isObject()) {
      if (!fresh(v)) return;
      size_t n = v.members().size();
      objects += 1;
      members += n;
      // wasm32: the block's header (16 bytes), the members, then for a wide
      // object a pointer to its key index, a block of its own (20 bytes and
      // the positions) that objects of one shape share: counted once. A
      // shaped object holds its values (16 bytes each) and a pointer to its
      // shape, an object of the list (the first with those keys).
      const bool wide = n >= Value::kIndexFrom;
      if (v.shape()) {
        shaped += 1;
        objectBytes32 += chunk32(16 + n * 16 + 4);
      } else {
        objectBytes32 += chunk32(16 + n * 32 + (wide ? 4 : 0));
      }
      if (wide && seen.insert(v.keyIndex()).second) {
        indexed += 1;
        indexBytes32 += chunk32(20 + n * 4);
      }
      for (MemberRef m : v.members()) {
        string(m.key, true);
        walk(m.value);
      }
    }
  }
};

constexpr int kRows = 50000;

TEST(ResidentFootprint, TheBrowserTestsRowsByKind) {
  const std::string text = browserRows(kRows);
  auto resident = ptc::loadResident(text, uint64_t{1} << 30, 600000);
  Footprint f;
  f.walk(resident->context);
  const uint64_t total32 = f.objectBytes32 + f.indexBytes32 + f.arrayBytes32 + f.stringBytes32 + f.keyBytes32;
  auto mib = [](uint64_t b) { return static_cast<double>(b) / 1048576.0; };
  std::printf("JSON %zu bytes (%.1f MiB), %d rows, %.0f bytes a row\n", text.size(), mib(text.size()), kRows,
              static_cast<double>(text.size()) / kRows);
  std::printf("engine's count (maxResidentBytes): %llu bytes = %.2fx the JSON, %.0f a row\n",
              static_cast<unsigned long long>(resident->budget.live()),
              static_cast<double>(resident->budget.live()) / static_cast<double>(text.size()),
              static_cast<double>(resident->budget.live()) / kRows);
  std::printf("wasm32 layout, malloc chunks included: %.1f MiB = %.2fx the JSON, %.0f a row\n", mib(total32),
              static_cast<double>(total32) / static_cast<double>(text.size()), static_cast<double>(total32) / kRows);
  auto line = [&](const char* what, uint64_t count, uint64_t bytes) {
    std::printf("  %-44s %9llu  %7.1f MiB  %5.0f a row\n", what, static_cast<unsigned long long>(count), mib(bytes),
                static_cast<double>(bytes) / kRows);
  };
  line("objects (block, members: a key and a value;", f.objects, f.objectBytes32);
  line("  shaped: the values, their keys the shape's)", f.shaped, 0);
  line("  their key indexes (9+ members; shared)", f.indexed, f.indexBytes32);
  line("lists (block and items)", f.arrays, f.arrayBytes32);
  line("strings, values (distinct blocks)", f.strings, f.stringBytes32);
  line("strings, keys (distinct blocks)", f.keyStrings, f.keyBytes32);
  std::printf("  members %llu, items %llu, string bytes %llu\n", static_cast<unsigned long long>(f.members),
              static_cast<unsigned long long>(f.items), static_cast<unsigned long long>(f.stringChars));
  std::printf("  blocks charged to no budget: %llu\n", static_cast<unsigned long long>(f.uncharged));
  EXPECT_EQ(f.objects, static_cast<uint64_t>(kRows) + 1);
  // Repeated strings (names, categories, keys) are one block each, and rows
  // share their key index: 2.91x the JSON (846 bytes a row) before, 2.37x
  // once the strings were shared across the whole load, 2.15x (626 a row) with
  // the index shared, 1.38x (402 a row) since rows hold their keys once (a
  // shape: the first row holds them, the others only their values).
  EXPECT_LT(static_cast<double>(total32), 1.45 * static_cast<double>(text.size()));
  // The engine's own count (this build's layout, what maxResidentBytes
  // bounds): 2.20x the JSON before the shape, 1.42x with it.
  EXPECT_LT(static_cast<double>(resident->budget.live()), 1.5 * static_cast<double>(text.size()));
  EXPECT_EQ(f.shaped, static_cast<uint64_t>(kRows) - 1);
  // Every block the values hold counts toward maxResidentBytes: short strings
  // were made uncharged (shared through the parser's cache, which outlives a
  // parse), so the count left out 14 MiB of them.
  EXPECT_EQ(f.uncharged, 0u);
}

// Rows of any width hold their keys once, nested objects too: what a row
// costs is its values. 1,000 rows {"a","b","c"} with an object {"x","y"}
// each: 224 bytes a row in this build's count before shapes, 160 with them.
TEST(ResidentShapes, RowsOfOneLayoutHoldOnlyTheirValues) {
  std::string text = "{\"rows\":[";
  for (int i = 0; i < 1000; ++i)
    text += std::string(i ? "," : "") + "{\"a\":" + std::to_string(i) + ",\"b\":\"x\",\"c\":{\"x\":true,\"y\":null}}";
  text += "]}";
  auto resident = ptc::loadResident(text, uint64_t{1} << 30, 600000);
  const Value& rows = *resident->context.find("rows");
  const void* shape = rows.items()[1].shape();
  ASSERT_NE(shape, nullptr);
  EXPECT_EQ(rows.items()[0].shape(), nullptr);  // the first holds the keys: it is the shape
  EXPECT_EQ(shape, rows.items()[0].identity());
  for (const Value& row : rows.items())
    if (!row.sameHeap(rows.items()[0])) {
      EXPECT_EQ(row.shape(), shape);
      EXPECT_NE(row.find("c")->shape(), nullptr);
    }
  EXPECT_LT(resident->budget.live(), 1000u * 180u);
}

// A shaped object is the same value as one holding its keys: equal, ordered
// and hashed alike, written alike, its fields found by name (wide ones through
// the shape's key index) and read in its order.
TEST(ResidentShapes, AShapedObjectIsTheSameValueAsAnObjectHoldingItsKeys) {
  for (int width : {2, 12}) {
    std::string row1 = "{", row2 = "{";
    for (int k = width - 1; k >= 0; --k) {
      std::string sep = k == width - 1 ? "" : ",";
      row1 += sep + "\"k" + std::to_string(k) + "\":" + std::to_string(k);
      row2 += sep + "\"k" + std::to_string(k) + "\":" + std::to_string(k * 10);
    }
    row1 += "}", row2 += "}";
    auto resident = ptc::loadResident("{\"rows\":[" + row1 + "," + row2 + "]}", uint64_t{1} << 30, 600000);
    const Value& shaped = resident->context.find("rows")->items()[1];
    ASSERT_NE(shaped.shape(), nullptr) << width;
    const Value plain = ptc::parseJson(row2, "row");
    ASSERT_EQ(plain.shape(), nullptr);
    EXPECT_TRUE(ptc::equals(shaped, plain));
    EXPECT_EQ(ptc::compare(shaped, plain), 0);
    EXPECT_EQ(ptc::hashValue(shaped), ptc::hashValue(plain));
    EXPECT_EQ(ptc::toJson(shaped), ptc::toJson(plain));
    EXPECT_FALSE(ptc::equals(shaped, resident->context.find("rows")->items()[0]));
    ASSERT_EQ(shaped.members().size(), static_cast<size_t>(width));
    size_t i = 0;
    for (MemberRef m : shaped.members()) {
      const int k = width - 1 - static_cast<int>(i);
      EXPECT_EQ(m.key.str(), "k" + std::to_string(k));
      EXPECT_EQ(m.value.asInt(), k * 10);
      EXPECT_EQ(&m.value, shaped.find("k" + std::to_string(k)));
      EXPECT_EQ(&shaped.members()[i].value, &m.value);
      ++i;
    }
    EXPECT_EQ(shaped.find("k99"), nullptr);
    EXPECT_EQ((shaped.keyIndex() != nullptr), width >= static_cast<int>(Value::kIndexFrom));
  }
}

// The shape is the first row: it lives as long as any row of its shape, and
// goes with the last (the budget holds nothing after the resident goes).
TEST(ResidentShapes, TheShapeOutlivesTheRowThatHoldsItsKeys) {
  ptc::Budget budget(uint64_t{1} << 30);
  Value second;
  {
    ptc::BudgetScope scope(&budget);
    Value rows = ptc::parseJson(R"([{"a":1,"b":2},{"a":3,"b":4}])", "rows");
    ptc::Member members[2] = {{rows.items()[0].members()[0].key, Value::integer(5)},
                              {rows.items()[0].members()[1].key, Value::integer(6)}};
    second = Value::object(members, 2, &rows.items()[0]);
    ASSERT_NE(second.shape(), nullptr);
  }  // the list and the row holding the keys go: the shape stays for `second`
  EXPECT_EQ(ptc::toJson(second), R"({"a":5,"b":6})");
  EXPECT_GT(budget.live(), 0u);
  second = Value();
  EXPECT_EQ(budget.live(), 0u);
}

}  // namespace
