// Values as JSON text (core/json.h): results, statuses and messages. Kept
// apart from the parsing in json.cpp, whose nlohmann half is compiled for size:
// writing is on the path of every result.
#include <charconv>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "core/deadline.h"
#include "core/error.h"
#include "core/json.h"
#include "core/json_pointer.h"

namespace ptc {

void appendJsonString(std::string& out, std::string_view s) {
  static const char* hex = "0123456789abcdef";
  out.push_back('"');
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + start, i - start);
    start = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        out += "\\u00";
        out.push_back(hex[c >> 4]);
        out.push_back(hex[c & 15]);
    }
  }
  out.append(s.data() + start, s.size() - start);
  out.push_back('"');
}

size_t jsonStringSize(std::string_view s) {
  size_t n = s.size() + 2;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    const bool shortEscape = c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f';
    n += shortEscape ? 1 : 5;
  }
  return n;
}

void appendNumber(std::string& out, double d) {
  char buf[64];
  char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, d);
  out.append(buf, end);
}

ChargedText::ChargedText(std::string& out, std::string what)
    : out_(out), what_(std::move(what)), budget_(Budget::current()), base_(out.size()), saved_(current()) {
  current() = this;
}

ChargedText::~ChargedText() {
  current() = saved_;
  if (budget_) budget_->release(charged_);
}

ChargedText*& ChargedText::current() {
  thread_local ChargedText* text = nullptr;
  return text;
}

void ChargedText::settle(size_t more) {
  if (!budget_) return;
  uint64_t written = out_.size() - base_ + more;
  if (written <= charged_) return;
  uint64_t grow = written - charged_;
  if (!budget_->fits(grow))
    throw PtcError(ErrorType::MemoryExceeded, ErrorCode::MemoryExceeded,
                   "Memory limit of " + std::to_string(budget_->limit()) + " bytes exceeded while writing " + what_ +
                       " as JSON (" + std::to_string(written) +
                       " bytes of text so far, on top of the values the run holds): a value used in many places "
                       "is written out each time. Return less (filter, select, take or count first), or raise "
                       "maxHeapBytes");
  budget_->charge(grow);
  charged_ = written;
}

namespace {

// Writes JSON text into `out`, stopping early once it is longer than `stopAt`
// (a preview). Checks the deadline at every value; with a ChargedText in
// force, a long string is charged before it is copied, the rest every 256
// values.
class JsonWriter {
 public:
  JsonWriter(std::string& out, size_t stopAt) : out_(out), stopAt_(stopAt), charged_(ChargedText::current()) {}

  void value(const Value& v) {
    tickDeadline();
    if (charged_) charged_->wroteValue();
    switch (v.kind()) {
      case Kind::None:
      case Kind::Null: out_ += "null"; return;
      case Kind::Bool: out_ += v.asBool() ? "true" : "false"; return;
      case Kind::Int: {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, v.asInt());
        out_.append(buf, r.ptr);
        return;
      }
      case Kind::Double: appendNumber(out_, v.asDouble()); return;
      case Kind::String: string(v.str()); return;
      case Kind::Array: {
        out_.push_back('[');
        bool first = true;
        for (const Value& x : v.items()) {
          if (out_.size() > stopAt_) return;
          if (!first) out_.push_back(',');
          first = false;
          value(x);
        }
        out_.push_back(']');
        return;
      }
      case Kind::Object: {
        out_.push_back('{');
        bool first = true;
        for (MemberRef m : v.members()) {
          if (out_.size() > stopAt_) return;
          if (!first) out_.push_back(',');
          first = false;
          string(m.key.str());
          out_.push_back(':');
          value(m.value);
        }
        out_.push_back('}');
        return;
      }
    }
  }

 private:
  void string(std::string_view text) {
    // A preview needs no more. Whole bytes, not characters: the preview is then
    // longer than stopAt_, and shortJson cuts it again at a character boundary.
    text = text.substr(0, stopAt_);
    if (charged_ && text.size() >= 256) charged_->settle(text.size());
    appendJsonString(out_, text);
  }

  std::string& out_;
  const size_t stopAt_;
  ChargedText* const charged_;
};

}  // namespace

void appendJson(std::string& out, const Value& v) { JsonWriter(out, SIZE_MAX).value(v); }

std::string toJson(const Value& v) {
  std::string out;
  appendJson(out, v);
  return out;
}

std::string shortJson(const Value& v, size_t max) {
  std::string text;
  JsonWriter(text, max).value(v);  // no more of a big value than the message shows
  return text.size() > max ? std::string(utf8Prefix(text, max - 3)) + "..." : text;
}

std::string describeValue(const Value& v) { return std::string(typeName(v)) + " " + shortJson(v, 40); }

}  // namespace ptc
