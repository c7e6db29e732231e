// The binary form of projected rows (engine/host/row_block.h): what the package
// writes in js/src/rows.ts must read back as the JSON of the same fields would.
#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <string>

#include "core/error.h"
#include "core/json.h"
#include "host/engine.h"
#include "host/row_block.h"

namespace {

using ptc::RowTag;
using ptc::Value;

// Writes blocks as the package does.
class Writer {
 public:
  Writer& u32(uint32_t v) {
    char b[4];
    std::memcpy(b, &v, 4);
    out.append(b, 4);
    return *this;
  }
  Writer& text(const std::string& s) {
    u32(static_cast<uint32_t>(s.size()));
    out += s;
    return *this;
  }
  Writer& tag(RowTag t) {
    out.push_back(static_cast<char>(t));
    return *this;
  }
  Writer& number(double d) {
    tag(RowTag::Number);
    char b[8];
    std::memcpy(b, &d, 8);
    out.append(b, 8);
    return *this;
  }
  Writer& header(const std::string& key, uint32_t items, std::initializer_list<const char*> fields) {
    text(key).u32(items).u32(static_cast<uint32_t>(fields.size()));
    for (const char* f : fields) text(f);
    return *this;
  }
  std::string out;
};

std::string decode(const std::string& blocks) {
  ptc::Members context;
  ptc::appendRowBlocks(blocks, context, {});
  return ptc::toJson(Value::object(std::move(context)));
}

TEST(RowBlocks, ReadBackAsTheJsonOfTheSameFields) {
  Writer w;
  w.header("rows", 4, {"a", "b"});
  w.tag(RowTag::Object).number(1).tag(RowTag::NewString).text("x");
  w.tag(RowTag::Object).tag(RowTag::Absent).tag(RowTag::StringRef).u32(0);
  w.tag(RowTag::Object).number(1.5).tag(RowTag::Null);
  w.tag(RowTag::PlainString).text("an item that is not an object");
  EXPECT_EQ(decode(w.out),
            R"({"rows":[{"a":1,"b":"x"},{"b":"x"},{"a":1.5,"b":null},"an item that is not an object"]})");
}

TEST(RowBlocks, NumbersBecomeIntegersExactlyWhereTheirJsonTextWould) {
  Writer w;
  w.header("n", 6, {});
  w.number(3).number(-0.0).number(9007199254740994.0).number(9223372036854775808.0).number(1e21).number(0.1);
  ptc::Members context;
  ptc::appendRowBlocks(w.out, context, {});
  const ptc::Array& items = context[0].value.items();
  EXPECT_TRUE(items[0].isInt());
  EXPECT_TRUE(items[1].isInt()) << "-0 is written 0";
  EXPECT_TRUE(items[2].isInt());
  EXPECT_EQ(items[2].asInt(), 9007199254740994);
  EXPECT_FALSE(items[3].isInt()) << "2^63 overflows int64, as its digits would";
  EXPECT_FALSE(items[4].isInt());
  EXPECT_FALSE(items[5].isInt());
}

TEST(RowBlocks, BooleansAndSeveralBlocks) {
  Writer w;
  w.header("a", 2, {}).tag(RowTag::True).tag(RowTag::False);
  w.header("b", 0, {"x"});
  EXPECT_EQ(decode(w.out), R"({"a":[true,false],"b":[]})");
}

TEST(RowBlocks, MalformedBlocksAreParseErrorsNotCrashes) {
  Writer good;
  good.header("rows", 1, {"a"}).tag(RowTag::Object).number(1);
  std::string bad[] = {
      good.out.substr(0, good.out.size() - 3),                              // cut inside a number
      Writer().header("rows", 2, {"a"}).tag(RowTag::Object).number(1).out,  // one item short
      Writer().header("rows", 1, {}).tag(static_cast<RowTag>(42)).out,      // no such tag
      Writer().header("rows", 1, {}).tag(RowTag::StringRef).u32(0).out,     // a string never sent
      Writer().header("rows", 1, {}).tag(RowTag::Absent).out,               // absent outside an object
      Writer().header("rows", 1, {}).number(std::numeric_limits<double>::quiet_NaN()).out,
      Writer().u32(1000).out,  // a key longer than the block
  };
  for (const std::string& b : bad) {
    try {
      decode(b);
      ADD_FAILURE() << "accepted a malformed block of " << b.size() << " bytes";
    } catch (const ptc::PtcError& e) {
      EXPECT_EQ(e.error.type, ptc::ErrorType::Parse);
    }
  }
}

TEST(RowBlocks, ARunSeesThemBesideTheJsonContext) {
  ptc::Engine engine;
  const char* program = R"({"program":{"sum":{"op":"pipe","steps":[{"op":"load","name":"rows"},)"
                        R"({"op":"filter","where":{"op":"eq","field":"c","value":"t"}},{"op":"sum","field":"v"}]},)"
                        R"("other":{"op":"load","name":"other"}}})";
  Value prepared = ptc::parseJson(engine.prepare(program, "{}"), "status");
  ASSERT_EQ(ptc::toJson(prepared.field("fields")), R"({"rows":["c","v"]})");
  Writer w;
  w.header("rows", 3, {"c", "v"});
  w.tag(RowTag::Object).tag(RowTag::NewString).text("t").number(2);
  w.tag(RowTag::Object).tag(RowTag::NewString).text("u").number(5);
  w.tag(RowTag::Object).tag(RowTag::StringRef).u32(0).number(0.5);
  int id = static_cast<int>(prepared.field("id").asInt());
  Value done = ptc::parseJson(engine.runPrepared(id, R"({"other":[1]})", "{}", 0, w.out), "status");
  EXPECT_EQ(ptc::toJson(done.field("result")), R"({"sum":2.5,"other":[1]})");
  Value broken = ptc::parseJson(engine.runPrepared(id, "{}", "{}", 0, w.out.substr(0, 20)), "status");
  EXPECT_EQ(broken.field("error").field("type").str(), "parse_error");
  EXPECT_EQ(broken.field("error").field("code").str(), "bad_row_block");
}

}  // namespace
