// Query planning for filters (planner.h): the compile-time marks, and the
// evaluator's planned filter, which gives the result of the plain one.
#include "ptc_json/planner.h"

#include <algorithm>
#include <cmath>

#include "ptc_json/evaluator.h"
#include "ptc_json/op_fields.h"
#include "ptc_json/op_table.h"
#include "ptc_json/ops/ops.h"

namespace ptc {

namespace {

// Lists shorter than this are scanned: an index would not pay for itself.
constexpr size_t kIndexFrom = 16;

// What the planner reads of an op is its table entry: its Control case, its
// row role, its equality (eq, neq), whether it picks the first item, its folds.
Control controlOf(const Node& n) { return specOf(n.op).control; }
Equality equalityOf(const Node& n) { return specOf(n.op).equality; }
bool proves(const Node& cmp) { return equalityOf(cmp) != Equality::None; }  // an equality: eq, neq

// The filter's condition, and a comparison's `value` (its one expression
// field: RowRole::Compare), by name.
const Node& whereOf(const Node& filter) { return *filter.kid(fieldRef(Op::Filter, "where")); }
const Node& valueOf(const Node& cmp) { return *kidNamed(cmp, "value"); }

bool mentionsVar(const Node& n, const std::string& name) {
  if (controlOf(n) == Control::Var && n.name.str() == name) return true;
  return std::any_of(n.kids.begin(), n.kids.end(), [&](const auto& k) { return mentionsVar(*k, name); });
}

// Whether an expression may read the value it is evaluated against
// (conservative: true unless it plainly does not).
bool readsItsInput(const Node& n) {
  if (!n.readsInput && n.kids.empty()) return false;  // a leaf that needs no input: literal, var, load
  if (controlOf(n) == Control::Pipe) {                // later steps read earlier ones
    const auto steps = n.kidsOf(fieldRef(Op::Pipe, "steps"));
    return !steps.empty() && readsItsInput(*steps.front());
  }
  return true;
}

// An item's `field` against `value`: the projection's Compare role.
bool isComparison(Op op) { return specOf(op).rows == RowRole::Compare; }

// A step whose value is the same list for as long as the variables in scope
// are: a loaded context value, or a variable read whole.
bool stableListStep(const Node* step) {
  if (!step) return false;
  return controlOf(*step) == Control::Load ||
         (controlOf(*step) == Control::Var && !step->usesPath && step->field.isNone());
}

void planFilter(Node& filter, const Node* before, const Node* after) {
  // A planned filter keeps the items that match (reject is left to the plain one).
  if (controlOf(filter) != Control::Filter || specOf(filter.op).rejects || filter.hasCall) return;
  const Node& cmp = whereOf(filter);
  if (!isComparison(cmp.op) || cmp.kids.size() != 1 || !cmp.valueSeesMapItem) return;
  const Node& value = valueOf(cmp);
  // `value` must not see the filter's own item: not through its `as` variable ...
  if (filter.name.isString() && mentionsVar(value, filter.name.str())) return;
  filter.plan = kPlanHoist;
  // ... nor as its input, which it is outside a map (inside one it sees the map's item).
  if (readsItsInput(value)) filter.plan |= kPlanValueReadsIn;
  // Equality cannot fail on an object's field, so the items after the first
  // match need only a look at their kind.
  if (after && specOf(after->op).picksFirst && proves(cmp)) filter.plan |= kPlanFirst;
  if (equalityOf(cmp) == Equality::Equal && !cmp.field.isNone() && stableListStep(before)) filter.plan |= kPlanIndex;
  // The folds computed from the matches: their count, or the sum of a field of them.
  const Folds fold = after ? specOf(after->op).folds : Folds::None;
  const bool foldable = fold == Folds::Count || (fold == Folds::Sum && !after->field.isNone());
  if (foldable && proves(cmp) && !cmp.field.isNone()) filter.plan |= kPlanFold;
  if (after && controlOf(*after) == Control::GroupBy && proves(cmp) && !cmp.field.isNone()) filter.plan |= kPlanGroup;
}

}  // namespace

namespace {

// `before` and `after`: the neighbouring steps when n is a step of a pipe.
void plan(Node& n, const Node* before, const Node* after) {
  planFilter(n, before, after);
  const bool pipe = controlOf(n) == Control::Pipe;
  for (size_t i = 0; i < n.kids.size(); ++i)
    plan(*n.kids[i], pipe && i > 0 ? n.kids[i - 1].get() : nullptr,
         pipe && i + 1 < n.kids.size() ? n.kids[i + 1].get() : nullptr);
}

}  // namespace

void planQueries(Node& root) { plan(root, nullptr, nullptr); }

bool indexableKey(const Value& v) {
  switch (v.kind()) {
    case Kind::None:
    case Kind::Null:
    case Kind::Bool:
    case Kind::String: return true;
    case Kind::Int: return v.asInt() >= -(int64_t{1} << 53) && v.asInt() <= (int64_t{1} << 53);
    case Kind::Double: return std::isfinite(v.asDouble());
    case Kind::Array:
    case Kind::Object: return false;
  }
  return false;
}

namespace {

bool heldBy(const Value& list, const Value& object) {
  return std::any_of(object.members().begin(), object.members().end(),
                     [&](MemberRef m) { return m.value.sameHeap(list); });
}

}  // namespace

void JoinIndexes::forget(const std::vector<std::pair<const Value*, Value>>& bindings, size_t from, const Value& context,
                         const ColumnCache* resident, const ColumnarLists* columnar, const Value& memory) {
  for (size_t b = from; b < bindings.size(); ++b) {
    const Value& v = bindings[b].second;
    if (!v.isArray()) continue;
    for (auto& [node, slot] : slots_) {
      if (!slot.index || !slot.index->list.sameHeap(v)) continue;
      bool kept = heldBy(v, context) || (resident && resident->owns(v)) || (columnar && columnar->holds(v)) ||
                  heldBy(v, memory) ||
                  std::any_of(bindings.begin(), bindings.begin() + static_cast<std::ptrdiff_t>(from),
                              [&](const auto& outer) { return outer.second.sameHeap(v); });
      if (!kept) slot.index.reset();
    }
  }
}

namespace {

// What an index takes per item of its list while it is built: the item's key,
// its link to the next position, a bucket and a node of the hash map (its
// entry, the node's link and cached hash). The keys go once it is built.
constexpr uint64_t kKeyBytes = sizeof(Value);
constexpr uint64_t kIndexBytesPerItem =
    kKeyBytes + sizeof(uint32_t) + sizeof(void*) + sizeof(std::pair<const Value, uint32_t>) + 2 * sizeof(void*);

// The field values of a list's items, in order, read as the filter reads them
// (so the first item it cannot read raises the same error); nullopt when one
// of them cannot be indexed exactly, or when the index would not fit in what
// the run may still hold (maxHeapBytes): the filter then scans, with the same
// answers, rather than fail a run that needs no index.
template <typename KeyOf>
std::unique_ptr<JoinIndexes::Index> buildIndex(RunCore& core, const Value& list, KeyOf keyOf) {
  const Array& items = list.items();
  const uint64_t bytes = kIndexBytesPerItem * items.size();
  if (const Budget* budget = Budget::current(); budget && !budget->fits(bytes)) return nullptr;
  auto index = std::make_unique<JoinIndexes::Index>();
  index->held.charge(bytes);
  std::vector<Value> keys;
  keys.reserve(items.size());
  bool exact = true;
  for (const Value& item : items) {
    core.tick();
    keys.push_back(keyOf(item));
    exact = exact && indexableKey(keys.back());
  }
  if (!exact) return nullptr;
  index->list = list;
  index->next.assign(items.size(), JoinIndexes::kEnd);
  index->heads.reserve(items.size());
  for (size_t i = items.size(); i-- > 0;) {  // backwards: each head ends up the first position
    auto [it, fresh] = index->heads.try_emplace(std::move(keys[i]), static_cast<uint32_t>(i));
    if (!fresh) {
      index->next[i] = it->second;
      it->second = static_cast<uint32_t>(i);
    }
  }
  index->held.release(kKeyBytes * items.size());  // the keys (moved into the map) are freed on return
  return index;
}

// equals, with the common case of a field against a text inline: the filter's per-row work.
inline bool fieldEquals(const Value& a, const Value& b) {
  if (a.sameHeap(b)) return true;
  if (a.isString() && b.isString()) return a.str() == b.str();
  return equals(a, b);
}

// What a folded count or sum gives; nullopt where sum raises its overflow error.
std::optional<Value> foldResult(bool summing, int64_t count, const NumberSum& total) {
  if (!summing) return Value::integer(count);
  if (!total.isFloat()) return Value::integer(total.asInt());
  if (!std::isfinite(total.asDouble())) return std::nullopt;
  return Value::number(total.asDouble());
}

// Whether a filter marked kPlanFold folds where it is: outside a map its value
// must not read the filter's input, and inside one an indexed filter (a join,
// the same list filtered again and again) pays more with its index.
bool foldsHere(const Node& filter, bool inMap) {
  if (filter.plan & kPlanIndex) return !inMap;
  return inMap || !(filter.plan & kPlanValueReadsIn);
}

// Whether a filter's equality (or, !wantEqual, inequality) on a field keeps
// each item, read from the field's cells: a value that String cells point at
// is compared with rhs once, not once per item holding it.
class CellFilter {
 public:
  CellFilter(const CellColumn& keys, const Value& rhs, bool wantEqual)
      : keys_(keys), rhs_(rhs), wantEqual_(wantEqual), kept_(keys.values->size(), -1) {}

