// Ranks and trees (issue 35): rank (positions of objects sorted by a field,
// ties shared) and descendants (everything under an id at any depth, by
// parent ids). Both build their answer in one pass over a list they hold in
// a hash map or a sorted order charged to the run's budget.
#include <algorithm>
#include <deque>
#include <numeric>
#include <unordered_map>

#include "core/deadline.h"
#include "core/warnings.h"
#include "ptc_json/op_table.h"
#include "ptc_json/ops/ops.h"

namespace ptc {

namespace {

struct ValueHash {
  size_t operator()(const Value& v) const { return hashValue(v); }
};
struct ValueEq {
  bool operator()(const Value& a, const Value& b) const { return equals(a, b); }
};
constexpr uint64_t kEntryBytes = 64;  // a hash map entry with its node and bucket, or a queue slot

// The field name an op keeps in Node::keys at the index of its Key field `name`, or `fallback`.
std::string keyField(const Node& n, const char* name, const char* fallback) {
  const int at = fieldIndex(specOf(n.op), name);
  if (at >= 0 && static_cast<size_t>(at) < n.keys.size() && n.keys[static_cast<size_t>(at)].isString())
    return n.keys[static_cast<size_t>(at)].str();
  return fallback;
}

const Value& objectItem(const Node& n, const Array& items, size_t i) {
  if (!items[i].isObject())
    throwExecution(
        ErrorCode::TypeMismatch, n,
        quoted(n) + " expects a list of objects, but item " + std::to_string(i) + " is " + typeName(items[i]));
  return items[i];
}

Value withRank(const Value& item, Value rank) {
  ObjectBuilder out(Budget::current());
  for (MemberRef m : item.members()) out.put(m.key, m.value);
  out.put(Value::string("rank"), std::move(rank));
  return out.build();
}

}  // namespace

// A field of a list's items that none of them has (a misspelt `key`, `get`,
// `parent` or `id`): warned once at the node, naming the fields they have.
void warnKeyNoItemHas(const Node& n, const char* what, const std::string& name, const Value& anItem) {
  NearestNames fields(name);
  offerKeys(fields, anItem);
  warn(ErrorCode::FieldNotFound, n.path,
       quoted(n) + " reads " + what + " '" + name + "', which no item of the list has, so nothing matched." +
           namesHint(fields, "fields of those items"));
}

Value applyRank(const Node& n, const Value& in, const Value*, size_t) {
  const Array& items = expectList(n, in);
  Scratch scratch;
  scratch.charge(items.size() * (sizeof(Value) + sizeof(uint32_t)));
  std::vector<Value> keys;
  keys.reserve(items.size());
  for (size_t i = 0; i < items.size(); ++i) keys.push_back(fieldOf(n, objectItem(n, items, i)));
  std::vector<uint32_t> order(items.size());
  std::iota(order.begin(), order.end(), 0u);
  // Stable, nulls last in either order (as sort_by).
  sortPositions(order.data(), order.size(), [&](size_t a, size_t b) {
    const Value& x = keys[a];
    const Value& y = keys[b];
    if (x.isNull() || y.isNull()) return !x.isNull() && y.isNull();
    const int c = orderOf(n, x, y);
    return n.descending ? c > 0 : c < 0;
  });
  const std::string method = n.name.isString() ? n.name.str() : "rank";
  ListBuilder out;
  out.reserve(items.size());
  int64_t rank = 0;
  int64_t dense = 0;
  for (size_t pos = 0; pos < order.size(); ++pos) {
    tickDeadline();
    const Value& key = keys[order[pos]];
    if (key.isNull()) {
      out.push_back(withRank(items[order[pos]], Value()));
      continue;
    }
    const bool tie = pos > 0 && !keys[order[pos - 1]].isNull() && orderOf(n, keys[order[pos - 1]], key) == 0;
    if (!tie) {
      rank = static_cast<int64_t>(pos) + 1;
      ++dense;
    }
    const int64_t r = method == "row" ? static_cast<int64_t>(pos) + 1 : (method == "dense" ? dense : rank);
    out.push_back(withRank(items[order[pos]], Value::integer(r)));
  }
  return out.build();
}

// Breadth first from `of`: its children in list order, then theirs. An item
// is given once (a cycle, or an id under two parents, ends there), and the
// items whose id is `of` are never given.
Value applyDescendants(const Node& n, const Value& in, const Value* args, size_t) {
  const Array& items = expectList(n, in);
  const Value& root = operand(n, args, static_cast<size_t>(fieldIndex(specOf(n.op), "of")));
  const std::string parentField = keyField(n, "parent", "parent");
  const std::string idField = keyField(n, "id", "id");
  Scratch scratch;
  scratch.charge(items.size() * (2 * kEntryBytes + sizeof(Value)));
  std::unordered_map<Value, std::vector<uint32_t>, ValueHash, ValueEq> children;
  std::vector<Value> ids(items.size());
  std::vector<bool> given(items.size(), false);
  bool parentSeen = false;
  bool idSeen = false;
  for (size_t i = 0; i < items.size(); ++i) {
    tickDeadline();
    const Value& item = objectItem(n, items, i);
    const Value* parent = item.find(parentField);
    const Value* id = item.find(idField);
    parentSeen = parentSeen || parent;
    idSeen = idSeen || id;
    if (id) ids[i] = *id;
    if (id && equals(*id, root)) given[i] = true;  // the root is not its own descendant
    if (parent && !parent->isNull()) children[*parent].push_back(static_cast<uint32_t>(i));
  }
  if (!items.empty() && !parentSeen) warnKeyNoItemHas(n, "parent field", parentField, items[0]);
  if (!items.empty() && !idSeen) warnKeyNoItemHas(n, "id field", idField, items[0]);
  ListBuilder out;
  std::deque<Value> frontier{root};
  while (!frontier.empty()) {
    tickDeadline();
    auto found = children.find(frontier.front());
    frontier.pop_front();
    if (found == children.end()) continue;
    for (uint32_t i : found->second) {
      if (given[i]) continue;
      given[i] = true;
      out.push_back(items[i]);
      if (!ids[i].isNull()) frontier.push_back(ids[i]);
    }
  }
  return out.build();
}

}  // namespace ptc
