#include "core/json_fast.h"

#include <fast_float/fast_float.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_map>

#include "core/json.h"

namespace ptc {

namespace {

constexpr uint32_t kReplacement = 0xFFFD;

bool isDigit(char c) { return c >= '0' && c <= '9'; }

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void appendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

class FastParser {
 public:
  FastParser(std::string_view text, const std::function<void()>& progress)
      : p_(text.data()), end_(text.data() + text.size()), progress_(progress) {}

  bool parse(Value& out) {
    if (!value(out)) return false;
    skipSpace();
    return p_ == end_;  // anything after the value: decline (nlohmann words the error)
  }

 private:
  void skipSpace() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  bool value(Value& out) {
    if (progress_ && (++values_ & 4095) == 0) progress_();
    skipSpace();
    if (p_ >= end_) return false;
    switch (*p_) {
      case '{': return object(out);
      case '[': return array(out);
      case '"': return shortOrString(out);
      case 't': return literal("true", Value::boolean(true), out);
      case 'f': return literal("false", Value::boolean(false), out);
      case 'n': return literal("null", Value(), out);
      default: return number(out);
    }
  }

  bool literal(const char* word, Value v, Value& out) {
    size_t n = std::strlen(word);
    if (static_cast<size_t>(end_ - p_) < n || std::memcmp(p_, word, n) != 0) return false;
    p_ += n;
    out = std::move(v);
    return true;
  }

  // An empty object or list: its closing bracket right after the opening one.
  bool closes(char close) {
    skipSpace();
    if (p_ >= end_ || *p_ != close) return false;
    ++p_;
    return true;
  }

  // What follows an item of an object or list.
  enum class After { Comma, Close, Bad };
  After separator(char close) {
    skipSpace();
    if (p_ >= end_ || (*p_ != ',' && *p_ != close)) return After::Bad;
    return *p_++ == ',' ? After::Comma : After::Close;
  }

  // Members and items collect on one stack per parser and move into their
  // object (which holds them in its own allocation) or into a list of the
  // exact size when it closes: no regrowth per row.
  bool object(Value& out) {
    if (++depth_ > kMaxJsonNesting) return false;
    ++p_;
    const size_t base = members_.size();
    MemberIndex index;
    After after = After::Close;
    if (!closes('}')) {
      do {
        skipSpace();
        Value key, v;
        if (p_ >= end_ || *p_ != '"' || !shortOrString(key)) return false;
        skipSpace();
        if (p_ >= end_ || *p_ != ':') return false;
        ++p_;
        if (!value(v)) return false;
        addMember(base, index, std::move(key), std::move(v));
      } while ((after = separator('}')) == After::Comma);
      if (after == After::Bad) return false;
    }
    --depth_;
    out = Value::object(members_.data() + base, members_.size() - base);
    members_.resize(base);
    return true;
  }

  // Positions of an object's keys, built only once it is wide: a context keyed
  // by id can have 100,000 keys, and a scan per key would be quadratic.
  using MemberIndex = std::unordered_map<std::string_view, size_t>;
  static constexpr size_t kIndexFrom = 16;

  // As the nlohmann path: a repeated key keeps its first position, takes the last value.
  void addMember(size_t base, MemberIndex& index, Value key, Value v) {
    const size_t count = members_.size() - base;
    if (count < kIndexFrom) {
      for (size_t i = base; i < members_.size(); ++i) {
        if (members_[i].key.str() == key.str()) {
          members_[i].value = std::move(v);
          return;
        }
      }
    } else {
      if (index.empty())
        for (size_t i = base; i < members_.size(); ++i) index.emplace(members_[i].key.str(), i);
      if (auto it = index.find(key.str()); it != index.end()) {
        members_[it->second].value = std::move(v);
        return;
      }
      index.emplace(key.str(), members_.size());  // views into the key strings, which the members keep alive
    }
    members_.push_back(Member{std::move(key), std::move(v)});
  }

  bool array(Value& out) {
    if (++depth_ > kMaxJsonNesting) return false;
    ++p_;
    const size_t base = items_.size();
    After after = After::Close;
    if (!closes(']')) {
      do {
        Value v;
        if (!value(v)) return false;
        items_.push_back(std::move(v));
      } while ((after = separator(']')) == After::Comma);
      if (after == After::Bad) return false;
    }
    --depth_;
    out = Value::array(Array(std::make_move_iterator(items_.begin() + static_cast<ptrdiff_t>(base)),
                             std::make_move_iterator(items_.end())));
    items_.resize(base);
    return true;
  }

  // Keys, and short values such as categories or dates, repeat across rows and
  // across runs: a short string without escapes is looked up by its bytes in a
  // small direct-mapped cache that outlives the parse, so rows share one string
  // and a rerun over similar data builds none. (Values never change once
  // built, so sharing is invisible.) Cached strings belong to no run's budget:
  // at most kShortSlots of them, each under kShortString bytes.
  bool shortOrString(Value& out) {
    const char* start = p_ + 1;
    const char* limit = end_ - start > kShortString ? start + kShortString : end_;
    const char* q = start;
    uint32_t hash = 2166136261u;  // FNV-1a
    while (q < limit && *q != '"' && *q != '\\' && static_cast<unsigned char>(*q) >= 0x20 &&
           static_cast<unsigned char>(*q) < 0x80) {
      hash = (hash ^ static_cast<unsigned char>(*q)) * 16777619u;
      ++q;
    }
    if (q < end_ && *q == '"') {
      std::string_view text(start, static_cast<size_t>(q - start));
      Value& slot = shortStrings()[hash & (kShortSlots - 1)];
      if (!slot.isString() || slot.str() != text) {
        BudgetScope shared(nullptr);
        slot = Value::string(std::string(text));
      }
      out = slot;
      p_ = q + 1;
      return true;
    }
    std::string s;
    if (!string(s)) return false;
    out = Value::string(std::move(s));
    return true;
  }

