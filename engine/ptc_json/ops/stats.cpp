// Statistics over a list: sum, avg, min, max, min_by, max_by, median,
// percentile, count_distinct. Values are read as sum reads them (itemValue):
// null and missing values are skipped, a text is an error that names to_number.
#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "core/deadline.h"
#include "core/json_pointer.h"
#include "ptc_json/ops/ops.h"

namespace ptc {

namespace {

// The numbers of the list, sorted ascending.
// Their copy is charged to the run while it lives (`scratch`).
std::vector<Value> sortedNumbers(const Node& n, const Array& items, Scratch& scratch) {
  scratch.charge(items.size() * sizeof(Value));
  std::vector<Value> numbers;
  numbers.reserve(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    tickDeadline();
    Value v = itemValue(n, items[i], i);
    if (v.isNull()) continue;
    if (v.isString()) throwTextNotNumber(n, "requires numbers, but item " + std::to_string(i) + " holds the text", v);
    if (!v.isNumber())
      throwExecution(ErrorCode::TypeMismatch, n,
                     quoted(n) + " requires numbers, but item " + std::to_string(i) + " holds " + describeValue(v));
    numbers.push_back(std::move(v));
  }
  // Its own std::sort rather than sortPositions (core/deadline.h): a median of 20k numbers
  // took 7 ms of CPU this way, 11 ms through positions and a comparison by pointer.
  std::sort(numbers.begin(), numbers.end(), [](const Value& a, const Value& b) {
    tickDeadline();
    return a.asDouble() < b.asDouble();
  });
  return numbers;
}

// The point `fraction` of the way from a to b (a <= b), finite for finite ends:
// b - a overflows when they are far apart (-1e308 and 1e308), a weighted sum
// of the ends does not.
double between(double a, double b, double fraction) {
  const double gap = b - a;
  if (std::isfinite(gap)) return a + gap * fraction;
  return a * (1 - fraction) + b * fraction;
}

// Linear interpolation between the closest ranks (numpy's default, "type 7"):
// rank = p/100 * (n-1). A rank that falls on an item returns that item as is.
Value linear(const std::vector<Value>& xs, double p) {
  double rank = p / 100.0 * static_cast<double>(xs.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(rank));
  size_t hi = std::min(lo + 1, xs.size() - 1);
  double fraction = rank - static_cast<double>(lo);
  if (fraction == 0) return xs[lo];
  return Value::number(between(xs[lo].asDouble(), xs[hi].asDouble(), fraction));
}

// Nearest rank: the smallest item with at least p% of the items at or below it.
Value nearest(const std::vector<Value>& xs, double p) {
  double rank = std::ceil(p / 100.0 * static_cast<double>(xs.size()));
  size_t index = rank <= 1 ? 0 : static_cast<size_t>(rank) - 1;
  return xs[std::min(index, xs.size() - 1)];
}

}  // namespace

Value median(const Node& n, const Array& items) {
  Scratch scratch;
  std::vector<Value> xs = sortedNumbers(n, items, scratch);
  if (xs.empty()) return Value();
  size_t mid = xs.size() / 2;
  if (xs.size() % 2 == 1) return xs[mid];
  const double a = xs[mid - 1].asDouble(), b = xs[mid].asDouble();
  // Halves first when the sum overflows: the mean of two finite numbers is finite.
  return Value::number(std::isfinite(a + b) ? (a + b) / 2.0 : a / 2.0 + b / 2.0);
}

Value percentile(const Node& n, const Array& items) {
  Scratch scratch;
  std::vector<Value> xs = sortedNumbers(n, items, scratch);
  if (xs.empty()) return Value();
  double p = n.data.asDouble();
  return n.name.isString() && n.name.str() == "nearest" ? nearest(xs, p) : linear(xs, p);
}

Value countDistinct(const Node& n, const Array& items) {
  struct Hash {
    size_t operator()(const Value& v) const { return hashValue(v); }
  };
  struct Eq {
    bool operator()(const Value& a, const Value& b) const { return equals(a, b); }
  };
  Scratch scratch;  // the set: a value and its node per distinct value
  std::unordered_set<Value, Hash, Eq> seen;
  for (size_t i = 0; i < items.size(); ++i) {
    tickDeadline();
    Value v = itemValue(n, items[i], i);
    if (!v.isNull() && seen.insert(std::move(v)).second) scratch.charge(sizeof(Value) + 32);
  }
  return Value::integer(static_cast<int64_t>(seen.size()));
}

// ---- sum, avg, min, max, min_by, max_by ----

Value sum(const Node& n, const Array& items) {
  NumberSum total;
  for (size_t i = 0; i < items.size(); ++i) {
    tickDeadline();
    Value v = itemValue(n, items[i], i);
    if (v.isNull()) continue;  // null and missing values are skipped
    if (!v.isNumber()) {
      std::string where =
          n.field.isNone() ? "item " + std::to_string(i) : "field '" + n.field.str() + "' of item " + std::to_string(i);
      if (v.isString()) throwTextNotNumber(n, "requires numbers, but " + where + " is the text", v);
      throwExecution(ErrorCode::TypeMismatch, n, "'sum' requires numbers, but " + where + " is " + typeName(v));
    }
    total.add(v);
  }
  return total.isFloat() ? number(n, total.asDouble()) : Value::integer(total.asInt());
}

namespace {

// The mean of the numbers when their sum overflows: each one divided by the
// count first, so the terms and their sum stay within the largest number.
double scaledMean(const Node& n, const Array& items, size_t count) {
  double mean = 0;
  for (const Value& item : items) {
    tickDeadline();
    Value v = subject(n, item);
    if (v.isNumber()) mean += v.asDouble() / static_cast<double>(count);
  }
  return mean;
}

}  // namespace

Value avg(const Node& n, const Array& items) {
  NumberSum total;
  size_t count = 0;
  for (const Value& item : items) {
    tickDeadline();
    Value v = subject(n, item);
    if (!v.isNumber()) continue;
    total.add(v);
    ++count;
  }
  if (count == 0) return Value();
  const double mean = total.asDouble() / static_cast<double>(count);
  return number(n, std::isfinite(mean) ? mean : scaledMean(n, items, count));
}

// Skips null and missing values; numbers and texts do not mix (orderOf).
Value extreme(const Node& n, const Array& items, bool wantMax) {
  Value best;
  for (size_t i = 0; i < items.size(); ++i) {
    Value v = itemValue(n, items[i], i);
    if (v.isNull()) continue;
    int c = best.isNull() ? 0 : orderOf(n, v, best);
    if (best.isNull() || (wantMax ? c > 0 : c < 0)) best = std::move(v);
  }
  return best;
}

Value extremeBy(const Node& n, const Array& items, bool wantMax) {
  const Value* bestItem = nullptr;
  Value bestKey;
  for (const Value& item : items) {
    tickDeadline();
    Value key = fieldOf(n, item);
    if (key.isNull()) continue;
    int c = bestItem ? orderOf(n, key, bestKey) : 0;
    if (!bestItem || (wantMax ? c > 0 : c < 0)) {
      bestItem = &item;
      bestKey = std::move(key);
    }
  }
  return bestItem ? *bestItem : Value();
}

Value applySum(const Node& n, const Value& in, const Value*, size_t) { return sum(n, expectList(n, in)); }

Value applyAvg(const Node& n, const Value& in, const Value*, size_t) { return avg(n, expectList(n, in)); }

namespace {

// min/max of the input list, or of `values` (the only expressions they have) instead.
Value extremeOf(const Node& n, const Value& in, const Value* args, size_t nargs, bool wantMax) {
  if (n.slots.empty()) return extreme(n, expectList(n, in), wantMax);
  const Array values(args, args + nargs);
  return extreme(n, values, wantMax);
}

}  // namespace

Value applyMin(const Node& n, const Value& in, const Value* args, size_t nargs) {
  return extremeOf(n, in, args, nargs, false);
}

Value applyMax(const Node& n, const Value& in, const Value* args, size_t nargs) {
  return extremeOf(n, in, args, nargs, true);
}

Value applyMinBy(const Node& n, const Value& in, const Value*, size_t) {
  return extremeBy(n, expectList(n, in), false);
}

Value applyMaxBy(const Node& n, const Value& in, const Value*, size_t) { return extremeBy(n, expectList(n, in), true); }

Value applyMedian(const Node& n, const Value& in, const Value*, size_t) { return median(n, expectList(n, in)); }

Value applyPercentile(const Node& n, const Value& in, const Value*, size_t) { return percentile(n, expectList(n, in)); }

Value applyCountDistinct(const Node& n, const Value& in, const Value*, size_t) {
  return countDistinct(n, expectList(n, in));
}

}  // namespace ptc
