// Collections: select, sort_by, first, last, nth, take, drop, distinct,
// count, chunk, filter_in, reject_in (filter, reject, map and the like run in
// the evaluators: they evaluate their expressions per item).
#include <algorithm>
#include <unordered_set>

#include "core/deadline.h"
#include "ptc_json/ops/ops.h"

namespace ptc {

namespace {

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
  for (MemberRef m : allowed.members()) keys.push_back(m.key);
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
  scratch.charge(items.size() * (k * sizeof(Value) + sizeof(uint32_t)));
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
  std::vector<uint32_t> order(items.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<uint32_t>(i);
  // Its own std::stable_sort rather than sortPositions (core/deadline.h): 20k rows by two
  // keys took 20 ms of CPU this way, 26 ms through a comparison by pointer.
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    tickDeadline();
    for (size_t j = 0; j < k; ++j)
      if (int c = compareSortKey(n, keys[a * k + j], keys[b * k + j], n.sortKeys[j].second)) return c < 0;
    return false;
  });
  ListBuilder out;
  out.reserve(items.size());
  for (uint32_t i : order) out.push_back(items[i]);
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

}  // namespace

Value applySelect(const Node& n, const Value& in, const Value*, size_t) { return select(n, in); }

Value applySortBy(const Node& n, const Value& in, const Value*, size_t) { return sortBy(n, expectList(n, in)); }

Value orderedGroups(const Node& n, Value groups) {
  if (!n.ordered) return groups;
  const Array& items = groups.items();
  Scratch scratch;
  scratch.charge(items.size() * sizeof(uint32_t));
  std::vector<uint32_t> order(items.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<uint32_t>(i);
  sortPositions(order.data(), order.size(), [&](size_t a, size_t b) {
    return compareSortKey(n, items[a].field("key"), items[b].field("key"), n.descending) < 0;
  });
  ListBuilder out;
  out.reserve(items.size());
  for (uint32_t i : order) out.push_back(items[i]);
  return out.build();
}

Value applyFirst(const Node& n, const Value& in, const Value*, size_t) {
  const Array& items = expectList(n, in);
  return items.empty() ? Value() : items.front();
}

Value applyLast(const Node& n, const Value& in, const Value*, size_t) {
  const Array& items = expectList(n, in);
  return items.empty() ? Value() : items.back();
}

Value applyNth(const Node& n, const Value& in, const Value* args, size_t nargs) {
  const Array& items = expectList(n, in);
  size_t index = countOperand(n, args, nargs);
  return index < items.size() ? items[index] : Value();
}

Value applyTake(const Node& n, const Value& in, const Value* args, size_t nargs) {
  return slice(expectList(n, in), 0, countOperand(n, args, nargs));
}

Value applyDrop(const Node& n, const Value& in, const Value* args, size_t nargs) {
  return slice(expectList(n, in), countOperand(n, args, nargs), SIZE_MAX);
}

Value applyDistinct(const Node& n, const Value& in, const Value*, size_t) { return distinct(expectList(n, in)); }

// Shares the items (no copy of them), charged as a new list of their references.
Value applyReverse(const Node& n, const Value& in, const Value* args, size_t) {
  const Value list = valueInput(n, in, args);  // a value-level op: its input, `field` or `value`
  if (list.isNull()) return list;              // null stays null, as for every value-level op
  const Array& items = expectList(n, list);
  return locatedAt(n.path, [&] {
    ListBuilder out;
    out.reserve(items.size());
    for (auto it = items.rbegin(); it != items.rend(); ++it) out.push_back(*it);
    return out.build();
  });
}

Value applyCount(const Node& n, const Value& in, const Value*, size_t) {
  return Value::integer(static_cast<int64_t>(expectList(n, in).size()));
}

Value applyChunk(const Node& n, const Value& in, const Value* args, size_t nargs) {
  return locatedAt(n.path, [&] { return chunk(n, expectList(n, in), countOperand(n, args, nargs)); });
}

Value applyFilterIn(const Node& n, const Value& in, const Value* args, size_t) {
  return filterIn(n, in, args[0], true);
}

Value applyRejectIn(const Node& n, const Value& in, const Value* args, size_t) {
  return filterIn(n, in, args[0], false);
}

}  // namespace ptc
