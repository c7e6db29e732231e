// Texts quoted in messages are cut to a length in bytes; the cut never falls
// inside a UTF-8 character: a message that ended in a lone byte was invalid
// UTF-8, which the package showed as U+FFFD.
#include <gtest/gtest.h>

#include <string>

#include "core/json_pointer.h"
#include "core/value.h"

namespace {

// Whether `s` is well-formed UTF-8 (each lead byte followed by its continuation bytes).
bool wellFormedUtf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += n;
  }
  return true;
}

// A 2-, 3- and 4-byte character at every position across the cut of a
// 60-character rendering (the quote, then the text: the cut keeps 57 bytes).
TEST(MessageText, ShortJsonCutsAtACharacterBoundary) {
  for (const std::string ch : {"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80"}) {  // é € 😀
    for (size_t pad = 50; pad < 60; ++pad) {
      const std::string text = std::string(pad, 'a') + ch + std::string(20, 'b');
      const std::string shown = ptc::shortJson(ptc::Value::string(text), 60);
      SCOPED_TRACE("a " + std::to_string(ch.size()) + "-byte character after " + std::to_string(pad) + " bytes");
      EXPECT_TRUE(wellFormedUtf8(shown)) << shown;
      EXPECT_LE(shown.size(), 60u);
      ASSERT_GE(shown.size(), 3u);
      EXPECT_EQ(shown.substr(shown.size() - 3), "...");
      // Whole characters only: the text shown is a prefix of the quoted text.
      const std::string kept = shown.substr(0, shown.size() - 3);
      EXPECT_EQ(("\"" + text).compare(0, kept.size(), kept), 0) << shown;
      // And no shorter than it must be: at most the character that did not fit is left out.
      EXPECT_GE(kept.size() + ch.size(), 57u + 1) << shown;
    }
  }
}

TEST(MessageText, ACutInsideAListOrObjectKeepsWholeCharacters) {
  const std::string text = std::string(30, 'a') + "\xF0\x9F\x98\x80" + std::string(40, 'b');
  for (size_t max : {20u, 33u, 34u, 35u, 36u, 40u}) {
    const std::string inList =
        ptc::shortJson(ptc::Value::array({ptc::Value::string(text), ptc::Value::string(text)}), max);
    const std::string inObject =
        ptc::shortJson(ptc::Value::object({{ptc::Value::string(text), ptc::Value::integer(1)}}), max);
    EXPECT_TRUE(wellFormedUtf8(inList)) << max << ": " << inList;
    EXPECT_TRUE(wellFormedUtf8(inObject)) << max << ": " << inObject;
  }
}

TEST(MessageText, AShortTextIsShownWhole) {
  EXPECT_EQ(ptc::shortJson(ptc::Value::string("caf\xC3\xA9"), 60), "\"caf\xC3\xA9\"");
  EXPECT_EQ(ptc::shortJson(ptc::Value::string(std::string(58, 'a')), 60), "\"" + std::string(58, 'a') + "\"");
}

}  // namespace
