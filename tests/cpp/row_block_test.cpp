// The binary form of projected rows (engine/core/row_block.h): what the package
// writes in js/src/engine/rows.ts must read back as the JSON of the same fields would,
// and a run must give the same answers whether it folds over the columns or
// builds the rows.
#include <gtest/gtest.h>

#include <initializer_list>
#include <limits>
#include <string>

#include "api/engine.h"
#include "core/error.h"
#include "core/json.h"
#include "core/row_block.h"
#include "row_block_writer.h"

namespace {

using ptc::RowTag;
using ptc::Value;
using ptc::testing::RowBlockWriter;
using Cell = ptc::testing::RowCell;

constexpr Cell kAbsent{RowTag::Absent};
constexpr Cell kNull{RowTag::Null};
Cell num(double d) { return {RowTag::Number, d}; }
Cell str(double index) { return {RowTag::String, index}; }

// The context the blocks of `keys` make, each list's rows built.
std::string decode(const std::string& blocks, std::initializer_list<const char*> keys = {"rows"}) {
  ptc::ColumnarLists lists;
  ptc::readRowBlocks(blocks, lists, {});
  ptc::Members context;
  for (const char* key : keys) {
    ptc::ColumnarList* list = lists.find(key);
    if (!list) return std::string("no list ") + key;
    context.push_back(ptc::Member{Value::string(key), list->rows()});
  }
  return ptc::toJson(Value::object(std::move(context)));
}

TEST(RowBlocks, ReadBackAsTheJsonOfTheSameFields) {
  RowBlockWriter w;
  w.block(
      "rows", {"a", "b"},
      {{num(1), str(0)}, {kAbsent, str(0)}, {num(1.5), kNull}, {{RowTag::True}, str(1)}, {{RowTag::False}, kAbsent}},
      {"x", "ü ✓"});
  EXPECT_EQ(decode(w.out),
            R"({"rows":[{"a":1,"b":"x"},{"b":"x"},{"a":1.5,"b":null},{"a":true,"b":"ü ✓"},{"a":false}]})");
}

TEST(RowBlocks, NumbersBecomeIntegersExactlyWhereTheirJsonTextWould) {
  RowBlockWriter w;
  w.block("n", {"v"},
          {{num(3)}, {num(-0.0)}, {num(9007199254740994.0)}, {num(9223372036854775808.0)}, {num(1e21)}, {num(0.1)}},
          {});
  ptc::ColumnarLists lists;
  ptc::readRowBlocks(w.out, lists, {});
  const ptc::Array& items = lists.find("n")->rows().items();
  auto v = [&](size_t i) { return *items[i].find("v"); };
  EXPECT_TRUE(v(0).isInt());
  EXPECT_TRUE(v(1).isInt()) << "-0 is written 0";
  EXPECT_TRUE(v(2).isInt());
  EXPECT_EQ(v(2).asInt(), 9007199254740994);
  EXPECT_FALSE(v(3).isInt()) << "2^63 overflows int64, as its digits would";
  EXPECT_FALSE(v(4).isInt());
  EXPECT_FALSE(v(5).isInt());
}

TEST(RowBlocks, SeveralBlocksEmptyListsAndRowsWithoutFields) {
  RowBlockWriter w;
  w.block("a", {}, {{}, {}}, {});
  w.block("b", {"x"}, {}, {});
  w.block("c", {"x"}, {{str(0)}}, {"after an empty one"});
  EXPECT_EQ(decode(w.out, {"a", "b", "c"}), R"({"a":[{},{}],"b":[],"c":[{"x":"after an empty one"}]})");
}

TEST(RowBlocks, CellsAreReadUntilTheRowsAreBuilt) {
  RowBlockWriter w;
  w.block("rows", {"a"}, {{num(1)}, {kAbsent}, {str(0)}}, {"x"});
  ptc::ColumnarLists lists;
  ptc::readRowBlocks(w.out, lists, {});
  ptc::ColumnarList& list = *lists.find("rows");
  const std::optional<ptc::CellColumn> cells = list.cells(Value::string("a"));
  ASSERT_TRUE(cells.has_value());
  EXPECT_EQ(cells->tag(1), RowTag::Absent);
  EXPECT_EQ(ptc::toJson(Value::array({cells->value(0), cells->value(1), cells->value(2)})), R"([1,null,"x"])")
      << "an absent field reads as null";
  EXPECT_FALSE(list.cells(Value::string("b")).has_value());
  const Value rows = list.rows();
  EXPECT_TRUE(lists.holds(rows));
  EXPECT_FALSE(list.cells(Value::string("a")).has_value()) << "the cells go once the rows are built";
  EXPECT_TRUE(list.rows().sameHeap(rows)) << "built once";
}

TEST(RowBlocks, MalformedBlocksAreParseErrorsNotCrashes) {
  RowBlockWriter good;
  good.block("rows", {"a"}, {{num(1)}}, {});
  auto one = [](Cell cell, std::vector<std::string> strings = {}) {
    return RowBlockWriter().block("rows", {"a"}, {{cell}}, strings).out;
  };
  std::string bad[] = {
      good.out.substr(0, good.out.size() - 3),                             // cut inside the string count
      good.out.substr(0, 30),                                              // cut inside the cells
      RowBlockWriter().header("rows", 2, {"a"}).f64(1).u8(3).u32(0).out,   // one item short
      one({static_cast<RowTag>(42)}),                                      // no such tag
      one(str(0)),                                                         // a string never sent
      one(str(0.5), {"x"}),                                                // not a position
      one(str(-1), {"x"}),                                                 // not a position
      one(num(std::numeric_limits<double>::quiet_NaN())),                  // not a JSON number
      one(num(std::numeric_limits<double>::infinity())),                   // not a JSON number
      RowBlockWriter().u32(1000).out,                                      // a key longer than the block
      RowBlockWriter().text("rows").u32(0xFFFFFFFF).u32(1).text("a").out,  // more cells than bytes
      RowBlockWriter().text("rows").u32(1).u32(0xFFFFFFFF).out,            // more fields than bytes
      RowBlockWriter().header("rows", 0, {}).u32(0xFFFFFFFF).out,          // more strings than bytes
  };
  for (const std::string& b : bad) {
    try {
      decode(b);
      ADD_FAILURE() << "accepted a malformed block of " << b.size() << " bytes";
    } catch (const ptc::PtcError& e) {
      EXPECT_EQ(e.error.type, ptc::ErrorType::Parse);
      EXPECT_EQ(e.error.code, ptc::ErrorCode::BadRowBlock);
    }
  }
}

// A run of `program` with `blocks` beside the JSON context.
Value run(ptc::Engine& engine, const std::string& program, const std::string& blocks, const char* context = "{}") {
  Value prepared = ptc::parseJson(engine.prepare(program, "{}"), "status");
  EXPECT_EQ(prepared.field("state").str(), "prepared") << ptc::toJson(prepared);
  int id = static_cast<int>(prepared.field("id").asInt());
  return ptc::parseJson(engine.runPrepared(id, context, "{}", 0, blocks).text, "status");
}

TEST(RowBlocks, ItemsWithoutFieldsCostNothingToSendButAreChargedToTheRun) {
  ptc::Engine engine;
  const std::string count = R"({"program":{"op":"pipe","steps":[{"op":"load","name":"rows"},{"op":"count"}]}})";
  Value three = run(engine, count, RowBlockWriter().header("rows", 3, {}).u32(0).out);
  EXPECT_EQ(ptc::toJson(three.field("result")), "3");
  Value huge = run(engine, count, RowBlockWriter().header("rows", 0xFFFFFFFF, {}).u32(0).out);
  EXPECT_EQ(huge.field("error").field("code").str(), "memory_exceeded") << ptc::toJson(huge);
}

std::string pipe(const std::string& steps) { return R"({"program":{"op":"pipe","steps":[)" + steps + "]}}"; }

const char* kLoad = R"({"op":"load","name":"rows"})";

// Rows {c, v}: c "t" or "u", v numbers, one row without v, one with null.
std::string expenseRows() {
  RowBlockWriter w;
  w.block("rows", {"c", "v"},
          {{str(0), num(2)}, {str(1), num(5)}, {str(0), num(0.5)}, {str(0), kAbsent}, {str(1), kNull}}, {"t", "u"});
  return w.out;
}

TEST(RowBlocks, ARunSeesThemBesideTheJsonContext) {
  ptc::Engine engine;
  const char* program = R"({"program":{"sum":{"op":"pipe","steps":[{"op":"load","name":"rows"},)"
                        R"({"op":"filter","where":{"op":"eq","field":"c","value":"t"}},{"op":"sum","field":"v"}]},)"
                        R"("other":{"op":"load","name":"other"}}})";
  Value prepared = ptc::parseJson(engine.prepare(program, "{}"), "status");
  ASSERT_EQ(ptc::toJson(prepared.field("fields")), R"({"rows":["c","v"]})");
  Value done = run(engine, program, expenseRows(), R"({"other":[1]})");
  EXPECT_EQ(ptc::toJson(done.field("result")), R"({"sum":2.5,"other":[1]})");
  Value broken = run(engine, program, expenseRows().substr(0, 20));
  EXPECT_EQ(broken.field("error").field("type").str(), "parse_error");
  EXPECT_EQ(broken.field("error").field("code").str(), "bad_row_block");
}

// Folds read the columns; everything else builds the rows. Both give what the
// same rows as JSON give.
TEST(RowBlocks, FoldsOverColumnsAnswerAsTheRowsDo) {
  const std::string json =
      R"({"rows":[{"c":"t","v":2},{"c":"u","v":5},{"c":"t","v":0.5},{"c":"t"},{"c":"u","v":null}]})";
  const std::string programs[] = {
      pipe(std::string(kLoad) +
           R"(,{"op":"filter","where":{"op":"eq","field":"c","value":"t"}},{"op":"sum","field":"v"})"),
      pipe(std::string(kLoad) + R"(,{"op":"filter","where":{"op":"neq","field":"c","value":"t"}},{"op":"count"})"),
      pipe(std::string(kLoad) +
           R"(,{"op":"group_by","field":"c","aggs":{"n":{"op":"count"},"s":{"op":"sum","field":"v"},)"
           R"("a":{"op":"avg","field":"v"},"lo":{"op":"min","field":"v"},"hi":{"op":"max","field":"v"}}})"),
      pipe(std::string(kLoad) + R"(,{"op":"group_by","field":"v","aggs":{"n":{"op":"count"}}})"),
      pipe(std::string(kLoad) + R"(,{"op":"group_by","field":"c"})"),  // no aggs: the groups hold rows
      R"({"program":{"a":)" +
          pipe(std::string(kLoad) +
               R"(,{"op":"filter","where":{"op":"eq","field":"c","value":"u"}},{"op":"sum","field":"v"})") +
          R"(,"b":)" + pipe(kLoad) + "}}",
  };
  for (const std::string& program : programs) {
    SCOPED_TRACE(program);
    ptc::Engine engine;
    Value fromColumns = run(engine, program, expenseRows());
    Value fromJson = run(engine, program, "", json.c_str());
    ASSERT_EQ(fromColumns.field("state").str(), "done") << ptc::toJson(fromColumns);
    EXPECT_EQ(ptc::toJson(fromColumns.field("result")), ptc::toJson(fromJson.field("result")));
  }
}

// Folds read the cells as they crossed: every kind of key against every kind
// of value to compare with, texts repeated (each compared once per block), and
// the same list folded, grouped and built into rows in one program.
TEST(RowBlocks, FoldsOverCellsCompareEveryKindOfKeyAsTheRowsDo) {
  RowBlockWriter w;
  w.block("rows", {"k", "v"},
          {{str(0), num(1)},
           {num(1), num(2)},
           {{RowTag::True}, num(4)},
           {kNull, num(8)},
           {kAbsent, num(16)},
           {str(1), num(32)},
           {str(0), num(64)},
           {{RowTag::False}, num(128)},
           {num(1.5), num(256)}},
          {"1", "t"});
  const std::string json = R"({"rows":[{"k":"1","v":1},{"k":1,"v":2},{"k":true,"v":4},{"k":null,"v":8},{"v":16},)"
                           R"({"k":"t","v":32},{"k":"1","v":64},{"k":false,"v":128},{"k":1.5,"v":256}]})";
  std::vector<std::string> programs;
  for (const char* value : {R"("1")", R"("t")", "1", "1.5", "true", "false", "null", R"("absent")"})
    for (const char* op : {"eq", "neq"}) {
      const std::string filter =
          std::string(R"({"op":"filter","where":{"op":")") + op + R"(","field":"k","value":)" + value + "}}";
      programs.push_back(pipe(std::string(kLoad) + "," + filter + R"(,{"op":"sum","field":"v"})"));
      programs.push_back(pipe(std::string(kLoad) + "," + filter + R"(,{"op":"count"})"));
    }
  programs.push_back(
      R"({"program":{"sum":)" +
      pipe(std::string(kLoad) +
           R"(,{"op":"filter","where":{"op":"eq","field":"k","value":"1"}},{"op":"sum","field":"v"})") +
      R"(,"groups":)" +
      pipe(std::string(kLoad) + R"(,{"op":"group_by","field":"k","aggs":{"s":{"op":"sum","field":"v"}}})") +
      R"(,"rows":)" + pipe(std::string(kLoad) + R"(,{"op":"take","count":2})") + "}}");
  for (const std::string& program : programs) {
    SCOPED_TRACE(program);
    ptc::Engine engine;
    Value fromColumns = run(engine, program, w.out);
    Value fromJson = run(engine, program, "", json.c_str());
    ASSERT_EQ(fromColumns.field("state").str(), "done") << ptc::toJson(fromColumns);
    EXPECT_EQ(ptc::toJson(fromColumns.field("result")), ptc::toJson(fromJson.field("result")));
  }
}

// 3000 items, more than two of the blocks in which folds and group_by read
// cells (planner.cpp's foldCells, evaluator.cpp's groupByCells), as cells and
// as JSON: keys "a", "b", "c", 1, null and missing mixed on both sides of each
// block's end, and numbers to sum; the item at `textAt` (0: none), with key
// "a" at 2500 and "b" at 2501, holds the text "text" instead of a number.
struct ManyItems {
  std::string blocks;
  std::string json;
};

ManyItems manyItems(size_t textAt) {
  constexpr size_t kItems = 3000;
  const Cell keys[] = {str(0), str(1), num(1), kNull, kAbsent, str(0), str(2)};
  std::vector<std::vector<Cell>> rows;
  std::string json = R"({"rows":[)";
  for (size_t i = 0; i < kItems; ++i) {
    const Cell k = i == 2500 ? str(0) : i == 2501 ? str(1) : keys[(i * i + i / 7) % std::size(keys)];
    const bool text = textAt && i == textAt;
    const double v = static_cast<double>(i % 97) + 0.25;
    rows.push_back({k, text ? str(3) : num(v)});
    json += i ? ",{" : "{";
    if (k.tag == RowTag::String) json += std::string(R"("k":")") + "abc"[static_cast<int>(k.value)] + "\",";
    if (k.tag == RowTag::Number) json += R"("k":1,)";
    if (k.tag == RowTag::Null) json += R"("k":null,)";
    json += R"("v":)" + (text ? std::string(R"("text")") : ptc::toJson(Value::number(v))) + "}";
  }
  RowBlockWriter w;
  w.block("rows", {"k", "v"}, rows, {"a", "b", "c", "text"});
  return {w.out, json + "]}"};
}

// The program's run on the cells and on the JSON give the same answer or error.
void expectTheRowsAnswer(const std::string& program, const ManyItems& items, bool fails) {
  SCOPED_TRACE(program);
  ptc::Engine engine;
  const Value fromColumns = run(engine, program, items.blocks);
  const Value fromJson = run(engine, program, "", items.json.c_str());
  EXPECT_EQ(fromJson.field("ok").asBool(), !fails) << ptc::toJson(fromJson).substr(0, 600);
  for (const char* part : {"ok", "result", "error"})
    EXPECT_EQ(ptc::toJson(fromColumns.field(part)), ptc::toJson(fromJson.field(part))) << part;
}

// Kept and dropped items count and sum as the rows do, and a text to sum in a
// kept item of the third block is sum's error, while one in a dropped item is
// not read (checked by mutation: a fold that skips an item per block fails).
TEST(RowBlocks, FoldsOverManyBlocksOfCellsAreTheFoldsOfTheRows) {
  for (const size_t textAt : {size_t{0}, size_t{2500}, size_t{2501}}) {
    const ManyItems items = manyItems(textAt);
    for (const char* op : {"eq", "neq"})
      for (const char* fold : {R"({"op":"sum","field":"v"})", R"({"op":"count"})"}) {
        const bool keepsTheText = std::string(op) == "eq" ? textAt == 2500 : textAt == 2501;
        expectTheRowsAnswer(pipe(std::string(kLoad) + R"(,{"op":"filter","where":{"op":")" + op +
                                 R"(","field":"k","value":"a"}},)" + fold),
                            items, keepsTheText && std::string(fold).find("sum") != std::string::npos);
      }
  }
}

