#include "core/json.h"

#include <fast_float/fast_float.h>
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>

#include <cstring>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <vector>

#include "core/deadline.h"
#include "core/error.h"
#include "core/json_fast.h"
#include "core/json_pointer.h"
#include "core/json_syntax.h"

// nlohmann converts float tokens with std::strtod, which Emscripten's libc
// computes in software-emulated 128-bit long double: a third of the time of
// loading 100k rows. fast_float (Eisel-Lemire, exactly rounded) replaces it for
// the one lexer this file uses. The token is a validated JSON number.
NLOHMANN_JSON_NAMESPACE_BEGIN
namespace detail {
template <>
__attribute__((nonnull(2))) inline void lexer<nlohmann::json, iterator_input_adapter<const char*>>::strtof(
    double& f, const char* str, char** endptr) noexcept {
  auto r = fast_float::from_chars(str, str + std::strlen(str), f);
  *endptr = const_cast<char*>(r.ptr);
}
}  // namespace detail
NLOHMANN_JSON_NAMESPACE_END

namespace ptc {

namespace {

using nlohmann::json;

// Builds Values from SAX events. Containers under construction sit on a stack,
// so nesting depth costs no native stack (and is capped at kMaxJsonNesting).
class ValueBuilder : public nlohmann::json_sax<json> {
 public:
  ValueBuilder() = default;
  explicit ValueBuilder(const std::function<void()>& progress) : progress_(progress) {}

  bool null() override { return add(Value()); }
  bool boolean(bool b) override { return add(Value::boolean(b)); }
  bool number_integer(number_integer_t i) override { return add(Value::integer(i)); }
  bool number_unsigned(number_unsigned_t u) override {
    if (u <= static_cast<number_unsigned_t>(INT64_MAX)) return add(Value::integer(static_cast<int64_t>(u)));
    return add(Value::number(static_cast<double>(u)));
  }
  bool number_float(number_float_t d, const string_t&) override { return add(Value::number(d)); }
  bool string(string_t& s) override { return add(Value::string(std::move(s))); }
  bool binary(binary_t&) override { return false; }
  bool start_object(std::size_t) override { return open(true); }
  bool key(string_t& k) override {
    frames_.back().key = internKey(k);
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    errorPosition_ = position;
    errorMessage_ = ex.what();
    return false;
  }

  bool tooDeep() const { return tooDeep_; }
  long long errorPosition() const { return static_cast<long long>(errorPosition_); }
  const std::string& errorMessage() const { return errorMessage_; }
  std::vector<Value>& roots() { return roots_; }

 private:
  struct Frame {
    bool isObject;
    ListBuilder items;  // both charged as they grow, when the text is parsed for a run
    ObjectBuilder members;
    Value key;
  };

  bool add(Value v) {
    if (progress_ && (++values_ & 4095) == 0) progress_();
    if (frames_.empty()) {
      roots_.push_back(std::move(v));
    } else if (frames_.back().isObject) {
      Frame& f = frames_.back();
      f.members.put(std::move(f.key), std::move(v));  // a repeated key keeps its first position, takes the last value
    } else {
      frames_.back().items.push_back(std::move(v));
    }
    return true;
  }
  bool open(bool isObject) {
    if (frames_.size() >= static_cast<size_t>(kMaxJsonNesting)) {
      tooDeep_ = true;
      return false;
    }
    frames_.push_back(Frame{isObject, {}, {}, {}});
    return true;
  }
  bool close() {
    Frame f = std::move(frames_.back());
    frames_.pop_back();
    return add(f.isObject ? f.members.build() : f.items.build());
  }
  Value internKey(string_t& k) {
    auto it = keys_.find(k);
    if (it != keys_.end()) return it->second;
    Value v = Value::string(k);
    if (keys_.size() < 4096) keys_.emplace(k, v);
    return v;
  }

  std::function<void()> progress_;
  uint32_t values_ = 0;
  std::vector<Frame> frames_;
  std::vector<Value> roots_;
  std::unordered_map<std::string, Value> keys_;
  bool tooDeep_ = false;
  std::size_t errorPosition_ = 0;
  std::string errorMessage_;
};

// nlohmann reports "[json.exception.parse_error.101] parse error at line 1,
// column 7: syntax error while parsing value - unexpected '}'; expected ...".
// Keep the part after the last " - " (or after "parse error"), which is the reason.
// The last " - " before the bytes quoted after "last read:", which may hold one.
std::string reasonOf(const std::string& what) {
  size_t dash = what.rfind(" - ", what.find("; last read: "));
  if (dash != std::string::npos) return what.substr(dash + 3);
  size_t colon = what.find(": ");
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

// nlohmann quotes the bytes it read last ("last read: '...'"), ill-formed
// UTF-8 and all, and a message is text in a JSON status: each byte that starts
// no well-formed sequence shows as \xNN (a byte a model can name and remove).
std::string wellFormed(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    size_t n = *p < 0x80 ? 1 : utf8Sequence(p, end);
    if (n == 0) {
      out += "\\x";
      out.push_back(hex[*p >> 4]);
      out.push_back(hex[*p & 15]);
      ++p;
      continue;
    }
    out.append(reinterpret_cast<const char*>(p), n);
    p += n;
  }
  return out;
}

// The start of the JSON token that contains byte `at` (nlohmann reports where it
// noticed the problem, often a token's last byte; an editor or a model wants the
// token's first). Re-lexes from the beginning; only runs on errors.
size_t tokenStart(std::string_view text, size_t at) {
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
      continue;
    }
    size_t start = i;
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"' && static_cast<unsigned char>(text[i]) >= 0x20; ++i)
        if (text[i] == '\\') ++i;
      ++i;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.') {
      while (i < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '-' || text[i] == '+' || text[i] == '.'))
        ++i;
    } else {
      ++i;
    }
    if (at < i) return at < start ? at : start;
  }
  return text.size();
}

