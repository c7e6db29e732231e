#include "core/json_syntax.h"

#include <algorithm>
#include <vector>

#include "core/json_fast.h"
#include "core/json_pointer.h"

namespace ptc {

namespace {

enum class Expect { Key, Colon, Value, CommaOrEnd };

// An object or list the scan is inside.
struct Frame {
  bool object = true;
  size_t start = 0;     // the byte of its '{' or '['
  std::string pointer;  // its JSON Pointer in the document
  Expect expect = Expect::Key;
  size_t items = 0;  // members or items read so far
  std::string key;   // the member being read, or the last one read
  bool afterComma = false;
  size_t commaAt = 0;
};

struct Scan {
  std::vector<Frame> open;  // innermost last
  bool rootDone = false;    // a whole top-level value was read
  size_t rootEnd = 0;
};

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

size_t skipSpace(std::string_view text, size_t i) {
  while (i < text.size() && isSpace(text[i])) ++i;
  return i;
}

// `i` at an opening quote: the byte after the closing one.
size_t stringEnd(std::string_view text, size_t i) {
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\') ++i;
    else if (text[i] == '"') return i + 1;
  }
  return text.size();
}

// A literal or a number: up to the next space or structural character.
size_t scalarEnd(std::string_view text, size_t i) {
  while (i < text.size() && !isSpace(text[i]) && std::string_view("{}[],:\"").find(text[i]) == std::string_view::npos)
    ++i;
  return i;
}

std::string keyText(std::string_view token) {
  Value v;
  if (parseJsonFast(token, v, {}) && v.isString()) return v.str();
  return std::string(token.substr(1, token.size() >= 2 ? token.size() - 2 : 0));
}

// The pointer of a value starting now, in the innermost open container.
std::string childPointer(const Scan& s) {
  if (s.open.empty()) return "";
  const Frame& f = s.open.back();
  return f.object ? childPath(f.pointer, f.key) : childPath(f.pointer, f.items);
}

void valueDone(Scan& s, size_t end) {
  if (s.open.empty()) {
    s.rootDone = true;
    s.rootEnd = end;
    return;
  }
  Frame& f = s.open.back();
  ++f.items;
  f.expect = Expect::CommaOrEnd;
  f.afterComma = false;
}

// Replays the tokens before `at` (which the parser accepted, so they are a
// well-formed prefix) keeping the stack of open containers.
Scan scan(std::string_view text, size_t at) {
  Scan s;
  for (size_t i = skipSpace(text, 0); i < at && i < text.size(); i = skipSpace(text, i)) {
    char c = text[i];
    if (c == '{' || c == '[') {
      Frame f;
      f.object = c == '{';
      f.start = i;
      f.pointer = childPointer(s);
      f.expect = f.object ? Expect::Key : Expect::Value;
      s.open.push_back(std::move(f));
      ++i;
    } else if (c == '}' || c == ']') {
      if (!s.open.empty()) s.open.pop_back();
      valueDone(s, ++i);
    } else if (c == ',' || c == ':') {
      if (!s.open.empty()) {
        Frame& f = s.open.back();
        f.expect = c == ':' || !f.object ? Expect::Value : Expect::Key;
        if (c == ',') {
          f.afterComma = true;
          f.commaAt = i;
        }
      }
      ++i;
    } else {
      size_t end = c == '"' ? stringEnd(text, i) : std::max(scalarEnd(text, i), i + 1);
      if (!s.open.empty() && s.open.back().object && s.open.back().expect == Expect::Key) {
        Frame& f = s.open.back();
        f.key = keyText(text.substr(i, end - i));
        f.expect = Expect::Colon;
        f.afterComma = false;
      } else {
        valueDone(s, end);
      }
      i = end;
    }
  }
  return s;
}

std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

std::string kind(const Frame& f) { return f.object ? "object" : "list"; }
std::string pointerText(const Frame& f) { return f.pointer.empty() ? "the top level" : f.pointer; }

// "object opened at byte 12 (/program)"
std::string describe(const Frame& f, size_t base) {
  return kind(f) + " opened at byte " + std::to_string(base + f.start) + " (" + pointerText(f) + ")";
}

// What the innermost container's last complete entry is: `member "op"`, `item 2`.
std::string lastEntry(const Frame& f) {
  return f.object ? "member " + quoted(f.key) : "item " + std::to_string(f.items - 1);
}

// What the innermost container lacks before it may close: "its member \"k\" has no
// value"; "" when nothing.
std::string missingPart(const Frame& f) {
  if (f.afterComma) return "it ends with a comma";
  if (f.object && f.expect == Expect::Colon) return "its key " + quoted(f.key) + " has no ':' and value";
  if (f.object && f.expect == Expect::Value) return "its member " + quoted(f.key) + " has no value";
  return "";
}

std::string atEnd(const Scan& s, size_t base) {
  if (s.open.empty()) return "";
  const Frame& f = s.open.back();
  std::string closers;
  for (auto it = s.open.rbegin(); it != s.open.rend(); ++it) closers.push_back(it->object ? '}' : ']');
  std::string msg = "the " + describe(f, base) + " is not closed";
  std::string missing = missingPart(f);
  if (!missing.empty()) return msg + " and " + missing;
  if (s.open.size() == 1) return msg + ": add " + quoted(closers) + " at the end";
  std::string around = s.open.size() == 2 ? "nor is the one" : "nor are the " + std::to_string(s.open.size() - 1);
  return msg + ", " + around + " around it: add " + quoted(closers) + " at the end to close them all";
}

std::string atCloser(const Scan& s, char c, size_t base) {
  std::string bracket = "'" + std::string(1, c) + "'";
  if (s.open.empty())
    return s.rootDone ? bracket + " closes nothing: the JSON value ended at byte " +
                            std::to_string(base + s.rootEnd - 1) + "; remove it"
                      : "";
  const Frame& f = s.open.back();
  char closer = f.object ? '}' : ']';
  if (c != closer)
    return bracket + " cannot close the " + describe(f, base) + ": close it with '" + std::string(1, closer) + "'";
  if (f.afterComma)
    return "trailing comma after " + lastEntry(f) + " of the " + describe(f, base) + ": remove the ',' at byte " +
           std::to_string(base + f.commaAt);
  std::string missing = missingPart(f);
  return missing.empty() ? "" : bracket + " closes the " + describe(f, base) + ", but " + missing;
}

bool startsValue(char c) {
  return c == '"' || c == '{' || c == '[' || c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n';
}

std::string atValue(const Scan& s, size_t at, size_t base) {
  if (s.open.empty())
    return s.rootDone ? "more text after the JSON value that ended at byte " + std::to_string(base + s.rootEnd - 1) +
                            ": remove it, or put the values in a list"
                      : "";
  const Frame& f = s.open.back();
  if (f.expect == Expect::CommaOrEnd)
    return "expected ',' or '" + std::string(f.object ? "}" : "]") + "' after " + lastEntry(f) + " of the " +
           describe(f, base) + ": a comma is missing before byte " + std::to_string(base + at);
  if (f.object && f.expect == Expect::Colon)
    return "expected ':' after the key " + quoted(f.key) + " of the " + describe(f, base);
  return "";
}

// The explanation of the error at `at`, or "" when the parser's reason says it best.
std::string explain(const Scan& s, std::string_view text, size_t at, size_t base) {
  size_t i = skipSpace(text, at);
  if (i >= text.size()) return atEnd(s, base);
  char c = text[i];
  if (c == '}' || c == ']') return atCloser(s, c, base);
  if (startsValue(c)) return atValue(s, i, base);
  if (c == ',' && s.open.empty()) return "',' outside any object or list: remove it";
  return "";
}

}  // namespace

std::string explainJsonSyntaxError(std::string_view text, size_t at, size_t base, std::string_view parserReason) {
  Scan s = scan(text, at);
  std::string explanation = explain(s, text, at, base);
  if (!explanation.empty()) return explanation;
  if (s.open.empty()) return std::string(parserReason);
  const Frame& f = s.open.back();
  return std::string(parserReason) + " (in the " + kind(f) + " at " + pointerText(f) + ", opened at byte " +
         std::to_string(base + f.start) + ")";
}

}  // namespace ptc
