// JSON text <-> Value. Parsing streams nlohmann/json's SAX events straight into
// Values (no intermediate DOM), interning object keys so a million rows share
// their key strings. This is the only translation unit that includes nlohmann.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/value.h"

namespace ptc {

constexpr int kMaxJsonNesting = kMaxNesting;  // JSON deeper than values may nest is refused

// Parses one JSON document. Throws PtcError(parse_error) with the byte offset of
// the first problem. `what` names the text in messages ("program", "context", ...).
// `progress`, when given, is called every few thousand values (a run checks its
// deadline there, so loading a huge input cannot overrun the time limit).
Value parseJson(std::string_view text, std::string_view what, const std::function<void()>& progress = {});
// The same through nlohmann/json alone (parseJson tries a fast path first and
// falls back to this); the differential test holds the two together.
Value parseJsonReference(std::string_view text, std::string_view what, const std::function<void()>& progress = {});

// Parses JSON values written one after another, separated by optional
// whitespace (the step-function file format). Positions in errors are offsets
// into the whole text.
std::vector<Value> parseJsonSequence(std::string_view text, std::string_view what,
                                     const std::function<void()>& progress = {});

// The JSON text a run writes (its result, memory, trace, a tool's args) is a
// copy, and values a run holds once can be huge as text: a list holding one
// 10 KB string 10,000 times is 160 KB of values and 100 MB of text. While a
// ChargedText lives, what is written into its string counts toward the
// current budget (refused before it is written once past maxHeapBytes); the
// charge ends with it, when the text goes to the host. Writing JSON checks
// the deadline in force (deadline.h) at every value, charged or not.
class ChargedText {
 public:
  // `what` names the text in the error: "the result", "the args of tool 'x'".
  ChargedText(std::string& out, std::string what);
  ~ChargedText();
  ChargedText(const ChargedText&) = delete;
  ChargedText& operator=(const ChargedText&) = delete;
  // Charges what was written since the last call, plus `more` bytes about to be.
  void settle(size_t more = 0);
  // Bytes just written that do not count: bookkeeping whose size is bounded
  // otherwise (a trace entry's path and duration, under the step limit).
  void discount(size_t bytes) { base_ += bytes; }
  void wroteValue() {
    if ((++values_ & 255) == 0) settle();
  }
  static ChargedText*& current();

 private:
  std::string& out_;
  std::string what_;
  Budget* budget_;
  size_t base_;
  uint64_t charged_ = 0;
  uint32_t values_ = 0;
  ChargedText* saved_;
};

// Compact JSON text (no spaces). Integers print without a fraction; floats print
// as the shortest text that reads back as the same double.
std::string toJson(const Value& v);
void appendJson(std::string& out, const Value& v);
void appendJsonString(std::string& out, std::string_view s);
// The bytes appendJsonString writes for `s` (its quotes and escapes included).
size_t jsonStringSize(std::string_view s);
// Shortest round-trip decimal of a double ("2.5", "3.0", "1e+100").
void appendNumber(std::string& out, double d);

}  // namespace ptc