  // Inline: this is the per-item work of a fold over a text field.
  [[gnu::always_inline]] bool keeps(size_t i) {
    if (keys_.tag(i) == RowTag::String) {
      const int8_t kept = kept_[static_cast<size_t>(keys_.cells[i])];
      if (kept >= 0) return kept;
    }
    return decide(i);
  }

 private:
  [[gnu::noinline]] bool decide(size_t i) {
    const bool kept = fieldEquals(keys_.value(i), rhs_) == wantEqual_;
    if (keys_.tag(i) == RowTag::String) kept_[static_cast<size_t>(keys_.cells[i])] = kept;
    return kept;
  }

  const CellColumn& keys_;
  const Value& rhs_;
  bool wantEqual_;
  std::vector<int8_t> kept_;  // per value: unknown yet (-1), or whether it is kept
};

// The count, or the sum of `addends` (none: count), of the `size` items whose
// key cell is (or, !wantEqual, is not) equal to rhs; nullopt at a value to sum
// that is not a number, where sum raises its error.
// A block of items at a time: first the positions of the kept ones, written
// without a branch on the filter's answer (an answer the CPU cannot predict,
// one item in eight kept, cost more than all the rest: resident W1 over 100k
// rows went from 380 to 215 µs), then the sum over those positions. The
// deadline is checked once a block after the first, as tick() would.
std::optional<Value> foldCells(size_t size, const CellColumn& keys, const std::optional<CellColumn>& addends,
                               const Value& rhs, bool wantEqual, Deadline& deadline) {
  CellFilter filter(keys, rhs, wantEqual);
  int64_t count = 0;
  NumberSum total;
  constexpr size_t kBlock = 1024;
  uint32_t kept[kBlock];  // positions of the block's kept items
  for (size_t start = 0; start < size; start += kBlock) {
    if (start != 0) deadline.checkDeadline();  // the run checked it before; a short column needs no clock
    const size_t end = std::min(size, start + kBlock);
    size_t n = 0;
    for (size_t i = start; i < end; ++i) {
      kept[n] = static_cast<uint32_t>(i);
      n += filter.keeps(i);
    }
    count += static_cast<int64_t>(n);
    if (!addends) continue;
    for (size_t k = 0; k < n; ++k) {
      const size_t i = kept[k];
      const RowTag tag = addends->tag(i);
      if (tag == RowTag::Number) total.add(cellNumber(addends->cells[i]));
      else if (tag == RowTag::Null || tag == RowTag::Absent) continue;         // sum skips nulls and missing values
      else if (const Value v = addends->value(i); v.isNumber()) total.add(v);  // a number no cell holds exactly
      else return std::nullopt;
    }
  }
  return foldResult(addends.has_value(), count, total);
}

Value probe(const JoinIndexes::Index& index, const Value& key, bool firstOnly) {
  const Array& items = index.list.items();
  ListBuilder out;
  auto it = index.heads.find(key);
  if (it != index.heads.end())
    for (uint32_t p = it->second; p != JoinIndexes::kEnd; p = index.next[p]) {
      out.push_back(items[p]);
      if (firstOnly) break;
    }
  return out.build();
}

}  // namespace

// Count or sum (of `agg`'s field) of the items the filter n keeps: its equality
// on a field against the hoisted value, tested item by item as plannedFilter
// does. nullopt at anything the plain steps treat otherwise (an item that is
// not an object, a value to sum that is not a number), so they run instead.
std::optional<Value> Evaluator::foldedFilter(const Node& n, const Node& agg, const Value& in) {
  if (!in.isArray() || in.items().empty() || !foldsHere(n, !st_.mapItems.empty())) return std::nullopt;
  const Array& items = in.items();
  const Node& cmp = whereOf(n);
  tick();
  const Value rhs = evalSync(valueOf(cmp), operandInput(cmp, items[0]));
  const bool wantEqual = equalityOf(cmp) == Equality::Equal;
  const bool summing = specOf(agg.op).folds == Folds::Sum;
  // Data that stays in the engine is read by columns: contiguous, no row visited.
  // (A loop of its own: choosing column or row on every item cost a third of its time.)
  const std::optional<CellColumn> keys = st_.columns ? st_.columns->cells(in, cmp.field) : std::nullopt;
  const std::optional<CellColumn> addends = keys && summing ? st_.columns->cells(in, agg.field) : std::nullopt;
  if (keys && (addends || !summing)) return foldCells(items.size(), *keys, addends, rhs, wantEqual, st_.core);
  int64_t count = 0;
  NumberSum total;
  const Value null;
  for (const Value& item : items) {
    tick();
    if (!item.isObject()) return std::nullopt;
    const Value* lhs = item.find(cmp.field, cmp.fieldHint);
    noteRead(cmp, lhs != nullptr, item);
    if (fieldEquals(lhs ? *lhs : null, rhs) != wantEqual) continue;
    ++count;
    if (!summing) continue;
    const Value* v = item.find(agg.field, agg.fieldHint);
    noteRead(agg, v != nullptr, item);
    if (!v || v->isNull()) continue;  // sum skips nulls and missing values
    if (!v->isNumber()) return std::nullopt;
    total.add(*v);
  }
  return foldResult(summing, count, total);
}

// group_by (groupByCells) of the items of a resident list that the filter n
// keeps: its equality on a field against the hoisted value, read from the
// field's column, gives their positions, and group_by reads its columns there.
// nullopt where the list has no columns (not resident, an item no object, no
// room) or group_by does not fold by columns: the steps then run as written.
// Over 50,000 resident rows of 14 fields, 2 in 3 kept (bench/browser.mjs):
// 30-40 ms -> ~1 ms natively; the rows were visited one by one (a cache miss each).
std::optional<Value> Evaluator::groupedFilter(const Node& n, const Node& group, const Value& in) {
  if (!st_.columns || !in.isArray() || in.items().empty() || !foldsHere(n, !st_.mapItems.empty())) return std::nullopt;
  const Array& items = in.items();
  const Node& cmp = whereOf(n);
  const std::optional<CellColumn> keys = st_.columns->cells(in, cmp.field);
  if (!keys) return std::nullopt;
  tick();
  const Value rhs = evalSync(valueOf(cmp), operandInput(cmp, items[0]));
  CellFilter filter(*keys, rhs, equalityOf(cmp) == Equality::Equal);
  Scratch scratch;
  scratch.charge(items.size() * sizeof(uint32_t));
  std::vector<uint32_t> kept(items.size());
  size_t count = 0;
  constexpr size_t kBlock = 1024;
  for (size_t start = 0; start < items.size(); start += kBlock) {
    st_.core.checkDeadline();
    const size_t end = std::min(items.size(), start + kBlock);
    for (size_t i = start; i < end; ++i) {
      kept[count] = static_cast<uint32_t>(i);
      count += filter.keeps(i);  // no branch on the answer (foldCells)
    }
  }
  return groupByCells(group, count, CachedColumns(*st_.columns, in), kept.data());
}

// After a load of a list that crossed as columns: a folded filter (as
// foldedFilter) or group_by (groupByCells) reading the cells, its rows never
// built.
std::optional<Value> Evaluator::foldedColumns(const Node& pipe, size_t& i, ColumnarList& list) {
  const Node& next = *pipe.kids[i + 1];
  if (controlOf(next) == Control::GroupBy) {
    std::optional<Value> grouped = groupByCells(next, list.size(), list);
    if (grouped) i += 1;
    return grouped;
  }
  if (!(next.plan & kPlanFold) || list.size() == 0 || !foldsHere(next, !st_.mapItems.empty())) return std::nullopt;
  const Node& agg = *pipe.kids[i + 2];
  const Node& cmp = whereOf(next);
  const bool summing = specOf(agg.op).folds == Folds::Sum;
  const std::optional<CellColumn> keys = list.cells(cmp.field);
  const std::optional<CellColumn> addends = summing ? list.cells(agg.field) : std::nullopt;
  if (!keys || (summing && !addends)) return std::nullopt;
  tick();
  // Its value does not read the filter's item (kPlanValueReadsIn is outside a
  // map): the null stands in for the first row foldedFilter would pass.
  const Value rhs = evalSync(valueOf(cmp), operandInput(cmp, Value()));
  std::optional<Value> folded =
      foldCells(list.size(), *keys, addends, rhs, equalityOf(cmp) == Equality::Equal, st_.core);
  if (folded) i += 2;
  return folded;
}

std::optional<Value> Evaluator::plannedFilter(const Node& n, const Value& in) {
  const Array& items = expectList(n, in);
  if (items.empty() || ((n.plan & kPlanValueReadsIn) && st_.mapItems.empty())) return std::nullopt;
  const Node& cmp = whereOf(n);
  // Evaluated where the plain filter evaluates it for the first item, and
  // before that item's field is read, as there.
  tick();
  const Value rhs = evalSync(valueOf(cmp), operandInput(cmp, items[0]));
  const bool firstOnly = n.plan & kPlanFirst;

  if ((n.plan & kPlanIndex) && items.size() >= kIndexFrom && indexableKey(rhs)) {
    JoinIndexes::Slot& slot = st_.joins.slot(n);
    if (!(slot.index && slot.index->list.sameHeap(in)) && slot.seen == &items && slot.refused != &items) {
      slot.index = buildIndex(st_.core, in, [&](const Value& item) { return readField(cmp, item); });
      if (!slot.index) slot.refused = &items;
    }
    slot.seen = &items;
    if (slot.index && slot.index->list.sameHeap(in)) return probe(*slot.index, rhs, firstOnly);
  }

  // Equality on a field of an object item needs no operation dispatch: the
  // field's value (no copy) against the hoisted value, as comparison() does.
  const bool fieldEquality = proves(cmp) && !cmp.field.isNone();
  const bool wantEqual = equalityOf(cmp) == Equality::Equal;
  // Data that stays in the engine is read by columns (its items are all objects).
  const std::optional<CellColumn> keys =
      fieldEquality && st_.columns ? st_.columns->cells(in, cmp.field) : std::nullopt;
  std::optional<CellFilter> byCells;
  if (keys) byCells.emplace(*keys, rhs, wantEqual);
  const Value null;
  ListBuilder out;
  for (size_t i = 0; i < items.size(); ++i) {
    tick();
    if (byCells) {
      if (!byCells->keeps(i)) continue;
    } else if (fieldEquality && items[i].isObject()) {
      const Value* lhs = items[i].find(cmp.field, cmp.fieldHint);
      noteRead(cmp, lhs != nullptr, items[i]);
      if (fieldEquals(lhs ? *lhs : null, rhs) != wantEqual) continue;
    } else if (!applyOp(cmp, items[i], &rhs, 1).truthy()) {
      continue;
    }
    out.push_back(items[i]);
    if (!firstOnly) continue;
    // What the plain filter would still raise: a field read of an item that is no object.
    if (!cmp.field.isNone())
      for (size_t j = i + 1; j < items.size(); ++j)
        if (!items[j].isObject() && !items[j].isNull()) readField(cmp, items[j]);
    break;
  }
  return out.build();
}

namespace {

// lookup's `key` of an item of `in`: a list of objects (an item that is not
// one is an error, as a filter's field read of it is).
const Value& lookupKey(const Node& n, const Array& items, size_t i, const std::string& key, bool& seen) {
  static const Value null;
  if (!items[i].isObject())
    throwExecution(
        ErrorCode::TypeMismatch, n,
        "'lookup' needs `in` to be a list of objects, but item " + std::to_string(i) + " is " + typeName(items[i]));
  const Value* v = items[i].find(key);
  seen = seen || v;
  return v ? *v : null;
}

}  // namespace

// The first item of `in` whose `key` equals the input (its field, or `value`),
// or that item's `get` field; null when none. The same list met again by this
// node (a lookup inside a map: the same "$customers" for every row) is
// indexed once, the second time, and probed from then on; a list whose keys
// cannot be hashed exactly, or a key that cannot, is scanned.
Value Evaluator::lookup(const Node& n, const Value& in, const Value* args, size_t) {
  const OpSpec& spec = specOf(n.op);
  const Value needle = valueInput(n, in, args);
  const Value& list = operand(n, args, static_cast<size_t>(fieldIndex(spec, "in")));
  if (!list.isArray())
    throwExecution(ErrorCode::TypeMismatch, n,
                   "'lookup' needs `in` to be a list of objects to search, got " + std::string(typeName(list)) +
                       (list.isNull() ? " (is the name right?)" : ""));
  const size_t getAt = static_cast<size_t>(fieldIndex(spec, "get"));
  const std::string& key = n.keys[static_cast<size_t>(fieldIndex(spec, "key"))].str();
  const Array& items = list.items();
  const Value* found = nullptr;
  bool probed = false;
  JoinIndexes::Slot& slot = st_.joins.slot(n);
  const bool indexed = slot.index && slot.index->list.sameHeap(list);
  if ((indexed || slot.seen == &items) && slot.refused != &items && indexableKey(needle) && !needle.isNull()) {
    if (!indexed) {
      bool seen = false;
      slot.index = buildIndex(st_.core, list, [&](const Value& item) {
        return lookupKey(n, items, static_cast<size_t>(&item - items.data()), key, seen);
      });
      if (!slot.index) slot.refused = &items;
    }
    if (slot.index) {
      probed = true;
      auto it = slot.index->heads.find(needle);
      if (it != slot.index->heads.end()) found = &items[it->second];
    }
  }
  if (!probed && !needle.isNull()) {  // the first time, or what cannot be indexed: a scan
    bool seen = false;
    for (size_t i = 0; i < items.size(); ++i) {
      tick();
      if (equals(lookupKey(n, items, i, key, seen), needle)) {
        found = &items[i];
        break;
      }
    }
    if (!found && !seen && !items.empty()) warnKeyNoItemHas(n, "key field", key, items[0]);
  }
  slot.seen = &items;
  if (!found) return Value();
  if (getAt >= n.keys.size() || !n.keys[getAt].isString()) return *found;
  const Value* v = found->find(n.keys[getAt].str());
  if (!v) {
    NearestNames fields(n.keys[getAt].str());
    offerKeys(fields, *found);
    warn(ErrorCode::FieldNotFound, n.path,
         "'lookup' found an item without the field '" + n.keys[getAt].str() + "' that `get` reads, so it gave null." +
             namesHint(fields, "fields of that item"));
  }
  return v ? *v : Value();
}

}  // namespace ptc
