// Text operations. Positions and lengths count characters (Unicode code
// points), never bytes. Case mapping covers ASCII, Latin-1, Latin Extended-A,
// Greek and Cyrillic (no locale, no length-changing mappings such as ß → SS).
// No regular expressions: find/replace/split are plain text.
#include <algorithm>
#include <cmath>

#include "core/deadline.h"
#include "core/json.h"
#include "core/json_pointer.h"
#include "ptc_json/ops/ops.h"

namespace ptc {

namespace {

// Field positions in the op table (value-level ops: 0 field, 1 value).
constexpr size_t kFirstExtra = 2;

// A text that is about to be built must fit the run's byte budget: refuses it
// before a large std::string is allocated (the Value charges it again when made).
void reserveText(uint64_t bytes) {
  if (Budget* budget = Budget::current()) {
    budget->charge(bytes);
    budget->release(bytes);
  }
}

const std::string& textArg(const Node& n, const Value& v, const char* what) {
  if (v.isString()) return v.str();
  throwExecution(ErrorCode::TypeMismatch, n,
                 quoted(n) + " needs " + what + " to be a text, got " + describeValue(v) +
                     (v.isNumber() ? " (convert it with {\"op\": \"to_string\"})" : ""));
}

// ---- code points ----

size_t sequenceLength(unsigned char lead) { return lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4; }

// Byte offsets of each character, then the text's size.
std::vector<size_t> offsets(const std::string& s) {
  std::vector<size_t> out;
  for (size_t i = 0; i < s.size(); i += sequenceLength(static_cast<unsigned char>(s[i]))) out.push_back(i);
  out.push_back(s.size());
  return out;
}

uint32_t decode(const std::string& s, size_t at, size_t len) {
  auto byte = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(s[at + k])); };
  if (len == 1) return byte(0);
  uint32_t cp = byte(0) & (0xFF >> (len + 1));
  for (size_t k = 1; k < len && at + k < s.size(); ++k) cp = (cp << 6) | (byte(k) & 0x3F);
  return cp;
}

void encode(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// ---- case ----

// Latin Extended-A alternates upper (even) / lower (odd) in these ranges, and
// the other way round in the shifted ones.
bool evenUpperPair(uint32_t cp) {
  return (cp >= 0x100 && cp <= 0x137 && cp != 0x130 && cp != 0x131) || (cp >= 0x14A && cp <= 0x177);
}
bool oddUpperPair(uint32_t cp) { return (cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E); }

uint32_t toLower(uint32_t cp) {
  if ((cp >= 'A' && cp <= 'Z') || (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) ||
      (cp >= 0x391 && cp <= 0x3A9 && cp != 0x3A2) || (cp >= 0x410 && cp <= 0x42F))
    return cp + 32;
  if (cp >= 0x400 && cp <= 0x40F) return cp + 80;
  if (evenUpperPair(cp)) return cp | 1;
  if (oddUpperPair(cp) && cp % 2 == 1) return cp + 1;
  if (cp == 0x178) return 0xFF;
  return cp;
}

uint32_t toUpper(uint32_t cp) {
  if ((cp >= 'a' && cp <= 'z') || (cp >= 0xE0 && cp <= 0xFE && cp != 0xF7) ||
      (cp >= 0x3B1 && cp <= 0x3C9 && cp != 0x3C2) || (cp >= 0x430 && cp <= 0x44F))
    return cp - 32;
  if (cp >= 0x450 && cp <= 0x45F) return cp - 80;
  if (evenUpperPair(cp)) return cp & ~1u;
  if (oddUpperPair(cp) && cp % 2 == 0) return cp - 1;
  if (cp == 0xFF) return 0x178;
  return cp;
}

Value changeCase(const std::string& s, bool upper) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    size_t len = sequenceLength(static_cast<unsigned char>(s[i]));
    uint32_t cp = decode(s, i, len);
    encode(out, upper ? toUpper(cp) : toLower(cp));
    i += len;
  }
  return Value::string(std::move(out));
}

// ---- trim, length, slice ----

bool isSpace(uint32_t cp) {
  return cp == ' ' || (cp >= '\t' && cp <= '\r') || cp == 0xA0 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
         cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000 || cp == 0xFEFF;
}

