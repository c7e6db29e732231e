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

}  // namespace

Value toNumber(const Node& n, const Value& v) {
  if (v.isNumber()) return v;
  Value parsed = v.isString() ? parseNumber(v.str()) : Value::none();
  if (!parsed.isNone()) return parsed;
  if (n.hasDefault) return n.data;
  if (v.isNull()) return v;
  if (v.isString())
    throwExecution(ErrorCode::TextNotNumber, n,
                   "'to_number' cannot read the text " + shortJson(v, 40) +
                       " as a number. Give a \"default\" for such values, e.g. {\"op\": \"to_number\", "
                       "\"field\": ..., \"default\": null}");
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
