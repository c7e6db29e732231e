// Group and reshape: group_by's buckets and group objects, objects to and from
// entries, flatten. The iterating parts (keys, aggregates, entry expressions)
// run in the evaluator; these are the data parts.
#include <cmath>

#include "core/columns.h"
#include "core/deadline.h"
#include "core/json.h"
#include "core/json_pointer.h"
#include "ptc_json/op_fields.h"
#include "ptc_json/op_table.h"
#include "ptc_json/ops/ops.h"

namespace ptc {

namespace {
// What an entry of a hash index costs besides its key: its node and bucket.
constexpr uint64_t kGroupIndexBytes = 48;
}  // namespace

size_t Groups::indexOf(const Value& key) {
  if (key.isString())
    for (const auto& [seen, group] : recent_)
      if (seen.sameHeap(key)) return group;  // the same text value: equal, so the same group
  auto [it, fresh] = index_.try_emplace(key, groups_.size());
  if (key.isString() && recent_.size() < kRecent) recent_.emplace_back(key, it->second);
  if (fresh) {
    groups_.push_back(Group{key, {}});
    scratch_.charge(sizeof(Group) + kGroupIndexBytes);
  }
  return it->second;
}

Value Groups::takeItems(size_t i) {
  Array& items = groups_[i].items;
  scratch_.release(items.size() * sizeof(Value));
  return Value::array(std::move(items));
}

// The aggregates a fold computes: count, and sum/avg/min/max of a field or of the items.
bool GroupFolds::canFold(const Node& agg) { return specOf(agg.op).folds != Folds::None && agg.kids.empty(); }

bool GroupFolds::readsCells(const Node& agg) { return specOf(agg.op).folds != Folds::Count; }

GroupFolds::GroupFolds(const Node& n) : n_(n), aggs_(n.kidsOf(fieldRef(Op::GroupBy, "aggs"))) {}

namespace {
Folds foldOf(const Node& agg) { return specOf(agg.op).folds; }
}  // namespace

void GroupFolds::cover(size_t folds) {
  if (folds_.size() >= folds) return;
  scratch_.charge((folds - folds_.size()) * sizeof(Fold));
  folds_.resize(folds);
}

GroupFolds::Fold* GroupFolds::groupFolds(size_t group) {
  const size_t aggs = n_.keys.size();
  cover((group + 1) * aggs);
  return &folds_[group * aggs];
}

bool GroupFolds::add(size_t group, const Value& item) {
  Fold* folds = groupFolds(group);
  for (size_t j = 0; j < n_.keys.size(); ++j) {
    const Node& agg = *aggs_[j];
    if (foldOf(agg) == Folds::Count) {
      ++folds[j].count;
      continue;
    }
    // A field of a non-object item is an error of sum, min and max (itemValue).
    if (!agg.field.isNone() && !item.isObject() && !item.isNull() && foldOf(agg) != Folds::Avg) return false;
    if (!fold(folds[j], agg, agg.field.isNone() ? item : fieldOf(agg, item))) return false;
  }
  return true;
}

bool GroupFolds::addCells(const uint32_t* groups, size_t count, size_t groupCount, const CellColumn* columns,
                          const uint32_t* at) {
  const size_t aggs = n_.keys.size();
  cover(groupCount * aggs);
  for (size_t j = 0; j < aggs; ++j) {
    const Node& agg = *aggs_[j];
    Fold* folds = folds_.data() + j;
    const CellColumn& column = columns[j];
    const Folds how = foldOf(agg);
    if (how == Folds::Count) {
      for (size_t k = 0; k < count; ++k) ++folds[groups[k] * aggs].count;
      continue;
    }
    const bool numbers = how == Folds::Sum || how == Folds::Avg;
    for (size_t k = 0; k < count; ++k) {
      const size_t i = at[k];
      Fold& f = folds[groups[k] * aggs];
      if (numbers && column.tag(i) == RowTag::Number) {
        f.sum.add(cellNumber(column.cells[i]));
        f.count += how == Folds::Avg;
      } else if (!fold(f, agg, column.value(i))) {
        return false;
      }
    }
  }
  return true;
}

// One value into one agg's fold; false where the agg over a list would fail.
bool GroupFolds::fold(Fold& f, const Node& agg, Value v) {
  const Folds how = foldOf(agg);
  if (how == Folds::Avg) {
    if (v.isNumber()) f.sum.add(v), ++f.count;
  } else if (v.isNull()) {
    // skipped by sum, min and max
  } else if (how == Folds::Sum) {
    if (!v.isNumber()) return false;
    f.sum.add(v);
  } else {
    if (!f.best.isNull() && v.isNumber() != f.best.isNumber() && (v.isString() || f.best.isString()))
      return false;  // a number against a text: orderOf's error
    int c = f.best.isNull() ? 0 : compare(v, f.best);
    if (f.best.isNull() || (how == Folds::Max ? c > 0 : c < 0)) f.best = std::move(v);
  }
  return true;
}

bool GroupFolds::results(size_t group, Value* out) const {
  for (size_t j = 0; j < n_.keys.size(); ++j) {
    const Fold& f = folds_[group * n_.keys.size() + j];
    const Folds how = foldOf(*aggs_[j]);
    if (how == Folds::Count) out[j] = Value::integer(static_cast<int64_t>(f.count));
    else if (how == Folds::Sum)
      out[j] = f.sum.isFloat() ? Value::number(f.sum.asDouble()) : Value::integer(f.sum.asInt());
    else if (how == Folds::Avg)
      out[j] = f.count ? Value::number(f.sum.asDouble() / static_cast<double>(f.count)) : Value();
    else out[j] = f.best;                                                      // min, max (canFold)
    if (out[j].isNumber() && !std::isfinite(out[j].asDouble())) return false;  // the ops' overflow error
  }
  return true;
}

Value Groups::toList() {
  const Value keyName = Value::string("key");
  const Value itemsName = Value::string("items");
  ListBuilder out;
  out.reserve(groups_.size());
  for (size_t i = 0; i < groups_.size(); ++i)
    out.push_back(Value::object(Members{Member{keyName, groups_[i].key}, Member{itemsName, takeItems(i)}}));
  return out.build();
}

Value groupObject(const Node& n, const Value& key, const Value* aggs, size_t count) {
  Members out;
  out.reserve(count + 1);
  out.push_back(Member{Value::string("key"), key});
  for (size_t i = 0; i < count; ++i) out.push_back(Member{n.keys[i], aggs[i]});  // never "key" (validated)
  return Value::object(std::move(out));
}

Value entryPart(const Node& n, const Value& item, size_t index, bool key) {
  if (item.isObject()) return item.field(key ? "key" : "value");
  if (item.isArray() && item.items().size() == 2) return item.items()[key ? 0 : 1];
  throwExecution(ErrorCode::TypeMismatch, n,
                 "'from_entries' expects {\"key\": ..., \"value\": ...} objects or [key, value] pairs, but item " +
                     std::to_string(index) + " is " + describeValue(item) +
                     ". Give \"key\" and \"value\" expressions to read other items");
}

void Entries::add(const Node& n, const Value& key, Value value, size_t index) {
  std::string name;
  if (key.isString()) name = key.str();
  else if (key.isNumber() || key.isBool()) name = toJson(key);
  else
    throwExecution(ErrorCode::TypeMismatch, n,
                   "'from_entries' needs each key to be a text or a number, but the key of item " +
                       std::to_string(index) + " is " + describeValue(key));
  auto [it, fresh] = index_.try_emplace(name, members_.size());
  if (fresh) scratch_.charge(name.size() + kGroupIndexBytes + sizeof(Member));
  if (fresh) members_.push_back(Member{Value::string(std::move(name)), std::move(value)});
  else members_[it->second].value = std::move(value);
}

Value Entries::toObject() { return Value::object(std::move(members_)); }

Value toEntries(const Node& n, const Value& in) {
  if (!in.isObject())
    throwExecution(ErrorCode::TypeMismatch, n,
                   "'to_entries' expects an object, got " + std::string(typeName(in)) +
                       (in.isArray() ? " (from_entries builds an object from a list)" : ""));
  const Value keyName = Value::string("key");
  const Value valueName = Value::string("value");
  ListBuilder out;
  out.reserve(in.members().size());
  for (MemberRef m : in.members()) {
    tickDeadline();
    out.push_back(Value::object(Members{Member{keyName, m.key}, Member{valueName, m.value}}));
  }
  return out.build();
}

Value flatten(const Array& items) {
  ListBuilder out;
  for (const Value& item : items) {
    tickDeadline();
    if (item.isArray()) out.append(item.items().begin(), item.items().end());
    else out.push_back(item);
  }
  return out.build();
}

// A list of objects nested deeply enough nests too deep: refused at its node.
Value applyToEntries(const Node& n, const Value& in, const Value*, size_t) {
  return locatedAt(n.path, [&] { return toEntries(n, in); });
}

Value applyFlatten(const Node& n, const Value& in, const Value*, size_t) { return flatten(expectList(n, in)); }

}  // namespace ptc
