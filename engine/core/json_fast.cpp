#include "core/json_fast.h"

#include <fast_float/fast_float.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

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
  // Reads the text from `source` a piece of at most `chunkBytes` at a time
  // into a window that holds the piece and the unfinished token before it.
  FastParser(TextSource& source, size_t chunkBytes, const std::function<void()>& progress)
      : p_(nullptr), end_(nullptr), progress_(progress), source_(&source), chunk_(std::max<size_t>(chunkBytes, 16)) {}

  bool parse(Value& out) {
    if (!value(out)) return false;
    skipSpace();
    return p_ == end_;  // anything after the value: decline (nlohmann words the error)
  }

 private:
  void skipSpace() {
    for (;;) {
      while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
      if (p_ < end_ || !refill(p_)) return;
    }
  }

  // The text read in pieces (source_): the bytes from `keep` on move to the
  // front of the window and the next piece follows them; `keep` and p_ point
  // into the window again (other pointers into it are stale). False at the end
  // of the text (or when it is not read in pieces): nothing more came.
  bool refill(const char*& keep) {
    if (!source_ || done_) return false;
    const size_t kept = static_cast<size_t>(end_ - keep);
    const size_t at = static_cast<size_t>(p_ - keep);
    if (kept > 0 && keep != window_.data()) std::memmove(window_.data(), keep, kept);
    // Pieces start small and double up to chunk_: a small text costs a small window.
    const size_t piece = std::min(chunk_, std::max<size_t>(size_t{64} << 10, 2 * lastPiece_));
    lastPiece_ = piece;
    if (window_.size() < kept + piece) window_.resize(kept + piece);
    const size_t n = source_->read(window_.data() + kept, piece);
    if (n == 0) done_ = true;
    read_ += n;
    growTable();
    keep = window_.data();
    p_ = keep + at;
    end_ = keep + kept + n;
    return n > 0;
  }
  // At least `n` bytes from p_ on in the window, or all that is left of the text.
  bool ensure(size_t n) {
    while (static_cast<size_t>(end_ - p_) < n)
      if (!refill(p_)) return false;
    return true;
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
    if (!ensure(n) || static_cast<size_t>(end_ - p_) < n || std::memcmp(p_, word, n) != 0) return false;
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
    const size_t n = members_.size() - base;
    if (source_ && n > 0) {
      // A resident context's rows hold their keys once (a shape, value.h):
      // the last object at this depth is the one whose keys they most likely have.
      if (lastObject_.size() <= static_cast<size_t>(depth_)) lastObject_.resize(static_cast<size_t>(depth_) + 1);
      Value& like = lastObject_[static_cast<size_t>(depth_)];
      out = Value::object(members_.data() + base, n, &like);
      like = out;
    } else {
      out = Value::object(members_.data() + base, n);
    }
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
        push(std::move(v));
      } while ((after = separator(']')) == After::Comma);
      if (after == After::Bad) return false;
    }
    --depth_;
    if (base == 0 && source_ && items_.size() >= kHandOverFrom) {
      // The outermost long list of a resident context (its rows) is the stack
      // its items collected on: a copy of the exact size would be made while
      // the stack is held, and both would stay in the wasm memory's
      // high-water mark (1.8 MiB for 50,000 rows). The stack grew by a
      // quarter at a time (push), so at most a fifth of it is spare.
      out = Value::array(std::move(items_));
      items_ = Array();
      return true;
    }
    out = Value::array(Array(std::make_move_iterator(items_.begin() + static_cast<ptrdiff_t>(base)),
                             std::make_move_iterator(items_.end())));
    items_.resize(base);
    return true;
  }

  // Items of a resident context's long lists: the stack grows by a quarter
  // once long, not double, so the list it becomes (above) has little spare.
  void push(Value v) {
    if (source_ && items_.size() == items_.capacity() && items_.size() >= kHandOverFrom)
      items_.reserve(items_.size() + items_.size() / 4);
    items_.push_back(std::move(v));
  }
  static constexpr size_t kHandOverFrom = 4096;

  // Keys, and short values such as categories or dates, repeat across rows and
  // across runs: a short string without escapes is looked up by its bytes in a
  // small direct-mapped cache that outlives the parse, so rows share one string
  // and a rerun over similar data builds none. (Values never change once
  // built, so sharing is invisible.) Cached strings belong to no run's budget:
  // at most kShortSlots of them, each under kShortString bytes. A text read in
  // pieces (a resident context) shares its strings through a table of its own
  // instead, charged (shared() below).
  bool shortOrString(Value& out) {
    ensure(kShortString + 2);  // the quotes and a short string between them, when the text has them
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
      p_ = q + 1;
      if (source_) {
        out = shared(hash, text);
        return true;
      }
      Value& slot = shortStrings()[hash & (kShortSlots - 1)];
      if (!slot.isString() || slot.str() != text) {
        BudgetScope shared(nullptr);
        slot = Value::string(std::string(text));
      }
      out = slot;
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
    for (;;) {
      if (p_ >= end_) {  // the string goes on in the next piece of the text, if any
        out.append(run, static_cast<size_t>(p_ - run));
        if (!refill(p_)) return false;  // unterminated
        run = p_;
        continue;
      }
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
      if (end_ - p_ < 4 && source_) {  // a sequence cut by the end of a piece
        out.append(run, static_cast<size_t>(p_ - run));
        ensure(4);
        run = p_;
      }
      size_t n = utf8Sequence(reinterpret_cast<const unsigned char*>(p_), reinterpret_cast<const unsigned char*>(end_));
      if (n == 0) return false;
      p_ += n;
    }
  }

  bool escape(std::string& out) {
    ensure(12);  // the longest escape: a surrogate pair, \uD83D\uDE00
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
    if (source_) wholeToken();
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

  // A text read in pieces is a resident context, kept for many runs: its short
  // strings (keys, categories, names that repeat across rows) are shared
  // through a table of this parse, two slots per hash, the one used last
  // first, which grows with the text read (kTableSlots at most) and goes with
  // the parse. A string made here is charged to the budget in force (the
  // resident's, which then counts every block its values hold); the table
  // itself is the parse's bookkeeping, as the window is.
  Value shared(uint32_t hash, std::string_view text) {
    if (table_.empty()) {
      table_.resize(1024);
      hashes_.assign(1024, 0);
    }
    // The slots' hashes sit apart, side by side: a miss reads one word, not
    // two strings' blocks scattered over the heap (the table outgrows caches).
    const size_t at = hash & (table_.size() - 1) & ~size_t{1};
    if (hashes_[at] == hash && table_[at].isString() && table_[at].str() == text) return table_[at];
    if (hashes_[at + 1] == hash && table_[at + 1].isString() && table_[at + 1].str() == text) {
      table_[at].swap(table_[at + 1]);
      std::swap(hashes_[at], hashes_[at + 1]);
      return table_[at];
    }
    table_[at + 1] = std::move(table_[at]);
    hashes_[at + 1] = hashes_[at];
    table_[at] = Value::string(std::string(text));
    hashes_[at] = hash;
    return table_[at];
  }
  // More slots as more of the text is read: a few per kilobyte.
  void growTable() {
    if (table_.empty() || table_.size() >= kTableSlots || read_ < table_.size() * 64) return;
    Array old = std::move(table_);
    std::vector<uint32_t> oldHashes = std::move(hashes_);
    table_ = Array(old.size() * 2);
    hashes_.assign(table_.size(), 0);
    for (size_t i = 0; i < old.size(); ++i) {
      if (!old[i].isString()) continue;
      size_t at = oldHashes[i] & (table_.size() - 1) & ~size_t{1};
      if (table_[at].isString()) ++at;
      table_[at] = std::move(old[i]);
      hashes_[at] = oldHashes[i];
    }
  }

  // A number cut by the end of a piece: the window gets all of it (and the
  // byte after it), so the grammar below reads it as from one text.
  void wholeToken() {
    auto part = [](char c) { return isDigit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'; };
    const char* q = p_;
    for (;;) {
      while (q < end_ && part(*q)) ++q;
      if (q < end_) return;
      const size_t scanned = static_cast<size_t>(q - p_);
      if (!refill(p_)) return;
      q = p_ + scanned;
    }
  }

  const char* p_;
  const char* end_;
  const std::function<void()>& progress_;
  TextSource* source_ = nullptr;
  size_t chunk_ = 0;
  bool done_ = false;
  std::vector<char> window_;
  uint64_t read_ = 0;  // bytes of the text read so far
  size_t lastPiece_ = 0;
  Array table_;                                 // the parse's short strings (shared)
  std::vector<uint32_t> hashes_;                // the hash of each slot's string
  Array lastObject_;                            // the last object parsed at each depth (a text read in pieces)
  static constexpr size_t kTableSlots = 32768;  // a power of two
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

bool parseJsonFast(TextSource& source, size_t chunkBytes, Value& out, const std::function<void()>& progress) {
  return FastParser(source, chunkBytes, progress).parse(out);
}

bool readDecimal(std::string_view text, double& out) {
  auto r = fast_float::from_chars(text.data(), text.data() + text.size(), out);
  return r.ec == std::errc() && r.ptr == text.data() + text.size() && std::isfinite(out);
}

}  // namespace ptc
