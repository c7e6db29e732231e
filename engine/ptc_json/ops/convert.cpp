// Conversions: to_number and to_string. Data from real systems holds numbers
// as text ("98000", " 12.50"); these make the conversion explicit instead of
// letting ordering or sums mix the two silently.
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "core/json.h"
#include "core/json_fast.h"
#include "core/json_pointer.h"
#include "ptc_json/ops/ops.h"

namespace ptc {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Accepts [+-] digits [. digits] [e[+-]digits] (also ".5" and "5."), with
// surrounding spaces. No thousands separators, no units, no hex, no "NaN".
bool numberSyntax(std::string_view s, bool& integral) {
  size_t i = 0, digits = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  for (; i < s.size() && isDigit(s[i]); ++i) ++digits;
  integral = true;
  if (i < s.size() && s[i] == '.') {
    integral = false;
    for (++i; i < s.size() && isDigit(s[i]); ++i) ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    integral = false;
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t expDigits = 0;
    for (; i < s.size() && isDigit(s[i]); ++i) ++expDigits;
    if (expDigits == 0) return false;
  }
  return i == s.size();
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The number a text holds, or none.
Value parseNumber(std::string_view text) {
  std::string_view s = trimmed(text);
  bool integral = false;
  if (!numberSyntax(s, integral)) return Value::none();
  if (integral) {
    std::string_view digits = s[0] == '+' ? s.substr(1) : s;
    int64_t i = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), i);
    if (ec == std::errc() && end == digits.data() + digits.size()) return Value::integer(i);
  }
  double d = 0;
  return readDecimal(s[0] == '+' ? s.substr(1) : s, d) ? Value::number(d) : Value::none();
}

// ---- formatted numbers (to_number with `decimal`) ----

// A currency sign or code around a formatted number: $ € £ ¥ ₹, or three
// capital letters (USD), each with optional spaces before the digits.
size_t currencyPrefix(std::string_view s) {
  for (std::string_view sign : {"$", "\u20AC", "\u00A3", "\u00A5", "\u20B9"})
    if (s.substr(0, sign.size()) == sign) return sign.size();
  if (s.size() >= 3 && std::isupper(static_cast<unsigned char>(s[0])) &&
      std::isupper(static_cast<unsigned char>(s[1])) && std::isupper(static_cast<unsigned char>(s[2])))
    return 3;
  return 0;
}
size_t currencySuffix(std::string_view s) {
  for (std::string_view sign : {"$", "\u20AC", "\u00A3", "\u00A5", "\u20B9"})
    if (s.size() >= sign.size() && s.substr(s.size() - sign.size()) == sign) return sign.size();
  const size_t k = s.size();
  if (k >= 3 && std::isupper(static_cast<unsigned char>(s[k - 1])) &&
      std::isupper(static_cast<unsigned char>(s[k - 2])) && std::isupper(static_cast<unsigned char>(s[k - 3])))
    return 3;
  return 0;
}

// A thousands separator besides the other decimal mark: space, no-break
// spaces, apostrophe, underscore.
size_t groupMark(std::string_view s, size_t at, char other) {
  if (s[at] == other || s[at] == ' ' || s[at] == '\'' || s[at] == '_') return 1;
  for (std::string_view mark : {"\u00A0", "\u202F", "\u2019"})
    if (s.substr(at, mark.size()) == mark) return mark.size();
  return 0;
}

// "$1,234.50", "-12.5 %", "1.234,50 EUR", "(sign) USD 12" with `decimal` as the
// decimal mark: the plain decimal text it stands for, or "" when it is not one.
// Thousands separators must group by three ("1,23" is refused, not guessed).
std::string plainDecimal(std::string_view s, char decimal) {
  const char other = decimal == '.' ? ',' : '.';
  bool negative = false, signGiven = false;
  auto takeSign = [&] {
    if (signGiven || s.empty() || (s[0] != '-' && s[0] != '+')) return;
    negative = s[0] == '-';
    signGiven = true;
    s.remove_prefix(1);
  };
  s = trimmed(s);
  takeSign();
  s = trimmed(s.substr(currencyPrefix(s)));
  takeSign();
  if (!s.empty() && s.back() == '%') s = trimmed(s.substr(0, s.size() - 1));
  s = trimmed(s.substr(0, s.size() - currencySuffix(s)));
  std::string out = negative ? "-" : "";
  size_t group = 0, groups = 0, i = 0;
  bool grouped = false;
  for (; i < s.size() && s[i] != decimal; ++i) {
    if (isDigit(s[i])) {
      out += s[i];
      ++group;
      continue;
    }
    size_t mark = groupMark(s, i, other);
    if (mark == 0 || group == 0 || (groups == 0 ? group > 3 : group != 3)) return "";
    grouped = true;
    ++groups;
    group = 0;
    i += mark - 1;
  }
  if ((group == 0 && (grouped || i >= s.size())) || (grouped && group != 3)) return "";
  if (i < s.size()) {  // the decimal mark, then digits only
    out += '.';
    for (++i; i < s.size(); ++i) {
      if (!isDigit(s[i])) return "";
      out += s[i];
    }
  }
  return out;
}

// Digits with a group or decimal comma, a currency sign or a percent sign:
// the error suggests `decimal` for those only.
bool looksFormatted(std::string_view s) {
  bool digit = false, mark = false;
  for (char c : s) {
    digit = digit || isDigit(c);
    mark = mark || c == ',' || c == '$' || c == '%' || static_cast<unsigned char>(c) >= 0x80;
  }
  return digit && mark;
}

}  // namespace

Value toNumber(const Node& n, const Value& v) {
  if (v.isNumber()) return v;
  Value parsed = Value::none();
  if (v.isString() && n.name.isString()) {
    std::string plain = plainDecimal(v.str(), n.name.str()[0]);
    if (!plain.empty()) parsed = parseNumber(plain);
  } else if (v.isString()) {
    parsed = parseNumber(v.str());
  }
  if (!parsed.isNone()) return parsed;
  if (n.hasDefault) return n.data;
  if (v.isNull()) return v;
  if (v.isString())
    throwExecution(ErrorCode::TextNotNumber, n,
                   "'to_number' cannot read the text " + shortJson(v, 40) +
                       (n.name.isString() ? " as a number with the decimal mark \"" + n.name.str() + "\""
                                          : std::string(" as a number")) +
                       ". Give a \"default\" for such values, e.g. {\"op\": \"to_number\", "
                       "\"field\": ..., \"default\": null}" +
                       (n.name.isString() || !looksFormatted(v.str())
                            ? ""
                            : "; for money or grouped digits (\"$1,234.50\") give \"decimal\": \".\" "
                              "(\"1.234,50\": \"decimal\": \",\")"));
  throwExecution(ErrorCode::TypeMismatch, n,
                 "'to_number' converts texts, got " + describeValue(v) +
                     ". Give a \"default\" for such values, or read a field of it with \"field\"");
}

Value toText(const Node& n, const Value& v) {
  if (v.isString()) return v;
  return Value::string(toJson(v));
}

Value applyToNumber(const Node& n, const Value& in, const Value* args, size_t) {
  return toNumber(n, valueInput(n, in, args));
}

Value applyToString(const Node& n, const Value& in, const Value* args, size_t) {
  return toText(n, valueInput(n, in, args));
}

}  // namespace ptc
