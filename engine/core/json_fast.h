// A fast path for parsing JSON data (context, tool results) straight into
// Values. It handles valid JSON only: whenever it declines (invalid text, or
// anything it does not take on, e.g. a byte-order mark), the caller parses the
// text with nlohmann/json, which also words every error and its position. So
// nlohmann stays the reference; this only makes the common case fast (the bench
// put three quarters of a 100k-row run in nlohmann's character-at-a-time lexer).
// A differential fuzz test (tests/cpp/json_test.cpp) holds the two together.
#pragma once

#include <functional>
#include <string_view>

#include "core/value.h"

namespace ptc {

class TextSource;  // json.h

// Parses `text` into `out`; false when it declines (then `out` is unspecified).
// `progress` is called every 4096 values; PtcErrors (memory, time) propagate.
bool parseJsonFast(std::string_view text, Value& out, const std::function<void()>& progress);
// The same reading the text from `source` in pieces of at most `chunkBytes`
// (a value may be cut anywhere: inside a string, a number, an escape, a UTF-8
// sequence). What it holds of the text is one piece and the token it cuts.
bool parseJsonFast(TextSource& source, size_t chunkBytes, Value& out, const std::function<void()>& progress);

// The double a decimal text ([-]digits[.digits][e[+-]digits], also ".5" and
// "5.") holds, exactly rounded as JSON numbers are read; false when the text is
// not all such a number or its value is not finite. The one decimal reader of
// the engine (libc's strtod would link a software long double).
bool readDecimal(std::string_view text, double& out);

// Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlongs, no
// surrogates, nothing above U+10FFFF), or 0; p < end.
size_t utf8Sequence(const unsigned char* p, const unsigned char* end);

}  // namespace ptc
