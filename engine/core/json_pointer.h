// JSON Pointers (RFC 6901) for error paths, and short renderings of values for
// messages. Shared by both dialects' compilers and evaluators.
#pragma once

#include <string>
#include <string_view>

#include "core/value.h"

namespace ptc {

// "a/b~c" -> "a~1b~0c"
inline std::string pointerToken(std::string_view token) {
  std::string out;
  for (char c : token) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out.push_back(c);
  }
  return out;
}

inline std::string childPath(const std::string& path, std::string_view key) { return path + "/" + pointerToken(key); }
inline std::string childPath(const std::string& path, size_t index) { return path + "/" + std::to_string(index); }

// The longest start of `text` at most `maxBytes` long that ends between two
// UTF-8 characters: a message that cuts a text never splits a character
// (a lone lead byte is not UTF-8; the package would show it as U+FFFD).
inline std::string_view utf8Prefix(std::string_view text, size_t maxBytes) {
  if (text.size() <= maxBytes) return text;
  size_t end = maxBytes;
  // The first byte left out continues a character (10xxxxxx): leave out that
  // character's earlier bytes too (at most three: a character is four bytes).
  for (int k = 0; k < 3 && end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80; ++k) --end;
  return text.substr(0, end);
}

// Compact JSON of a value, cut to about `max` bytes (whole characters), for messages.
std::string shortJson(const Value& v, size_t max = 60);
// Its type and short JSON: `string "abc"`, `list [1,2]`.
std::string describeValue(const Value& v);

}  // namespace ptc
