#include "ptc_json/projection.h"

#include "ptc_json/op_fields.h"
#include "ptc_json/op_table.h"

#include <algorithm>
#include <set>

namespace ptc {

namespace {

using Fields = std::set<std::string>;

// What flows along a pipe after a projectable load.
enum class Flow {
  Rows,     // the loaded items (a sublist, reordered or not)
  Row,      // one of them, or null
  Settled,  // a value built from projected fields only: nothing of a row is left
  Opaque,   // the analysis cannot follow: send the value whole
};

RowRole roleOf(const Node& n) { return specOf(n.op).rows; }
Control controlOf(const Node& n) { return specOf(n.op).control; }

constexpr FieldRef kGroupKey = fieldRef(Op::GroupBy, "key");
constexpr FieldRef kGroupAggs = fieldRef(Op::GroupBy, "aggs");

bool isConstant(const Node& n) { return roleOf(n) == RowRole::Constant; }

// Whether the node being analysed sits inside a map's expression, where a
// comparison's `value` sees the map's item instead of the compared row (set by
// Analysis::visit for the duration of a map's subtree; compilation is one
// walk on one thread).
thread_local int mapDepth = 0;
struct InsideMap {
  InsideMap() { ++mapDepth; }
  ~InsideMap() { --mapDepth; }
  InsideMap(const InsideMap&) = delete;
  InsideMap& operator=(const InsideMap&) = delete;
};

bool fieldRead(const Node& n, Fields& fields);

// A comparison value that reads nothing of the compared row: a constant, or
// inside a map a read of one field of the map's item (whose projection is the
// business of the map's own list: see mapItemReads).
bool notOfTheRow(const Node& value) {
  Fields elsewhere;
  return isConstant(value) || (mapDepth > 0 && fieldRead(value, elsewhere));
}

// Reads one field of the current value: get with a field, or a path of one key.
bool fieldRead(const Node& n, Fields& fields) {
  if (roleOf(n) != RowRole::FieldRead) return false;
  if (!n.usesPath) {
    fields.insert(n.field.str());
    return true;
  }
  if (n.keys.size() != 1 || n.keys[0].str() == "*") return false;  // "*": the whole list
  fields.insert(n.keys[0].str());
  return true;
}

// An expression of one row whose result depends only on its fields (a filter's
// `where`): comparisons of a field with a constant, and/or/not of such, reads.
bool rowPredicate(const Node& n, Fields& fields) {
  switch (roleOf(n)) {
    case RowRole::Constant: return true;
    case RowRole::FieldRead: return fieldRead(n, fields);
    case RowRole::Logic:
      return std::all_of(n.kids.begin(), n.kids.end(), [&](const auto& k) { return rowPredicate(*k, fields); });
    case RowRole::Compare:
      if (n.field.isNone() || !notOfTheRow(*kidNamed(n, "value")))
        return false;  // without a field it compares the whole row
      fields.insert(n.field.str());
      return true;
    // Anything else may see more of the row than named fields (or does not
    // read the row): not a predicate the analysis vouches for.
    case RowRole::Opaque:
    case RowRole::Filter:
    case RowRole::FilterIn:
    case RowRole::Sort:
    case RowRole::Slice:
    case RowRole::Pick:
    case RowRole::PickAt:
    case RowRole::PickBy:
    case RowRole::Count:
    case RowRole::Aggregate:
    case RowRole::Select:
    case RowRole::Map:
    case RowRole::Group: return false;
  }
  return false;
}

// The map item's fields that comparison values see inside an expression
// evaluated against something else (a join: per order, filter the users on
// the order's user_id); false when one of them reads more. Comparisons under
// a nested map see that map's item instead.
bool mapItemReads(const Node& n, Fields& fields) {
  if (specOf(n.op).setsMapItem) return true;
  if (const Node* value = n.valueSeesMapItem ? kidNamed(n, "value") : nullptr)
    if (!(isConstant(*value) || fieldRead(*value, fields))) return false;
  return std::all_of(n.kids.begin(), n.kids.end(), [&](const auto& k) { return mapItemReads(*k, fields); });
}

// A `map` expression that builds a value from a row's fields only, or from
// other data looked up by them (a pipe that starts from a load or a variable).
bool rowProjection(const Node& n, Fields& fields) {
  if (fieldRead(n, fields) || controlOf(n) == Control::Literal) return true;
  if (controlOf(n) == Control::Pipe && !n.kids.empty() && !n.hasCall) {
    const Control first = controlOf(*n.kids.front());  // the first step: what the pipe starts from
    if (first == Control::Load || first == Control::Var || first == Control::Literal) return mapItemReads(n, fields);
  }
  // An object (implicit objects compile to it) of such values.
  if (specOf(n.op).gives != Gives::KeyedKids) return false;
  return std::all_of(n.kids.begin(), n.kids.end(), [&](const auto& k) { return rowProjection(*k, fields); });
}

bool withField(const Node& n, Fields& fields) {
  if (n.field.isNone()) return false;
  fields.insert(n.field.str());
  return true;
}

Flow addKeys(const Node& n, Fields& fields) {
  for (const Value& k : n.keys) fields.insert(k.str());
  return Flow::Settled;
}

// An item bound with `as` can be read from anywhere inside the step: only
// through fields of its variable (var with a field, or a path of one key).
bool asReads(const Node& n, const std::string& name, Fields& fields) {
  if (controlOf(n) == Control::Var && n.name.str() == name) {
    if (n.usesPath ? n.keys.size() != 1 || n.keys[0].str() == "*" : n.field.isNone()) return false;
    fields.insert(n.usesPath ? n.keys[0].str() : n.field.str());
  }
  return std::all_of(n.kids.begin(), n.kids.end(), [&](const auto& k) { return asReads(*k, name, fields); });
}

Flow stepOnRows(const Node& step, Fields& fields);
Flow stepOnRow(const Node& step, Fields& fields);

// What an expression evaluated against the rows makes of them: a pipe's
// steps one after another, or one step.
Flow flowFromRows(const Node& expr, Fields& fields) {
  if (controlOf(expr) != Control::Pipe) return stepOnRows(expr, fields);
  Flow flow = Flow::Rows;
  for (size_t i = 0; i < expr.kids.size() && flow != Flow::Settled; ++i) {
    const Node& step = *expr.kids[i];
    if (step.hasCall) return Flow::Opaque;
    flow = flow == Flow::Rows ? stepOnRows(step, fields) : stepOnRow(step, fields);
    if (flow == Flow::Opaque) return flow;
  }
  return flow;
}

// group_by with aggs: the key is a field (or built from fields), each
// aggregate settles its group's rows into a value of their fields.
Flow groupOnRows(const Node& step, Fields& fields) {
  if (step.keys.empty()) return Flow::Opaque;  // without aggs the groups hold the rows
  const Node* key = step.kid(kGroupKey);
  if (key ? !rowProjection(*key, fields) : !withField(step, fields)) return Flow::Opaque;
  for (const auto& agg : step.kidsOf(kGroupAggs))
    if (flowFromRows(*agg, fields) != Flow::Settled) return Flow::Opaque;
  return Flow::Settled;
}

// sort_by: every key is a field (a key without one sorts by the whole item).
bool sortFields(const Node& step, Fields& fields) {
  for (const auto& [field, descending] : step.sortKeys) {
    if (field.isNone()) return false;
    fields.insert(field.str());
  }
  return !step.sortKeys.empty();
}

Flow stepOnRows(const Node& step, Fields& fields) {
  if (step.name.isString() && bindsAs(specOf(step.op)))
    if (!asReads(step, step.name.str(), fields)) return Flow::Opaque;
  switch (roleOf(step)) {
    case RowRole::Filter: return rowPredicate(*kidNamed(step, "where"), fields) ? Flow::Rows : Flow::Opaque;
    case RowRole::FilterIn:
      return !step.field.isNone() && isConstant(*kidNamed(step, "value")) && withField(step, fields) ? Flow::Rows
                                                                                                     : Flow::Opaque;
    case RowRole::Sort: return sortFields(step, fields) ? Flow::Rows : Flow::Opaque;
    case RowRole::Group: return groupOnRows(step, fields);
    case RowRole::Slice: return step.kids.empty() ? Flow::Rows : Flow::Opaque;  // a count expression sees the list
    case RowRole::Pick: return Flow::Row;
    case RowRole::PickAt: return step.kids.empty() ? Flow::Row : Flow::Opaque;
    case RowRole::PickBy: return withField(step, fields) ? Flow::Row : Flow::Opaque;
    case RowRole::Count: return Flow::Settled;
    case RowRole::Aggregate: return withField(step, fields) ? Flow::Settled : Flow::Opaque;
    case RowRole::Select: return addKeys(step, fields);
    case RowRole::Map: return rowProjection(*kidNamed(step, "expr"), fields) ? Flow::Settled : Flow::Opaque;
    // Anything else may see a row whole (distinct, a comparison of the items,
    // get of the list) or let one escape: the list crosses whole.
    case RowRole::Opaque:
    case RowRole::Constant:
    case RowRole::FieldRead:
    case RowRole::Logic:
    case RowRole::Compare: return Flow::Opaque;
  }
  return Flow::Opaque;
}

Flow stepOnRow(const Node& step, Fields& fields) {
  if (roleOf(step) == RowRole::Select) return addKeys(step, fields);
  return fieldRead(step, fields) ? Flow::Settled : Flow::Opaque;
}

// The steps after a load at `at` in a pipe: the fields they read, or false
// when a row may escape or be seen whole.
bool followLoad(const Node& pipe, size_t at, Fields& fields) {
  Flow flow = Flow::Rows;
  for (size_t i = at + 1; i < pipe.kids.size() && flow != Flow::Settled; ++i) {
    const Node& step = *pipe.kids[i];
    if (step.hasCall) return false;
    flow = flow == Flow::Rows ? stepOnRows(step, fields) : stepOnRow(step, fields);
    if (flow == Flow::Opaque) return false;
  }
  return flow == Flow::Settled;  // a pipe that ends on rows returns them
}

struct Analysis {
  std::map<std::string, Fields> projected;
  std::set<std::string> whole;

  void visit(const Node& n) {
    if (controlOf(n) == Control::Load) whole.insert(n.name.str());  // a load nobody vouched for below
    if (controlOf(n) == Control::Pipe) {
      for (size_t i = 0; i < n.kids.size(); ++i) {
        const Node& step = *n.kids[i];
        if (controlOf(step) != Control::Load) {
          visit(step);
          continue;
        }
        Fields fields;
        if (followLoad(n, i, fields)) projected[step.name.str()].insert(fields.begin(), fields.end());
        else whole.insert(step.name.str());
      }
      return;
    }
    if (specOf(n.op).setsMapItem) {
      InsideMap inside;
      for (const auto& k : n.kids) visit(*k);
      return;
    }
    for (const auto& k : n.kids) visit(*k);
  }
};

}  // namespace

std::map<std::string, std::vector<std::string>> projectedLoads(const Node& root) {
  Analysis a;
  a.visit(root);
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& [name, fields] : a.projected)
    if (!a.whole.count(name)) out.emplace(name, std::vector<std::string>(fields.begin(), fields.end()));
  return out;
}

}  // namespace ptc