Value trim(const std::string& s) {
  std::vector<size_t> at = offsets(s);
  size_t first = 0, last = at.size() - 1;  // characters [first, last)
  auto cp = [&](size_t k) { return decode(s, at[k], at[k + 1] - at[k]); };
  while (first < last && isSpace(cp(first))) ++first;
  while (last > first && isSpace(cp(last - 1))) --last;
  return Value::string(s.substr(at[first], at[last] - at[first]));
}

Value length(const Node& n, const Value& v) {
  if (v.isString()) return Value::integer(static_cast<int64_t>(offsets(v.str()).size() - 1));
  if (v.isArray()) return Value::integer(static_cast<int64_t>(v.items().size()));
  if (v.isObject()) return Value::integer(static_cast<int64_t>(v.members().size()));
  throwExecution(ErrorCode::TypeMismatch, n, "'length' measures a text, a list or an object, got " + describeValue(v));
}

// A slice position: an integer (negative counts from the end), clamped to [0, size].
size_t position(const Node& n, const Value& v, size_t size, size_t absent, const char* what) {
  if (v.isNull()) return absent;
  if (!v.isNumber() || v.asDouble() != std::floor(v.asDouble()))
    throwExecution(ErrorCode::BadArgument, n,
                   "'slice' needs '" + std::string(what) + "' to be an integer, got " + describeValue(v));
  double p = v.asDouble();
  if (p < 0) p += static_cast<double>(size);
  return p <= 0 ? 0 : p >= static_cast<double>(size) ? size : static_cast<size_t>(p);
}

Value slice(const Node& n, const Value& v, const Value* args) {
  const Value& startArg = operand(n, args, kFirstExtra);
  const Value& endArg = operand(n, args, kFirstExtra + 1);
  if (v.isArray()) {
    const Array& items = v.items();
    size_t from = position(n, startArg, items.size(), 0, "start");
    size_t to = std::max(from, position(n, endArg, items.size(), items.size(), "end"));
    return Value::array(
        Array(items.begin() + static_cast<std::ptrdiff_t>(from), items.begin() + static_cast<std::ptrdiff_t>(to)));
  }
  const std::string& s = textArg(n, v, "its input");
  std::vector<size_t> at = offsets(s);
  size_t chars = at.size() - 1;
  size_t from = position(n, startArg, chars, 0, "start");
  size_t to = std::max(from, position(n, endArg, chars, chars, "end"));
  return Value::string(s.substr(at[from], at[to] - at[from]));
}

// ---- split, join, replace ----

Value split(const Node& n, const std::string& s, const std::string& sep) {
  ListBuilder out;
  if (sep.empty()) {
    std::vector<size_t> at = offsets(s);
    for (size_t k = 0; k + 1 < at.size(); ++k) {
      tickDeadline();
      out.push_back(Value::string(s.substr(at[k], at[k + 1] - at[k])));
    }
    return out.build();
  }
  size_t from = 0;
  for (size_t hit = s.find(sep); hit != std::string::npos; hit = s.find(sep, from)) {
    tickDeadline();
    out.push_back(Value::string(s.substr(from, hit - from)));
    from = hit + sep.size();
  }
  out.push_back(Value::string(s.substr(from)));
  return out.build();
}

// How an item of join (or a field of format) reads as text: appended to `out`.
void appendPiece(std::string& out, const Node& n, const Value& v, const std::string& where) {
  if (v.isString()) out += v.str();
  else if (v.isNumber() || v.isBool()) out += toJson(v);
  else if (!v.isNull())
    throwExecution(ErrorCode::TypeMismatch, n,
                   quoted(n) + " cannot write " + where + " as text: it is " + describeValue(v) +
                       " (pick a field of it, or convert it with {\"op\": \"to_string\"})");
}

// The bytes an item of join adds, checked as appendPiece checks it: a number
// or boolean is short, its text written once here.
uint64_t pieceSize(const Node& n, const Value& v, size_t i) {
  if (v.isString()) return v.str().size();
  std::string text;
  appendPiece(text, n, v, "item " + std::to_string(i));
  return text.size();
}