// Every agg over groups whose items span blocks, as over the rows; the text
// of the third block is an error of sum, min and max, and skipped by avg
// (checked by mutation: reading each agg's column one item off fails).
TEST(RowBlocks, GroupsOverManyBlocksOfCellsAreTheGroupsOfTheRows) {
  const auto groupBy = [](const std::string& aggs) {
    return pipe(std::string(kLoad) + R"(,{"op":"group_by","field":"k","aggs":{)" + aggs + "}}");
  };
  expectTheRowsAnswer(groupBy(R"("n":{"op":"count"},"s":{"op":"sum","field":"v"},"a":{"op":"avg","field":"v"},)"
                              R"("lo":{"op":"min","field":"v"},"hi":{"op":"max","field":"v"})"),
                      manyItems(0), false);
  const ManyItems withText = manyItems(2500);
  for (const std::string agg : {"sum", "avg", "min", "max"})
    expectTheRowsAnswer(groupBy(R"("n":{"op":"count"},"x":{"op":")" + agg + R"(","field":"v"})"), withText,
                        agg != "avg");
}

// group_by over cells: keys of every kind, and a text the block holds at two
// positions (the package sends a text again once it has numbered 65536) is
// still one group.
TEST(RowBlocks, GroupsOverCellsAreTheGroupsOfTheRows) {
  RowBlockWriter w;
  w.block("rows", {"k", "v"},
          {{str(0), num(1)},
           {num(1), num(2)},
           {str(2), num(4)},
           {kNull, kNull},
           {kAbsent, num(16)},
           {{RowTag::True}, num(-3.5)},
           {str(1), str(3)},
           {str(0), num(64)},
           {num(1), kAbsent}},
          {"t", "u", "t", "text"});
  const std::string json = R"({"rows":[{"k":"t","v":1},{"k":1,"v":2},{"k":"t","v":4},{"k":null,"v":null},{"v":16},)"
                           R"({"k":true,"v":-3.5},{"k":"u","v":"text"},{"k":"t","v":64},{"k":1}]})";
  const std::string programs[] = {
      pipe(std::string(kLoad) +
           R"(,{"op":"group_by","field":"k","aggs":{"n":{"op":"count"},"s":{"op":"avg","field":"v"},)"
           R"("lo":{"op":"min","field":"v"},"hi":{"op":"max","field":"v"}}})"),
      pipe(std::string(kLoad) + R"(,{"op":"group_by","field":"k","aggs":{"s":{"op":"sum","field":"v"}}})"),
      pipe(std::string(kLoad) + R"(,{"op":"group_by","field":"v","aggs":{"n":{"op":"count"}}})"),
  };
  for (const std::string& program : programs) {
    SCOPED_TRACE(program);
    ptc::Engine engine;
    Value fromColumns = run(engine, program, w.out);
    Value fromJson = run(engine, program, "", json.c_str());
    EXPECT_EQ(ptc::toJson(fromColumns.field("result")), ptc::toJson(fromJson.field("result")));
    EXPECT_EQ(ptc::toJson(fromColumns.field("error")), ptc::toJson(fromJson.field("error")));
  }
}

