// JSON text <-> Value. Parsing streams nlohmann/json's SAX events straight into
// Values (no intermediate DOM), interning object keys so a million rows share
// their key strings. This is the only translation unit that includes nlohmann.
#pragma once

#include <cstdint>
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

// A JSON text read in pieces, so that a big one (a resident context) never
// needs to be in the engine's memory whole: what crosses into it is a piece at
// a time, and memory's high-water mark is the values plus one piece.
class TextSource {
 public:
  virtual ~TextSource() = default;
  // Writes the next bytes of the text into `buffer`, at most `capacity`, and
  // says how many; 0 once the text has ended.
  virtual size_t read(char* buffer, size_t capacity) = 0;
  // The next read starts again from the text's first byte.
  virtual void rewind() = 0;
};

// A text in memory as a TextSource (tests, and the whole-text entry points).
class StringSource final : public TextSource {
 public:
  explicit StringSource(std::string_view text, size_t piece = SIZE_MAX) : text_(text), piece_(piece) {}
  size_t read(char* buffer, size_t capacity) override;
  void rewind() override { at_ = 0; }

 private:
  std::string_view text_;
  size_t piece_;  // the most one read gives (tests cut the text into small pieces)
  size_t at_ = 0;
};

// What a TextSource is read by. The window holding a piece stays in the wasm
// memory's high-water mark (its allocator never gives memory back): 256 KiB is
// 0.05x less of a 50,000-row context's growth than 1 MiB, for 4x as many
// crossings (a few microseconds each).
constexpr size_t kTextPieceBytes = size_t{256} << 10;

// parseJson of the text `source` gives, read a piece of `pieceBytes` at a time.
// Errors are those parseJson gives for the whole text, positions included: on
// a text the fast path declines (an error, or the rare one it does not take
// on), the text is read again whole and parsed as parseJson does.
Value parseJson(TextSource& source, std::string_view what, const std::function<void()>& progress = {},
                size_t pieceBytes = kTextPieceBytes);

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