// The whole text is measured, and charged, before any of it is copied: a list
// holding one long text many times is small, its join is not.
Value join(const Node& n, const Value& v, const Value* args) {
  if (!v.isArray()) throwExecution(ErrorCode::TypeMismatch, n, "'join' expects a list, got " + describeValue(v));
  const Value& sepArg = operand(n, args, kFirstExtra);
  const std::string sep = sepArg.isNull() ? "" : textArg(n, sepArg, "'sep'");
  const Array& items = v.items();
  uint64_t total = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    tickDeadline();
    total += pieceSize(n, items[i], i) + (i ? sep.size() : 0);
  }
  reserveText(total);
  std::string out;
  out.reserve(static_cast<size_t>(total));
  for (size_t i = 0; i < items.size(); ++i) {
    tickDeadline();
    if (i) out += sep;
    appendPiece(out, n, items[i], "item " + std::to_string(i));
  }
  return Value::string(std::move(out));
}

Value replace(const Node& n, const std::string& s, const Value* args) {
  const std::string& find = textArg(n, operand(n, args, kFirstExtra), "'find'");
  const std::string& with = textArg(n, operand(n, args, kFirstExtra + 1), "'with'");
  if (find.empty()) throwExecution(ErrorCode::BadArgument, n, "'replace' needs a non-empty 'find' text");
  uint64_t hits = 0;
  for (size_t at = s.find(find); at != std::string::npos; at = s.find(find, at + find.size())) ++hits;
  reserveText(s.size() + hits * with.size());
  std::string out;
  size_t from = 0;
  for (size_t at = s.find(find); at != std::string::npos; at = s.find(find, from)) {
    out.append(s, from, at - from);
    out += with;
    from = at + find.size();
  }
  out.append(s, from, std::string::npos);
  return Value::string(std::move(out));
}

// ---- format ----

// A placeholder's spec after ':', as Python's format spec: [0][width][.precision[f]].
// "{id:05}" pads to 5 characters with zeros (after a minus sign), "{x:.2f}" has
// two decimals, "{name:8}" pads with spaces; texts and numbers both pad on the left.
std::string formatted(const Node& n, const Value& v, const std::string& spec, const std::string& what) {
  size_t i = 0;
  const bool zeros = i < spec.size() && spec[i] == '0';
  int width = 0, precision = -1;
  for (; i < spec.size() && spec[i] >= '0' && spec[i] <= '9' && width < 1000; ++i) width = width * 10 + (spec[i] - '0');
  if (i < spec.size() && spec[i] == '.') {
    precision = 0;
    for (++i; i < spec.size() && spec[i] >= '0' && spec[i] <= '9' && precision < 100; ++i)
      precision = precision * 10 + (spec[i] - '0');
  }
  if (i < spec.size() && (spec[i] == 'f' || spec[i] == 'd' || spec[i] == 's')) ++i;
  if (i != spec.size() || precision > 15)
    throwExecution(ErrorCode::BadArgument, n,
                   "'format' cannot use the spec '" + spec + "' of " + what +
                       ": write {field:05} (zero-padded to 5), {field:.2f} (2 decimals) or {field:8} (width 8)");
  std::string text;
  if (precision >= 0) {
    if (!v.isNumber())
      throwExecution(ErrorCode::TypeMismatch, n,
                     "'format' needs " + what + " to be a number for '." + std::to_string(precision) + "f', got " +
                         describeValue(v));
    const double scale = std::pow(10.0, precision);
    double r = std::round(v.asDouble() * scale) / scale;
    if (r == 0) r = 0;  // no "-0.00"
    appendNumber(text, r);
    if (precision == 0 && text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) text.resize(text.size() - 2);
    if (precision > 0 && text.find_first_of("e") == std::string::npos) {
      size_t dot = text.find('.');
      if (dot == std::string::npos) text += '.', dot = text.size() - 1;
      text.append(static_cast<size_t>(precision) - std::min(text.size() - dot - 1, static_cast<size_t>(precision)),
                  '0');
    }
  } else {
    appendPiece(text, n, v, what);
  }
  const size_t sign = zeros && !text.empty() && text[0] == '-' ? 1 : 0;
  if (static_cast<size_t>(width) > text.size())
    text.insert(sign, static_cast<size_t>(width) - text.size(), zeros ? '0' : ' ');
  return text;
}