// A pipe that also calls a tool (evaluated as it waits) folds over the cells
// too: 4000 rows fit a budget as cells that they would not fit as rows.
TEST(RowBlocks, APipeThatCallsAToolFoldsOverTheCellsToo) {
  std::vector<std::vector<Cell>> items;
  for (int i = 0; i < 4000; ++i) items.push_back({str(i % 2), num(i)});
  RowBlockWriter w;
  w.block("rows", {"c", "v"}, items, {"t", "u"});
  const std::string folds =
      R"({"program":{"op":"pipe","steps":[{"op":"call","tool":"t"},)" + std::string(kLoad) +
      R"(,{"op":"filter","where":{"op":"eq","field":"c","value":"t"}},{"op":"sum","field":"v"}]}})";
  const std::string builds =
      R"({"program":{"op":"pipe","steps":[{"op":"call","tool":"t"},)" + std::string(kLoad) +
      R"(,{"op":"filter","where":{"op":"eq","field":"c","value":"t"}},{"op":"take","count":5000}]}})";
  auto answer = [&](const std::string& program) {
    ptc::Engine engine;
    Value prepared = ptc::parseJson(engine.prepare(program, R"({"tools":["t"],"maxHeapBytes":200000})"), "status");
    EXPECT_EQ(prepared.field("state").str(), "prepared") << ptc::toJson(prepared);
    ptc::RunStatus started = engine.runPrepared(static_cast<int>(prepared.field("id").asInt()), "{}", "{}", 0, w.out);
    Value waiting = ptc::parseJson(started.text, "status");
    EXPECT_EQ(waiting.field("state").str(), "call") << ptc::toJson(waiting);
    return ptc::parseJson(engine.resume(started.run, "null"), "status");
  };
  Value folded = answer(folds);
  EXPECT_EQ(ptc::toJson(folded.field("result")), "3998000") << ptc::toJson(folded);  // 0 + 2 + ... + 3998
  EXPECT_EQ(answer(builds).field("error").field("code").str(), "memory_exceeded")
      << "the same rows, built, do not fit: the fold above read the cells";
}

TEST(RowBlocks, AFoldThatMeetsWhatItCannotFoldFailsAsTheRowsDo) {
  RowBlockWriter w;
  w.block("rows", {"c", "v"}, {{str(0), num(1)}, {str(0), str(1)}}, {"t", "ten"});
  const std::string json = R"({"rows":[{"c":"t","v":1},{"c":"t","v":"ten"}]})";
  const std::string programs[] = {
      pipe(std::string(kLoad) +
           R"(,{"op":"filter","where":{"op":"eq","field":"c","value":"t"}},{"op":"sum","field":"v"})"),
      pipe(std::string(kLoad) + R"(,{"op":"group_by","field":"c","aggs":{"s":{"op":"sum","field":"v"}}})"),
  };
  for (const std::string& program : programs) {
    SCOPED_TRACE(program);
    ptc::Engine engine;
    Value fromColumns = run(engine, program, w.out);
    Value fromJson = run(engine, program, "", json.c_str());
    EXPECT_EQ(fromColumns.field("ok").truthy(), false) << ptc::toJson(fromColumns);
    EXPECT_EQ(ptc::toJson(fromColumns.field("error")), ptc::toJson(fromJson.field("error")));
  }
}

}  // namespace
