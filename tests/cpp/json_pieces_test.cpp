// A JSON text read in pieces (json.h's TextSource, a resident context's load):
// every value cut anywhere by the end of a piece (inside a string, a number,
// an escape, a UTF-8 sequence, a literal) reads as from the whole text, and
// every error, limit and position is the whole text's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "api/engine.h"
#include "core/error.h"
#include "core/json.h"
#include "core/json_fast.h"
#include "core/resident.h"

namespace {

using ptc::StringSource;
using ptc::Value;

// The outcome of a parse as text: the value's JSON, or the error's type, position and message.
std::string outcome(const std::function<Value()>& parse) {
  try {
    return "ok " + ptc::toJson(parse());
  } catch (const ptc::PtcError& e) {
    return std::string("error ") + std::to_string(static_cast<int>(e.error.type)) + " at " +
           std::to_string(e.error.position) + ": " + e.error.message;
  }
}

std::string whole(const std::string& text) {
  return outcome([&] { return ptc::parseJson(text, "resident context"); });
}
std::string inPieces(const std::string& text, size_t piece) {
  return outcome([&] {
    StringSource source(text, piece);
    return ptc::parseJson(source, "resident context", {}, piece);
  });
}

const std::vector<std::string> kTexts = {
    R"({"rows":[{"id":1,"name":"caf\u00e9 \ud83d\ude00","note":"tab\tquote\" slash\\ \/ end"}]})",
    "{\"utf8\":\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80 mixed \xE4\xB8\xAD\xE6\x96\x87\",\"k\xC3\xA9y\":[\"\xF0\x9F\x98\x80\"]}",
    R"({"numbers":[0,-0,12345678901234567890,-9223372036854775808,9223372036854775807,1.5e-300,-2.25E+10,3.14159265358979,0.1]})",
    R"({"literals":[true,false,null,[],{},[[]],{"a":{}}],"spaced" :  [ 1 , 2 ] , "e" : "" })",
    R"({"long":")" + std::string(300, 'x') + R"(","after":")" + std::string(45, 'y') + "\\n" + R"("})",
    R"({"lone":"\ud800x\udc00","dup":1,"dup":2,"k":"v"})",
    "\xEF\xBB\xBF{\"bom\":1}",  // the fast path declines a byte-order mark: the whole text goes to nlohmann
};

TEST(JsonPieces, EveryCutReadsAsTheWholeText) {
  for (const std::string& text : kTexts) {
    const std::string expected = whole(text);
    for (size_t piece = 1; piece <= 24; ++piece) {
      EXPECT_EQ(inPieces(text, piece), expected) << "pieces of " << piece << " bytes: " << text;
      // Read by the fast path itself, not by the fallback that reads the text again whole.
      StringSource source(text, piece);
      Value out;
      EXPECT_EQ(ptc::parseJsonFast(source, piece, out, {}), text.rfind("\xEF\xBB\xBF", 0) != 0)
          << "pieces of " << piece << " bytes: " << text;
    }
    EXPECT_EQ(inPieces(text, 4096), expected) << text;
  }
}

// Errors anywhere (in the second piece and later, cut by a piece's end): the
// type, byte offset in the whole text and message are the whole text's.
TEST(JsonPieces, ErrorsArePlacedInTheWholeText) {
  const std::vector<std::string> bad = {
      R"({"rows":[{"id":1},{"id":2},{"id":3,"x":tru}]})",
      R"({"rows":[{"id":1},{"id":2},{"id":3,"x":"unterminated}]})",
      R"({"rows":[{"id":1},{"id":2},{"id":3,"x":1.}]})",
      R"({"rows":[{"id":1},{"id":2},{"id":3,"x":"bad \q escape"}]})",
      "{\"rows\":[{\"id\":1},{\"id\":2},{\"id\":\"\xC3\x28\"}]}",  // ill-formed UTF-8
      R"({"rows":[{"id":1},{"id":2},{"id":3}],})",
      R"({"rows":[{"id":1},{"id":2},{"id":3}]} trailing)",
      R"({"rows":[{"id":1},{"id":2},{"id":3})",
      std::string(2000, '[') + std::string(2000, ']'),  // deeper than values may nest
  };
  for (const std::string& text : bad) {
    const std::string expected = whole(text);
    ASSERT_EQ(expected.rfind("error", 0), 0u) << text;
    for (size_t piece : {1, 2, 3, 5, 8, 13, 16, 21, 34, 64})
      EXPECT_EQ(inPieces(text, piece), expected) << "pieces of " << piece << " bytes: " << text;
  }
}

std::string manyRows(int n) {
  std::string text = "{\"rows\":[";
  for (int i = 0; i < n; ++i)
    text += (i ? "," : "") + std::string("{\"id\":") + std::to_string(i) + ",\"name\":\"row number " +
            std::to_string(i) + " of the resident context, long enough not to be shared\"}";
  return text + "]}";
}

// The resident limit reached part way through the text (pieces already read
// and parsed) is the same memory_exceeded as for the whole text, and the
// engine keeps nothing of it.
TEST(JsonPieces, TheResidentLimitReachedMidLoad) {
  const std::string text = manyRows(2000);
  ptc::Engine engine;
  const std::string expected = engine.loadResident(text, 40000, 60000);
  ASSERT_NE(expected.find("memory_exceeded"), std::string::npos) << expected;
  StringSource source(text, 1000);
  EXPECT_EQ(engine.loadResident(source, 40000, 60000), expected);
  EXPECT_EQ(engine.residentBytes(), 0u);
  // Under a limit it fits, the same values and bytes as from the whole text.
  StringSource again(text, 1000);
  const std::string loaded = engine.loadResident(again, 1 << 24, 60000);
  const Value status = ptc::parseJson(loaded, "status");
  EXPECT_EQ(status.field("state").str(), "resident") << loaded;
  auto fromWhole = ptc::loadResident(text, 1 << 24, 60000);
  EXPECT_EQ(static_cast<uint64_t>(status.field("bytes").asInt()), fromWhole->budget.live());
}

// What the parser holds of a text read in pieces: the pieces it asked for are
// never bigger than one piece, whatever the text's size.
class CountingSource final : public ptc::TextSource {
 public:
  explicit CountingSource(std::string_view text) : text_(text) {}
  size_t read(char* buffer, size_t capacity) override {
    largest = std::max(largest, capacity);
    size_t n = std::min(capacity, text_.size() - at_);
    std::memcpy(buffer, text_.data() + at_, n);
    at_ += n;
    return n;
  }
  void rewind() override { at_ = 0; }
  size_t largest = 0;

 private:
  std::string_view text_;
  size_t at_ = 0;
};

TEST(JsonPieces, ReadsAPieceAtATime) {
  const std::string text = manyRows(20000);  // about 2 MB
  CountingSource source(text);
  auto resident = ptc::loadResident(source, 1 << 28, 60000, 64 * 1024);
  EXPECT_EQ(resident->context.field("rows").items().size(), 20000u);
  EXPECT_EQ(source.largest, 64u * 1024);
  CountingSource again(text);  // by the fast path, not the fallback that reads it whole
  Value out;
  EXPECT_TRUE(ptc::parseJsonFast(again, 64 * 1024, out, {}));
}

}  // namespace
