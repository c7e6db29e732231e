#include "ptc_json/projection.h"

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

bool isConstant(const Node& n) { return n.op == Op::Literal || n.op == Op::Var; }

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
  if (n.op != Op::Get) return false;
  if (!n.usesPath) {
    fields.insert(n.field.str());
    return true;
  }
  if (n.keys.size() != 1) return false;
  fields.insert(n.keys[0].str());
  return true;
}

// An expression of one row whose result depends only on its fields (a filter's
// `where`): comparisons of a field with a constant, and/or/not of such, reads.
bool rowPredicate(const Node& n, Fields& fields) {
  switch (n.op) {
    case Op::Literal:
    case Op::Var: return true;
    case Op::Get: return fieldRead(n, fields);
    case Op::And:
    case Op::Or:
    case Op::Not:
      return std::all_of(n.kids.begin(), n.kids.end(), [&](const auto& k) { return rowPredicate(*k, fields); });
    case Op::Eq:
    case Op::Neq:
    case Op::Gt:
    case Op::Gte:
    case Op::Lt:
    case Op::Lte:
    case Op::Contains:
    case Op::In:
    case Op::StartsWith:
    case Op::EndsWith:
      if (n.field.isNone() || !notOfTheRow(*n.kids[0])) return false;  // without a field it compares the whole row
      fields.insert(n.field.str());
      return true;
    // Anything else may see more of the row than named fields (or does not
    // read the row): not a predicate the analysis vouches for.
    case Op::Load:
    case Op::Let:
    case Op::Pipe:
    case Op::Filter:
    case Op::Reject:
    case Op::Map:
    case Op::Select:
    case Op::SortBy:
    case Op::First:
    case Op::Last:
    case Op::Nth:
    case Op::Take:
    case Op::Drop:
    case Op::Distinct:
    case Op::Count:
    case Op::Chunk:
    case Op::Scan:
    case Op::Sum:
    case Op::Avg:
    case Op::Min:
    case Op::Max:
    case Op::MinBy:
    case Op::MaxBy:
    case Op::Keys:
    case Op::Typeof:
    case Op::FilterIn:
    case Op::RejectIn:
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Div:
    case Op::Round:
    case Op::Floor:
    case Op::Ceil:
    case Op::Pct:
    case Op::If:
    case Op::Call:
    case Op::Object:
    case Op::Merge:
    case Op::Concat:
    case Op::Zip:
    case Op::List:
    case Op::ToNumber:
    case Op::ToString:
    case Op::GroupBy:
    case Op::ToEntries:
    case Op::FromEntries:
    case Op::Flatten:
    case Op::FlatMap:
    case Op::Median:
    case Op::Percentile:
    case Op::CountDistinct:
    case Op::Length:
    case Op::Lower:
    case Op::Upper:
    case Op::Trim:
    case Op::Slice:
    case Op::Split:
    case Op::Join:
    case Op::Replace:
    case Op::Format:
    case Op::ToTimestamp:
    case Op::FormatDate:
    case Op::DateDiff:
    case Op::DateAdd:
    case Op::DatePart:
    case Op::DateTrunc:
    case Op::Try:
    case Op::Loop:
    case Op::End_: return false;
  }
  return false;
}

// The map item's fields that comparison values see inside an expression
// evaluated against something else (a join: per order, filter the users on
// the order's user_id); false when one of them reads more. Comparisons under
// a nested map see that map's item instead.
bool mapItemReads(const Node& n, Fields& fields) {
  if (n.op == Op::Map || n.op == Op::FlatMap) return true;
  if (n.valueSeesMapItem && !n.kids.empty()) {
    const Node& value = *n.kids[0];
    if (!(isConstant(value) || fieldRead(value, fields))) return false;
  }
  return std::all_of(n.kids.begin(), n.kids.end(), [&](const auto& k) { return mapItemReads(*k, fields); });
}

// A `map` expression that builds a value from a row's fields only, or from
// other data looked up by them (a pipe that starts from a load or a variable).
bool rowProjection(const Node& n, Fields& fields) {
  if (fieldRead(n, fields) || n.op == Op::Literal) return true;
  if (n.op == Op::Pipe && !n.kids.empty() && !n.hasCall &&
      (n.kids[0]->op == Op::Load || n.kids[0]->op == Op::Var || n.kids[0]->op == Op::Literal))
    return mapItemReads(n, fields);
  if (n.op != Op::Object) return false;
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
  if (n.op == Op::Var && n.name.str() == name) {
    if (n.usesPath ? n.keys.size() != 1 : n.field.isNone()) return false;
    fields.insert(n.usesPath ? n.keys[0].str() : n.field.str());
  }
  return std::all_of(n.kids.begin(), n.kids.end(), [&](const auto& k) { return asReads(*k, name, fields); });
}