  bool string(std::string& out) {
    ++p_;  // the opening quote
    const char* run = p_;
    while (p_ < end_) {
      unsigned char c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        out.append(run, static_cast<size_t>(p_ - run));
        ++p_;
        return true;
      }
      if (c < 0x20) return false;  // control characters must be escaped
      if (c == '\\') {
        out.append(run, static_cast<size_t>(p_ - run));
        if (!escape(out)) return false;
        run = p_;
        continue;
      }
      if (c < 0x80) {
        ++p_;
        continue;
      }
      size_t n = utf8Sequence(reinterpret_cast<const unsigned char*>(p_), reinterpret_cast<const unsigned char*>(end_));
      if (n == 0) return false;
      p_ += n;
    }
    return false;  // unterminated
  }

  bool escape(std::string& out) {
    if (end_ - p_ < 2) return false;
    char c = p_[1];
    p_ += 2;
    switch (c) {
      case '"': out.push_back('"'); return true;
      case '\\': out.push_back('\\'); return true;
      case '/': out.push_back('/'); return true;
      case 'b': out.push_back('\b'); return true;
      case 'f': out.push_back('\f'); return true;
      case 'n': out.push_back('\n'); return true;
      case 'r': out.push_back('\r'); return true;
      case 't': out.push_back('\t'); return true;
      case 'u': break;
      default: return false;
    }
    uint32_t cp;
    if (!hex4(cp)) return false;
    // JSON.stringify writes a lone surrogate (a JS string cut inside a pair) as
    // an escape; it reads as U+FFFD, as TextEncoder turns it, rather than
    // failing the whole input. (The one input nlohmann refuses and this takes.)
    if (cp >= 0xDC00 && cp <= 0xDFFF) cp = kReplacement;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      uint32_t low = 0;
      const char* afterHigh = p_;
      if (end_ - p_ >= 6 && p_[0] == '\\' && p_[1] == 'u' && (p_ += 2, hex4(low)) && low >= 0xDC00 && low <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      } else {
        p_ = afterHigh;  // whatever follows is read on its own
        cp = kReplacement;
      }
    }
    appendUtf8(out, cp);
    return true;
  }

  bool hex4(uint32_t& cp) {
    if (end_ - p_ < 4) return false;
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      int h = hexValue(p_[i]);
      if (h < 0) return false;
      cp = cp * 16 + static_cast<uint32_t>(h);
    }
    p_ += 4;
    return true;
  }

  // The JSON number grammar; integers that fit int64 stay integers, others
  // become the nearest double (as the nlohmann path does).
  bool number(Value& out) {
    const char* start = p_;
    if (p_ < end_ && *p_ == '-') ++p_;
    if (p_ >= end_) return false;
    if (*p_ == '0') {
      ++p_;
    } else if (*p_ >= '1' && *p_ <= '9') {
      while (p_ < end_ && isDigit(*p_)) ++p_;
    } else {
      return false;
    }
    bool isFloat = false;
    if (p_ < end_ && *p_ == '.') {
      isFloat = true;
      ++p_;
      if (p_ >= end_ || !isDigit(*p_)) return false;
      while (p_ < end_ && isDigit(*p_)) ++p_;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      isFloat = true;
      ++p_;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ >= end_ || !isDigit(*p_)) return false;
      while (p_ < end_ && isDigit(*p_)) ++p_;
    }
    if (!isFloat) {
      int64_t i = 0;
      if (std::from_chars(start, p_, i).ec == std::errc()) {  // exact; overflow falls through to double
        out = Value::integer(i);
        return true;
      }
    }
    double d;
    auto r = fast_float::from_chars(start, p_, d);
    if (r.ptr != p_ || !std::isfinite(d)) return false;  // 1e309: nlohmann reports a number overflow
    out = Value::number(d);
    return true;
  }

  const char* p_;
  const char* end_;
  const std::function<void()>& progress_;
  uint32_t values_ = 0;
  int depth_ = 0;
  std::vector<Member> members_;  // members of the objects being parsed
  Array items_;                  // items of the lists being parsed
  static constexpr ptrdiff_t kShortString = 40;
  static constexpr size_t kShortSlots = 1024;  // a power of two
  static Array& shortStrings() {
    thread_local Array cache(kShortSlots);
    return cache;
  }
};

}  // namespace

// Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlongs, no
// surrogates, nothing above U+10FFFF), or 0.
size_t utf8Sequence(const unsigned char* p, const unsigned char* end) {
  unsigned char c = p[0];
  auto cont = [&](size_t i) { return p + i < end && (p[i] & 0xC0) == 0x80; };
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c == 0xE0) return p + 1 < end && p[1] >= 0xA0 && p[1] <= 0xBF && cont(2) ? 3 : 0;
  if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (c == 0xED) return p + 1 < end && p[1] >= 0x80 && p[1] <= 0x9F && cont(2) ? 3 : 0;
  if (c == 0xF0) return p + 1 < end && p[1] >= 0x90 && p[1] <= 0xBF && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c == 0xF4) return p + 1 < end && p[1] >= 0x80 && p[1] <= 0x8F && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

bool parseJsonFast(std::string_view text, Value& out, const std::function<void()>& progress) {
  return FastParser(text, progress).parse(out);
}

bool readDecimal(std::string_view text, double& out) {
  auto r = fast_float::from_chars(text.data(), text.data() + text.size(), out);
  return r.ec == std::errc() && r.ptr == text.data() + text.size() && std::isfinite(out);
}

}  // namespace ptc
