// Comparison and membership (eq, neq, gt, gte, lt, lte, contains, in) and
// logic's `not`: the current value's `field` (or the value itself) against
// `value` (args[0]). starts_with and ends_with are in text.cpp.
#include "ptc_json/ops/ops.h"

#include <optional>

namespace ptc {

namespace {

bool contains(const Value& haystack, const Value& needle) {
  if (haystack.isArray()) {
    for (const Value& x : haystack.items())
      if (equals(x, needle)) return true;
    return false;
  }
  if (haystack.isString()) return needle.isString() && haystack.str().find(needle.str()) != std::string::npos;
  if (haystack.isObject()) return needle.isString() && haystack.find(needle.str()) != nullptr;
  return false;
}

// `in`: the field holds a list containing the value, or an object having it as a key.
bool inSet(const Value& set, const Value& v) {
  if (set.isArray()) return contains(set, v);
  return set.isObject() && v.isString() && set.find(v.str()) != nullptr;
}

// The left side: `left` when given (args[1]: `value` is args[0]), else the
// current value's field, or the value itself.
Value lhsOf(const Node& n, const Value& in, const Value* args, size_t nargs) {
  return nargs > 1 ? args[1] : readField(n, in);
}

// gt/gte/lt/lte: the order of the left side against the value; nullopt when
// either side is null (a missing value is not greater or smaller than anything).
std::optional<int> order(const Node& n, const Value& in, const Value* args, size_t nargs) {
  Value lhs = lhsOf(n, in, args, nargs);
  const Value& rhs = args[0];
  if (lhs.isNull() || rhs.isNull()) return std::nullopt;
  return orderOf(n, lhs, rhs);
}

}  // namespace

Value applyEq(const Node& n, const Value& in, const Value* args, size_t nargs) {
  return Value::boolean(equals(lhsOf(n, in, args, nargs), args[0]));
}

Value applyNeq(const Node& n, const Value& in, const Value* args, size_t nargs) {
  return Value::boolean(!equals(lhsOf(n, in, args, nargs), args[0]));
}

Value applyGt(const Node& n, const Value& in, const Value* args, size_t nargs) {
  std::optional<int> c = order(n, in, args, nargs);
  return Value::boolean(c && *c > 0);
}

Value applyGte(const Node& n, const Value& in, const Value* args, size_t nargs) {
  std::optional<int> c = order(n, in, args, nargs);
  return Value::boolean(c && *c >= 0);
}

Value applyLt(const Node& n, const Value& in, const Value* args, size_t nargs) {
  std::optional<int> c = order(n, in, args, nargs);
  return Value::boolean(c && *c < 0);
}

Value applyLte(const Node& n, const Value& in, const Value* args, size_t nargs) {
  std::optional<int> c = order(n, in, args, nargs);
  return Value::boolean(c && *c <= 0);
}

Value applyContains(const Node& n, const Value& in, const Value* args, size_t nargs) {
  return Value::boolean(contains(lhsOf(n, in, args, nargs), args[0]));
}

Value applyIn(const Node& n, const Value& in, const Value* args, size_t nargs) {
  return Value::boolean(inSet(lhsOf(n, in, args, nargs), args[0]));
}

Value applyNot(const Node&, const Value&, const Value* args, size_t) { return Value::boolean(!args[0].truthy()); }

}  // namespace ptc