Flow stepOnRows(const Node& step, Fields& fields);
Flow stepOnRow(const Node& step, Fields& fields);

// What an expression evaluated against the rows makes of them: a pipe's
// steps one after another, or one step.
Flow flowFromRows(const Node& expr, Fields& fields) {
  if (expr.op != Op::Pipe) return stepOnRows(expr, fields);
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
  const bool byKey = step.kids.size() > step.keys.size();
  if (byKey ? !rowProjection(*step.kids[0], fields) : !withField(step, fields)) return Flow::Opaque;
  for (size_t i = byKey ? 1 : 0; i < step.kids.size(); ++i)
    if (flowFromRows(*step.kids[i], fields) != Flow::Settled) return Flow::Opaque;
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
  if (step.name.isString() && (step.op == Op::Filter || step.op == Op::Reject || step.op == Op::Map ||
                               step.op == Op::GroupBy || step.op == Op::FlatMap))
    if (!asReads(step, step.name.str(), fields)) return Flow::Opaque;
  switch (step.op) {
    case Op::Filter:
    case Op::Reject: return rowPredicate(*step.kids[0], fields) ? Flow::Rows : Flow::Opaque;
    case Op::FilterIn:
    case Op::RejectIn:
      return !step.field.isNone() && isConstant(*step.kids[0]) && withField(step, fields) ? Flow::Rows : Flow::Opaque;
    case Op::SortBy: return sortFields(step, fields) ? Flow::Rows : Flow::Opaque;
    case Op::GroupBy: return groupOnRows(step, fields);
    case Op::Take:
    case Op::Drop: return step.kids.empty() ? Flow::Rows : Flow::Opaque;  // a count expression sees the list
    case Op::First:
    case Op::Last: return Flow::Row;
    case Op::Nth: return step.kids.empty() ? Flow::Row : Flow::Opaque;
    case Op::MinBy:
    case Op::MaxBy: return withField(step, fields) ? Flow::Row : Flow::Opaque;
    case Op::Count: return Flow::Settled;
    case Op::Sum:
    case Op::Avg:
    case Op::Min:
    case Op::Max:
    case Op::Median:
    case Op::Percentile:
    case Op::CountDistinct: return withField(step, fields) ? Flow::Settled : Flow::Opaque;
    case Op::Select: return addKeys(step, fields);
    case Op::Map: return rowProjection(*step.kids[0], fields) ? Flow::Settled : Flow::Opaque;
    // Anything else may see a row whole (distinct, a comparison of the items,
    // get of the list) or let one escape: the list crosses whole.
    case Op::Chunk:
    case Op::Scan:
    case Op::Literal:
    case Op::Var:
    case Op::Load:
    case Op::Let:
    case Op::Pipe:
    case Op::Distinct:
    case Op::Get:
    case Op::Keys:
    case Op::Typeof:
    case Op::Eq:
    case Op::Neq:
    case Op::Gt:
    case Op::Gte:
    case Op::Lt:
    case Op::Lte:
    case Op::Contains:
    case Op::In:
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Div:
    case Op::Round:
    case Op::Floor:
    case Op::Ceil:
    case Op::Pct:
    case Op::And:
    case Op::Or:
    case Op::Not:
    case Op::If:
    case Op::Call:
    case Op::Object:
    case Op::Merge:
    case Op::Concat:
    case Op::Zip:
    case Op::List:
    case Op::ToNumber:
    case Op::ToString:
    case Op::ToEntries:
    case Op::FromEntries:
    case Op::Flatten:
    case Op::FlatMap:
    case Op::Length:
    case Op::Lower:
    case Op::Upper:
    case Op::Trim:
    case Op::Slice:
    case Op::Split:
    case Op::Join:
    case Op::StartsWith:
    case Op::EndsWith:
    case Op::Replace:
    case Op::Format:
    case Op::ToTimestamp:
    case Op::FormatDate:
    case Op::DateDiff:
    case Op::DateAdd:
    case Op::DatePart:
    case Op::DateTrunc:
    case Op::Try:
    case Op::Loop:
    case Op::End_: return Flow::Opaque;
  }
  return Flow::Opaque;
}

Flow stepOnRow(const Node& step, Fields& fields) {
  if (step.op == Op::Select) return addKeys(step, fields);
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
    if (n.op == Op::Load) whole.insert(n.name.str());  // a load nobody vouched for below
    if (n.op == Op::Pipe) {
      for (size_t i = 0; i < n.kids.size(); ++i) {
        const Node& step = *n.kids[i];
        if (step.op != Op::Load) {
          visit(step);
          continue;
        }
        Fields fields;
        if (followLoad(n, i, fields)) projected[step.name.str()].insert(fields.begin(), fields.end());
        else whole.insert(step.name.str());
      }
      return;
    }
    if (n.op == Op::Map || n.op == Op::FlatMap) {
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