[[noreturn]] void throwParseError(std::string_view what, const ValueBuilder& b, std::string_view text,
                                  size_t offset = 0) {
  Error e;
  e.type = ErrorType::Parse;
  e.code = ErrorCode::JsonSyntax;
  if (b.tooDeep()) {
    e.code = ErrorCode::JsonTooDeep;
    e.message = "JSON nested deeper than " + std::to_string(kMaxJsonNesting) + " levels in " + std::string(what);
    e.position = -1;
    throw PtcError(e);
  }
  // nlohmann counts the offending character as read; the byte offset is one less
  // (at end of input it is the input's length).
  size_t noticed = offset + (b.errorPosition() > 0 ? static_cast<size_t>(b.errorPosition() - 1) : 0);
  noticed = std::min(noticed, text.size());
  // A bad literal or number is noticed at the byte after it ("tru}" at '}'):
  // step back into the token itself.
  const std::string& reason = b.errorMessage();
  bool lexical =
      reason.find("invalid literal") != std::string::npos || reason.find("invalid number") != std::string::npos;
  auto tokenChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.';
  };
  if (lexical && noticed > 0 && tokenChar(text[noticed - 1]) && (noticed == text.size() || !tokenChar(text[noticed])))
    --noticed;
  size_t pos = tokenStart(text, noticed);
  e.position = static_cast<long long>(pos);
  // Name the object or list at fault (json_syntax.h): one edit should repair it.
  std::string_view document = text.substr(offset);
  size_t at = pos > offset ? pos - offset : 0;
  std::string explanation = explainJsonSyntaxError(document, at, offset, reasonOf(reason));
  e.message =
      "Invalid JSON in " + std::string(what) + " at byte " + std::to_string(pos) + ": " + wellFormed(explanation);
  throw PtcError(e);
}

// Where the JSON value starting at `i` ends: brackets are counted (strings
// skipped), a scalar runs to the next space or structural character. Only
// delimits; the parser then judges the slice.
size_t valueEnd(std::string_view text, size_t i) {
  auto skipString = [&](size_t j) {
    for (++j; j < text.size(); ++j) {
      if (text[j] == '\\') ++j;
      else if (text[j] == '"') return j + 1;
    }
    return text.size();
  };
  char c = text[i];
  if (c == '"') return skipString(i);
  if (c == '{' || c == '[') {
    int depth = 0;
    for (size_t j = i; j < text.size();) {
      char ch = text[j];
      if (ch == '"') {
        j = skipString(j);
        continue;
      }
      if (ch == '{' || ch == '[') ++depth;
      if ((ch == '}' || ch == ']') && --depth == 0) return j + 1;
      ++j;
    }
    return text.size();
  }
  size_t j = i;
  while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j])) &&
         std::string_view("{}[]\",:").find(text[j]) == std::string_view::npos)
    ++j;
  return std::max(j, i + 1);
}

}  // namespace

std::vector<Value> parseJsonSequence(std::string_view text, std::string_view what,
                                     const std::function<void()>& progress) {
  std::vector<Value> values;
  size_t i = 0;
  while (true) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size()) break;
    size_t end = valueEnd(text, i);
    std::string_view slice = text.substr(i, end - i);
    // The fast path first, as for data: it also reads an escaped lone surrogate
    // as U+FFFD, which nlohmann refuses.
    Value value;
    if (!parseJsonFast(slice, value, {})) {
      ValueBuilder builder(progress);
      if (!json::sax_parse(slice.begin(), slice.end(), &builder, nlohmann::detail::input_format_t::json, true))
        throwParseError(what, builder, text, i);
      value = std::move(builder.roots().front());
    }
    values.push_back(std::move(value));
    i = end;
  }
  return values;
}

Value parseJson(std::string_view text, std::string_view what, const std::function<void()>& progress) {
  Value fast;
  if (parseJsonFast(text, fast, progress)) return fast;
  // Declined: nlohmann parses it (the rare text the fast path does not take on)
  // or words the error with its position.
  return parseJsonReference(text, what, progress);
}

size_t StringSource::read(char* buffer, size_t capacity) {
  const size_t n = std::min({capacity, piece_, text_.size() - at_});
  std::memcpy(buffer, text_.data() + at_, n);
  at_ += n;
  return n;
}

Value parseJson(TextSource& source, std::string_view what, const std::function<void()>& progress, size_t pieceBytes) {
  {
    Value fast;
    if (parseJsonFast(source, pieceBytes, fast, progress)) return fast;
  }  // what the fast path built is let go before the text is read whole
  std::string whole;
  source.rewind();
  std::vector<char> piece(pieceBytes);
  for (size_t n; (n = source.read(piece.data(), piece.size())) > 0;) whole.append(piece.data(), n);
  return parseJson(std::string_view(whole), what, progress);
}

Value parseJsonReference(std::string_view text, std::string_view what, const std::function<void()>& progress) {
  ValueBuilder builder(progress);
  bool ok = json::sax_parse(text.begin(), text.end(), &builder, nlohmann::detail::input_format_t::json, true);
  if (!ok) throwParseError(what, builder, text);
  return std::move(builder.roots().front());
}

}  // namespace ptc
