#include "ptc_json/ops.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <unordered_set>

#include "core/deadline.h"
#include "core/digits.h"
#include "core/error.h"
#include "core/json.h"
#include "core/json_fast.h"
#include "core/json_pointer.h"

namespace ptc {

// The value a comparison or aggregate looks at: the item's field, or the item.
Value subject(const Node& n, const Value& item) { return n.field.isNone() ? item : fieldOf(n, item); }

Value number(const Node& n, double d) {
  if (!std::isfinite(d))
    throwExecution(ErrorCode::NumberOverflow, n, quoted(n) + " produced a number too large to represent");
  return Value::number(d);
}

// ---- ordering ----

// Numbers and texts do not order against each other: a number stored as text
// ("98000" > 100000) is the usual cause, and comparing it as text is silently
// wrong. Other mixed types keep the term order (docs/semantics.md).
int orderOf(const Node& n, const Value& a, const Value& b) {
  if (a.isNumber() && b.isString()) throwTextNotNumber(n, "cannot order a number against the text", b);
  if (a.isString() && b.isNumber()) throwTextNotNumber(n, "cannot order a number against the text", a);
  return compare(a, b);
}

namespace {

const char* opName(const Node& n) { return specOf(n.op).name; }

// ---- arithmetic ----

Value arithmetic(const Node& n, const Value& a, const Value& b) {
  if (!a.isNumber() || !b.isNumber())
    throwExecution(ErrorCode::TypeMismatch, n,
                   quoted(n) + " requires numeric operands, got " + typeName(a) + " and " + typeName(b));
  const bool ints = a.isInt() && b.isInt();
  int64_t r = 0;
  switch (n.op) {
    case Op::Add:
      if (ints && !__builtin_add_overflow(a.asInt(), b.asInt(), &r)) return Value::integer(r);
      return number(n, a.asDouble() + b.asDouble());
    case Op::Sub:
      if (ints && !__builtin_sub_overflow(a.asInt(), b.asInt(), &r)) return Value::integer(r);
      return number(n, a.asDouble() - b.asDouble());
    case Op::Mul:
      if (ints && !__builtin_mul_overflow(a.asInt(), b.asInt(), &r)) return Value::integer(r);
      return number(n, a.asDouble() * b.asDouble());
    case Op::Div:
      if (b.asDouble() == 0) throwExecution(ErrorCode::DivisionByZero, n, "'div' failed: division by zero");
      return number(n, a.asDouble() / b.asDouble());
    default:  // Pct: part / whole * 100
      if (b.asDouble() == 0)
        throwExecution(ErrorCode::DivisionByZero, n, "'pct' failed: division by zero (whole is 0)");
      return number(n, a.asDouble() / b.asDouble() * 100.0);
  }
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

// ---- comparison ----

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

// gt/gte/lt/lte: false when either side is null (a missing value is not
// greater or smaller than anything).
bool ordered(const Node& n, const Value& lhs, const Value& rhs) {
  if (lhs.isNull() || rhs.isNull()) return false;
  int c = orderOf(n, lhs, rhs);
  switch (n.op) {
    case Op::Gt: return c > 0;
    case Op::Gte: return c >= 0;
    case Op::Lt: return c < 0;
    default: return c <= 0;  // Lte
  }
}

Value comparison(const Node& n, const Value& in, const Value& rhs) {
  Value lhs = readField(n, in);
  switch (n.op) {
    case Op::Eq: return Value::boolean(equals(lhs, rhs));
    case Op::Neq: return Value::boolean(!equals(lhs, rhs));
    case Op::Contains: return Value::boolean(contains(lhs, rhs));
    case Op::In: return Value::boolean(inSet(lhs, rhs));
    case Op::StartsWith:
    case Op::EndsWith: return Value::boolean(startsOrEndsWith(n, lhs, rhs));
    default: return Value::boolean(ordered(n, lhs, rhs));
  }
}

struct ValueHash {
  size_t operator()(const Value* v) const { return hashValue(*v); }
};
struct ValueEq {
  bool operator()(const Value* a, const Value* b) const { return equals(*a, *b); }
};
using ValueSet = std::unordered_set<const Value*, ValueHash, ValueEq>;
// What an entry of a hash set or map costs besides its value: its node and bucket (charged as Scratch).
constexpr uint64_t kSetEntryBytes = 48;

// The allowed values: a list's items, or an object's keys.
Value allowedValues(const Node& n, const Value& allowed) {
  if (allowed.isArray()) return allowed;
  if (!allowed.isObject())
    throwExecution(ErrorCode::TypeMismatch, n,
                   "'filter_in' requires 'value' to be a list (or an object, whose keys are the set), got " +
                       std::string(typeName(allowed)));
  Array keys;
  keys.reserve(allowed.members().size());
  for (const Member& m : allowed.members()) keys.push_back(m.key);
  return Value::array(std::move(keys));
}

// With a field, items that are not objects have no such field: they are
// skipped (by filter_in and reject_in alike). reject_in keeps what filter_in drops.
Value filterIn(const Node& n, const Value& in, const Value& allowedValue, bool keep) {
  const Array& items = expectList(n, in);
  Value allowed = allowedValues(n, allowedValue);
  Scratch scratch;
  scratch.charge(allowed.items().size() * kSetEntryBytes);
  ValueSet set;
  for (const Value& a : allowed.items()) set.insert(&a);
  ListBuilder out;
  for (const Value& item : items) {
    tickDeadline();
    if (!n.field.isNone() && !item.isObject()) continue;
    Value s = subject(n, item);
    if ((set.count(&s) != 0) == keep) out.push_back(item);
  }
  return out.build();
}

// Consecutive lists of `size` items (the last may be shorter): batches for a
// tool that takes at most `size` ids per call.
Value chunk(const Node& n, const Array& items, size_t size) {
  if (size == 0) throwExecution(ErrorCode::BadArgument, n, "'chunk' needs 'size' to be at least 1, got 0");
  ListBuilder out;  // charged to the run's budget, as every list an op builds
  for (size_t at = 0; at < items.size(); at += size) {
    tickDeadline();
    ListBuilder part;
    part.append(items.begin() + static_cast<ptrdiff_t>(at),
                items.begin() + static_cast<ptrdiff_t>(std::min(items.size(), at + size)));
    out.push_back(part.build());
  }
  return out.build();
}

// ---- collections ----

Value selectFields(const Node& n, const Value& object) {
  ObjectBuilder out;  // a field listed twice is kept once: an object's keys are distinct
  for (size_t i = 0; i < n.keys.size(); ++i) {
    const Value* v = object.find(n.keys[i].str());
    noteKeyRead(n, i, v != nullptr, object);
    if (v) out.put(n.keys[i], *v);
  }
  return out.build();
}

Value select(const Node& n, const Value& in) {
  if (in.isObject()) return selectFields(n, in);
  if (!in.isArray())
    throwExecution(ErrorCode::TypeMismatch, n,
                   "'select' expects an object or a list of objects, got " + std::string(typeName(in)));
  ListBuilder out;
  out.reserve(in.items().size());
  for (size_t i = 0; i < in.items().size(); ++i) {
    tickDeadline();
    const Value& item = in.items()[i];
    if (!item.isObject())
      throwExecution(ErrorCode::TypeMismatch, n,
                     "'select' expects a list of objects, but item " + std::to_string(i) + " is a " + typeName(item));
    out.push_back(selectFields(n, item));
  }
  return out.build();
}

// One sort key of two items: nulls (and missing fields) last in either order.
int compareSortKey(const Node& n, const Value& a, const Value& b, bool desc) {
  if (a.isNull() || b.isNull()) return a.isNull() == b.isNull() ? 0 : (a.isNull() ? 1 : -1);
  int c = orderOf(n, a, b);
  return desc ? -c : c;
}

// Stable, by n.sortKeys in order (the first that differs decides).
Value sortBy(const Node& n, const Array& items) {
  const size_t k = n.sortKeys.size();
  Scratch scratch;  // the keys and the order, then the sorted list
  scratch.charge(items.size() * (k * sizeof(Value) + sizeof(size_t)));
  std::vector<Value> keys;  // row-major: keys[i * k + j] is key j of item i
  keys.reserve(items.size() * k);
  for (const Value& item : items)
    for (size_t j = 0; j < k; ++j) {
      const Value& key = n.sortKeys[j].first;
      if (key.isNone()) {
        keys.push_back(item);
      } else if (!n.field.isNone()) {
        keys.push_back(fieldOf(n, item));  // the one-field form: its reads are tallied (core/warnings.h)
      } else {
        const Value* v = item.find(key.str());
        noteKeyRead(n, j, v != nullptr, item);  // a `by` key: a slot each
        keys.push_back(v ? *v : Value());
      }
    }
  std::vector<size_t> order(items.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), tickingLess([&](size_t a, size_t b) {
                     for (size_t j = 0; j < k; ++j)
                       if (int c = compareSortKey(n, keys[a * k + j], keys[b * k + j], n.sortKeys[j].second))
                         return c < 0;
                     return false;
                   }));
  ListBuilder out;
  out.reserve(items.size());
  for (size_t i : order) out.push_back(items[i]);
  return out.build();
}

Value slice(const Array& items, size_t from, size_t to) {
  from = std::min(from, items.size());
  to = std::min(to, items.size());
  if (Budget* budget = Budget::current()) budget->require((std::max(from, to) - from) * sizeof(Value));
  return Value::array(Array(items.begin() + static_cast<std::ptrdiff_t>(from),
                            items.begin() + static_cast<std::ptrdiff_t>(std::max(from, to))));
}

Value distinct(const Array& items) {
  Scratch scratch;
  ValueSet seen;
  ListBuilder out;
  for (const Value& item : items)
    if (seen.insert(&item).second) {
      scratch.charge(kSetEntryBytes);
      out.push_back(item);
    }
  return out.build();
}

// ---- access ----

// A field of a list reads null: say how to reach its items' fields.
void warnFieldOfList(const Node& n, const std::string& field) {
  warn(ErrorCode::FieldOfList, n.path,
       quoted(n) + " reads field '" + field +
           "' of a list, which has no fields, so it is null. For that field of every item write {\"op\": \"map\", "
           "\"expr\": {\"op\": \"get\", \"field\": \"" +
           field + "\"}}; for the first item's, put {\"op\": \"first\"} before it");
}

Value get(const Node& n, const Value& in) {
  Value result;
  if (!n.usesPath) {
    if (in.isArray() && !n.field.isNone()) warnFieldOfList(n, n.field.str());
    result = fieldOf(n, in);
  } else {
    result = in;
    for (const Value& key : n.keys) {
      if (result.isArray()) warnFieldOfList(n, key.str());
      const Value* next = result.isObject() ? result.find(key.str()) : nullptr;
      if (result.isObject()) {
        if (!next) noteRead(n, false, result);
        else if (&key == &n.keys.back()) noteRead(n, true, result);
      }
      result = next ? *next : Value();
      if (result.isNull()) {
        if (next) noteRead(n, true, result);  // a null on the way is there, not misspelt
        break;
      }
    }
  }
  if (result.isNull() && n.hasDefault) return n.data;
  return result;
}

Value keys(const Node& n, const Value& in) {
  if (!in.isObject())
    throwExecution(ErrorCode::TypeMismatch, n, "'keys' expects an object, got " + std::string(typeName(in)));
  Array out;
  out.reserve(in.members().size());
  if (const uint32_t* index = in.keyIndex()) {  // a wide object knows its key order
    for (size_t i = 0; i < in.members().size(); ++i) out.push_back(in.members()[index[i]].key);
    return Value::array(std::move(out));
  }
  for (const Member& m : in.members()) out.push_back(m.key);
  std::sort(out.begin(), out.end(), tickingLess([](const Value& a, const Value& b) { return a.str() < b.str(); }));
  return Value::array(std::move(out));
}

// ---- combine ----

Value merge(const Node& n, const Value* args, size_t nargs) {
  ObjectBuilder out;
  for (size_t i = 0; i < nargs; ++i) {
    if (!args[i].isObject())
      throwExecution(ErrorCode::TypeMismatch, n,
                     "'merge' requires objects, but operand " + std::to_string(i) + " is " + typeName(args[i]));
    for (const Member& m : args[i].members()) out.put(m.key, m.value);
  }
  return out.build();
}

const Array& listOperand(const Node& n, const Value& v, size_t i) {
  if (!v.isArray())
    throwExecution(ErrorCode::TypeMismatch, n,
                   quoted(n) + " requires lists, but operand " + std::to_string(i) + " is " + typeName(v));
  return v.items();
}

Value concat(const Node& n, const Value* args, size_t nargs) {
  size_t total = 0;
  for (size_t i = 0; i < nargs; ++i) total += listOperand(n, args[i], i).size();
  // One list may be an operand many times: the copy is refused before it is
  // built when it cannot fit (it is charged once it is a value).
  if (Budget* budget = Budget::current()) budget->require(total * sizeof(Value));
  Array out;
  out.reserve(total);
  for (size_t i = 0; i < nargs; ++i) out.insert(out.end(), args[i].items().begin(), args[i].items().end());
  return Value::array(std::move(out));
}

Value zip(const Node& n, const Value* args, size_t nargs) {
  if (nargs == 0) return Value::array({});
  size_t shortest = SIZE_MAX;
  for (size_t i = 0; i < nargs; ++i) shortest = std::min(shortest, listOperand(n, args[i], i).size());
  ListBuilder out;
  out.reserve(shortest);
  for (size_t row = 0; row < shortest; ++row) {
    tickDeadline();
    if (Budget* budget = Budget::current()) budget->require(nargs * sizeof(Value));
    Array tuple;
    tuple.reserve(nargs);
    for (size_t i = 0; i < nargs; ++i) tuple.push_back(args[i].items()[row]);
    out.push_back(Value::array(std::move(tuple)));
  }
  return out.build();
}

}  // namespace

[[noreturn]] void throwExecution(ErrorCode code, const Node& n, std::string message) {
  throw PtcError(ErrorType::Execution, code, std::move(message), n.path);
}

std::string quoted(const Node& n) { return std::string("'") + opName(n) + "'"; }

const Value& operand(const Node& n, const Value* args, size_t fieldIndex) {
  static const Value kNull;
  if (fieldIndex >= n.slots.size() || n.slots[fieldIndex] < 0) return kNull;
  return args[static_cast<size_t>(n.slots[fieldIndex])];
}

Value itemValue(const Node& n, const Value& item, size_t i) {
  if (n.field.isNone() || item.isObject() || item.isNull()) return subject(n, item);
  throwExecution(ErrorCode::TypeMismatch, n,
                 quoted(n) + " reads field '" + n.field.str() + "' of each item, but item " + std::to_string(i) +
                     " is a " + typeName(item) + ", not an object. Omit 'field' to use the items themselves");
}

size_t countOperand(const Node& n, const Value* args, size_t nargs) {
  if (nargs == 0) return static_cast<size_t>(n.count);
  const Value& v = args[0];
  const char* name = n.op == Op::Nth ? "index" : (n.op == Op::Chunk ? "size" : "count");
  if (v.isInt() && v.asInt() >= 0) return static_cast<size_t>(v.asInt());
  double d = v.isNumber() ? v.asDouble() : -1;
  if (d >= 0 && d == std::floor(d)) return d >= 1.8e19 ? SIZE_MAX : static_cast<size_t>(d);
  throwExecution(ErrorCode::BadArgument, n,
                 quoted(n) + " needs '" + name + "' to be a non-negative integer, got " + describeValue(v) +
                     (v.isNumber() && d >= 0 ? " (use {\"op\": \"round\"} or compute an integer)" : ""));
}

Value readVarValue(const Node& n, const Value& v) { return n.usesPath || !n.field.isNone() ? get(n, v) : v; }

Value readField(const Node& n, const Value& in) {
  if (n.field.isNone() || in.isNull()) return n.field.isNone() ? in : Value();
  if (in.isObject()) return fieldOf(n, in);
  throwExecution(ErrorCode::TypeMismatch, n,
                 quoted(n) + " reads field '" + n.field.str() + "', but the current value is a " + typeName(in) +
                     ", not an object. Omit 'field' to use the value itself");
}

[[noreturn]] void throwTextNotNumber(const Node& n, const std::string& context, const Value& text) {
  throwExecution(ErrorCode::TextNotNumber, n,
                 quoted(n) + " " + context + " " + shortJson(text, 40) +
                     ": convert texts to numbers first with {\"op\": \"to_number\"} (e.g. {\"op\": \"map\", "
                     "\"expr\": {\"op\": \"to_number\", \"field\": ...}})");
}

[[noreturn]] void throwNoInput(const Node& n) {
  throwExecution(ErrorCode::NoInput, n,
                 "No input available for " + quoted(n) +
                     ": at the top of a program there is no current value. Give it one first, e.g. "
                     "{\"op\": \"pipe\", \"steps\": [{\"op\": \"load\", \"name\": \"...\"}, {\"op\": \"" +
                     opName(n) + "\", ...}]}");
}

const Array& expectList(const Node& n, const Value& in) {
  if (in.isArray()) return in.items();
  std::string hint = in.isObject() ? " (use {\"op\": \"get\", \"field\": ...} to reach a list inside it)" : "";
  throwExecution(ErrorCode::TypeMismatch, n, quoted(n) + " expects a list, got " + typeName(in) + hint);
}

Value objectFromFields(const Node& n, const Value* args, size_t nargs) {
  Members out;
  out.reserve(nargs);
  for (size_t i = 0; i < nargs; ++i) out.push_back(Member{n.keys[i], args[i]});
  return locatedAt(n.path, [&] { return Value::object(std::move(out)); });  // it may nest too deep
}

Value applyOp(const Node& n, const Value& in, const Value* args, size_t nargs) {
  switch (n.op) {
    case Op::Object: return objectFromFields(n, args, nargs);
    case Op::Select: return select(n, in);
    case Op::SortBy: return sortBy(n, expectList(n, in));
    case Op::First: {
      const Array& items = expectList(n, in);
      return items.empty() ? Value() : items.front();
    }
    case Op::Last: {
      const Array& items = expectList(n, in);
      return items.empty() ? Value() : items.back();
    }
    case Op::Nth: {
      const Array& items = expectList(n, in);
      size_t index = countOperand(n, args, nargs);
      return index < items.size() ? items[index] : Value();
    }
    case Op::Take: return slice(expectList(n, in), 0, countOperand(n, args, nargs));
    case Op::Drop: return slice(expectList(n, in), countOperand(n, args, nargs), SIZE_MAX);
    case Op::Median: return median(n, expectList(n, in));
    case Op::Percentile: return percentile(n, expectList(n, in));
    case Op::CountDistinct: return countDistinct(n, expectList(n, in));
    case Op::Distinct: return distinct(expectList(n, in));
    case Op::Count: return Value::integer(static_cast<int64_t>(expectList(n, in).size()));
    case Op::Sum: return sum(n, expectList(n, in));
    case Op::Avg: return avg(n, expectList(n, in));
    case Op::Min: return extreme(n, expectList(n, in), false);
    case Op::Max: return extreme(n, expectList(n, in), true);
    case Op::MinBy: return extremeBy(n, expectList(n, in), false);
    case Op::MaxBy: return extremeBy(n, expectList(n, in), true);
    case Op::Get: return get(n, in);
    case Op::Keys: return keys(n, in);
    case Op::Typeof: return Value::string(typeName(in));
    case Op::Eq:
    case Op::Neq:
    case Op::Gt:
    case Op::Gte:
    case Op::Lt:
    case Op::Lte:
    case Op::Contains:
    case Op::In:
    case Op::StartsWith:
    case Op::EndsWith: return comparison(n, in, args[0]);
    case Op::Length:
    case Op::Lower:
    case Op::Upper:
    case Op::Trim:
    case Op::Slice:
    case Op::Split:
    case Op::Join:
    case Op::Replace:
    case Op::Format: return textOp(n, valueInput(n, in, args), args);
    case Op::ToTimestamp:
    case Op::FormatDate:
    case Op::DateDiff:
    case Op::DateAdd:
    case Op::DatePart:
    case Op::DateTrunc: return dateOp(n, valueInput(n, in, args), args);
    case Op::FilterIn: return filterIn(n, in, args[0], true);
    case Op::RejectIn: return filterIn(n, in, args[0], false);
    case Op::Chunk: return locatedAt(n.path, [&] { return chunk(n, expectList(n, in), countOperand(n, args, nargs)); });
    case Op::Floor:
    case Op::Ceil: return floorOrCeil(n, valueInput(n, in, args));
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Div:
    case Op::Pct: return arithmetic(n, args[0], args[1]);
    case Op::Round: return roundOp(n, valueInput(n, in, args));
    case Op::Not: return Value::boolean(!args[0].truthy());
    case Op::Merge: return merge(n, args, nargs);
    case Op::Concat: return concat(n, args, nargs);
    case Op::Zip: return locatedAt(n.path, [&] { return zip(n, args, nargs); });  // it may nest too deep
    case Op::List: return locatedAt(n.path, [&] { return Value::array(Array(args, args + nargs)); });
    case Op::ToNumber: return toNumber(n, valueInput(n, in, args));
    case Op::ToString: return toText(n, valueInput(n, in, args));
    case Op::ToEntries: return locatedAt(n.path, [&] { return toEntries(n, in); });
    case Op::Flatten: return flatten(expectList(n, in));
    // The control operations: the evaluators run them (also cases there).
    case Op::Literal:
    case Op::Var:
    case Op::Load:
    case Op::Let:
    case Op::Pipe:
    case Op::Filter:
    case Op::Reject:
    case Op::Map:
    case Op::And:
    case Op::Or:
    case Op::If:
    case Op::Call:
    case Op::GroupBy:
    case Op::FromEntries:
    case Op::FlatMap:
    case Op::Try:
    case Op::Loop:
    case Op::Scan:
    case Op::End_: break;
  }
  throwExecution(ErrorCode::Internal, n,
                 "internal: " + (n.op < Op::End_ ? quoted(n) : std::string("End_")) + " is not a strict operation");
}

}  // namespace ptc
