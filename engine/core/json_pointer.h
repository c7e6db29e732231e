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

// Compact JSON of a value, cut to about `max` characters, for messages.
std::string shortJson(const Value& v, size_t max = 60);
// Its type and short JSON: `string "abc"`, `list [1,2]`.
std::string describeValue(const Value& v);

}  // namespace ptc
