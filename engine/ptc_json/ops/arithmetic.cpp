// Arithmetic: add, sub, mul, div, pct, round, floor, ceil. Integers stay
// exact integers while the result fits int64; a float result that is not
// finite is an error (number()).
#include <cmath>
#include <functional>
#include <string>

#include "core/digits.h"
#include "core/json_fast.h"
#include "core/json_pointer.h"
#include "ptc_json/ops/ops.h"

namespace ptc {

namespace {

void requireNumbers(const Node& n, const Value& a, const Value& b) {
  if (!a.isNumber() || !b.isNumber())
    throwExecution(ErrorCode::TypeMismatch, n,
                   quoted(n) + " requires numeric operands, got " + typeName(a) + " and " + typeName(b));
}

// add, sub, mul: `exact` gives the integer result of two integers, false when
// it overflows int64; else (or for a float) `inexact` the float result.
template <typename Exact, typename Inexact>
Value arithmetic(const Node& n, const Value* args, Exact exact, Inexact inexact) {
  const Value& a = args[0];
  const Value& b = args[1];
  requireNumbers(n, a, b);
  int64_t r = 0;
  if (a.isInt() && b.isInt() && exact(a.asInt(), b.asInt(), r)) return Value::integer(r);
  return number(n, inexact(a.asDouble(), b.asDouble()));
}

// div, pct: a float, and an error for a zero divisor (`zero` says which).
Value divide(const Node& n, const Value* args, const char* zero, double scale) {
  requireNumbers(n, args[0], args[1]);
  if (args[1].asDouble() == 0) throwExecution(ErrorCode::DivisionByZero, n, zero);
  return number(n, args[0].asDouble() / args[1].asDouble() * scale);
}

// Rounds the exact binary value of x to `places` decimals (0-15), half away
// from zero. |x| = m / 2^shift exactly, with m < 2^53, so |x| * 10^places is
// m * 10^places (below 2^103) shifted right: its integer part and the first
// bit shifted out (the half) decide exactly; the rounded decimal is then read
// back as the nearest double.
double roundDecimal(double x, int places) {
  int exponent = 0;
  const double fraction = std::frexp(std::fabs(x), &exponent);  // |x| = fraction * 2^exponent
  const auto m = static_cast<uint64_t>(std::ldexp(fraction, 53));
  const int shift = 53 - exponent;
  if (shift <= 0) return x;  // |x| >= 2^53: a whole number already
  unsigned __int128 scaled = m;
  for (int i = 0; i < places; ++i) scaled *= 10;
  unsigned __int128 kept = 0;
  // A shift of 128 or more leaves less than a half of scaled (below 2^103): 0.
  if (shift < 128) kept = (scaled >> shift) + ((scaled >> (shift - 1)) & 1);
  std::string digits = digitsOf(kept, static_cast<size_t>(places) + 1);
  if (places > 0) digits.insert(digits.size() - static_cast<size_t>(places), ".");
  double r = 0;
  readDecimal(digits, r);  // digits and a point: always a finite number
  return x < 0 ? -r : r;
}

// floor and ceil: an integer (a float beyond the int64 range stays a float).
// null stays null, as for the other value-level ops (a missing value stays missing).
Value floorOrCeil(const Node& n, const Value& v) {
  if (v.isNull()) return v;
  if (!v.isNumber())
    throwExecution(ErrorCode::TypeMismatch, n,
                   quoted(n) + " requires a number, got " + describeValue(v) +
                       (v.isString() ? " (convert text with {\"op\": \"to_number\"})" : ""));
  if (v.isInt()) return v;
  double r = n.op == Op::Floor ? std::floor(v.asDouble()) : std::ceil(v.asDouble());
  if (std::fabs(r) < 9.2e18) return Value::integer(static_cast<int64_t>(r));
  return Value::number(r);
}

Value roundOp(const Node& n, const Value& v) {
  if (!v.isNumber())
    throwExecution(ErrorCode::TypeMismatch, n, "'round' requires a numeric value, got " + std::string(typeName(v)));
  if (v.isInt()) return v;
  double r = roundDecimal(v.asDouble(), static_cast<int>(n.count));
  if (n.count == 0 && std::fabs(r) < 9.2e18) return Value::integer(static_cast<int64_t>(r));
  return Value::number(r);
}

}  // namespace

Value applyAdd(const Node& n, const Value&, const Value* args, size_t) {
  return arithmetic(
      n, args, [](int64_t a, int64_t b, int64_t& r) { return !__builtin_add_overflow(a, b, &r); }, std::plus<double>());
}

Value applySub(const Node& n, const Value&, const Value* args, size_t) {
  return arithmetic(
      n, args, [](int64_t a, int64_t b, int64_t& r) { return !__builtin_sub_overflow(a, b, &r); },
      std::minus<double>());
}

Value applyMul(const Node& n, const Value&, const Value* args, size_t) {
  return arithmetic(
      n, args, [](int64_t a, int64_t b, int64_t& r) { return !__builtin_mul_overflow(a, b, &r); },
      std::multiplies<double>());
}

Value applyDiv(const Node& n, const Value&, const Value* args, size_t) {
  return divide(n, args, "'div' failed: division by zero", 1.0);
}

// part / whole * 100
Value applyPct(const Node& n, const Value&, const Value* args, size_t) {
  return divide(n, args, "'pct' failed: division by zero (whole is 0)", 100.0);
}

Value applyRound(const Node& n, const Value& in, const Value* args, size_t) {
  return roundOp(n, valueInput(n, in, args));
}

Value applyFloor(const Node& n, const Value& in, const Value* args, size_t) {
  return floorOrCeil(n, valueInput(n, in, args));
}

Value applyCeil(const Node& n, const Value& in, const Value* args, size_t) {
  return floorOrCeil(n, valueInput(n, in, args));
}

}  // namespace ptc