// "{name}" reads a field of the current value, "{}" the value itself, "{{"/"}}" are braces.
Value format(const Node& n, const Value& v) {
  const std::string& t = n.data.str();
  std::string out;
  for (size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if ((c == '{' || c == '}') && i + 1 < t.size() && t[i + 1] == c) {
      out += c;
      ++i;
      continue;
    }
    if (c == '}')
      throwExecution(
          ErrorCode::BadArgument, n,
          "'format' template has a '}' without '{' at character " + std::to_string(i) + " (write }} for a brace)");
    if (c != '{') {
      out += c;
      continue;
    }
    size_t close = t.find('}', i);
    if (close == std::string::npos)
      throwExecution(ErrorCode::BadArgument, n,
                     "'format' template has a '{' that is not closed at character " + std::to_string(i) +
                         " (write {{ for a brace)");
    std::string name = t.substr(i + 1, close - i - 1);
    const size_t colon = name.find(':');
    const std::string spec = colon == std::string::npos ? "" : name.substr(colon + 1);
    if (colon != std::string::npos) name.resize(colon);
    if (!name.empty() && !v.isObject() && !v.isNull())
      throwExecution(ErrorCode::TypeMismatch, n,
                     "'format' reads field '" + name + "' of the current value, which is " + describeValue(v) +
                         " (use {} for the value itself)");
    const Value& piece = name.empty() ? v : v.field(name);
    const std::string what = name.empty() ? "the value" : "field '" + name + "'";
    if (spec.empty()) appendPiece(out, n, piece, what);
    else out += formatted(n, piece, spec, what);
    reserveText(out.size());
    i = close;
  }
  return Value::string(std::move(out));
}

}  // namespace

namespace {

// A text op on its input (valueInput): a missing value (null) stays missing.
template <typename F>
Value onInput(const Node& n, const Value& in, const Value* args, F f) {
  Value v = valueInput(n, in, args);
  return v.isNull() ? v : f(v);
}

bool hasAffix(const Value& subject, const Value& affix, bool atStart) {
  if (!subject.isString() || !affix.isString()) return false;
  const std::string& s = subject.str();
  const std::string& a = affix.str();
  if (a.size() > s.size()) return false;
  return atStart ? s.compare(0, a.size(), a) == 0 : s.compare(s.size() - a.size(), a.size(), a) == 0;
}

}  // namespace

Value applyLength(const Node& n, const Value& in, const Value* args, size_t) {
  return onInput(n, in, args, [&](const Value& v) { return length(n, v); });
}

Value applyLower(const Node& n, const Value& in, const Value* args, size_t) {
  return onInput(n, in, args, [&](const Value& v) { return changeCase(textArg(n, v, "its input"), false); });
}

Value applyUpper(const Node& n, const Value& in, const Value* args, size_t) {
  return onInput(n, in, args, [&](const Value& v) { return changeCase(textArg(n, v, "its input"), true); });
}

Value applyTrim(const Node& n, const Value& in, const Value* args, size_t) {
  return onInput(n, in, args, [&](const Value& v) { return trim(textArg(n, v, "its input")); });
}

Value applySlice(const Node& n, const Value& in, const Value* args, size_t) {
  return onInput(n, in, args, [&](const Value& v) { return slice(n, v, args); });
}

Value applySplit(const Node& n, const Value& in, const Value* args, size_t) {
  return onInput(n, in, args, [&](const Value& v) {
    return split(n, textArg(n, v, "its input"), textArg(n, operand(n, args, kFirstExtra), "'sep'"));
  });
}

Value applyJoin(const Node& n, const Value& in, const Value* args, size_t) {
  return onInput(n, in, args, [&](const Value& v) { return join(n, v, args); });
}

Value applyReplace(const Node& n, const Value& in, const Value* args, size_t) {
  return onInput(n, in, args, [&](const Value& v) { return replace(n, textArg(n, v, "its input"), args); });
}

// A template reads fields of null as null: format runs on a null input too.
Value applyFormat(const Node& n, const Value& in, const Value* args, size_t) {
  return format(n, valueInput(n, in, args));
}

// starts_with and ends_with compare as eq does: the current value's field with `value`.
Value applyStartsWith(const Node& n, const Value& in, const Value* args, size_t nargs) {
  return Value::boolean(hasAffix(nargs > 1 ? args[1] : readField(n, in), args[0], true));
}

Value applyEndsWith(const Node& n, const Value& in, const Value* args, size_t nargs) {
  return Value::boolean(hasAffix(nargs > 1 ? args[1] : readField(n, in), args[0], false));
}

}  // namespace ptc
