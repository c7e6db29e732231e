#include "ptc_json/evaluator.h"

#include <algorithm>
#include <array>
#include <optional>

#include "core/error.h"
#include "core/warnings.h"
#include "ptc_json/evaluator_scope.h"
#include "ptc_json/op_table.h"
#include "ptc_json/ops/ops.h"

namespace ptc {

using namespace evaluation;

Value Evaluator::lookupVar(const Node& n) const {
  const std::string& name = n.name.str();
  for (auto it = st_.bindings.rbegin(); it != st_.bindings.rend(); ++it)
    if (it->first->str() == name) return it->second;
  if (const Value* stored = st_.memory.find(name)) return *stored;
  // Null, as the spec says; the warning names what there is.
  NearestNames names(name);
  offerKeys(names, st_.memory);
  offerBindings(names, false);
  warn(ErrorCode::UnknownMemoryKey, n.path,
       "'var' reads '" + name + "', which no let or 'as' binds and memory does not hold, so it is null." +
           namesHint(names, "variables and memory keys"));
  return Value();
}

// The names of the let and 'as' bindings in scope that no other name offered
// (memory's, and the context's when `andContext`) nor an inner binding has.
void Evaluator::offerBindings(NearestNames& names, bool andContext) const {
  for (size_t i = 0; i < st_.bindings.size(); ++i) {
    const std::string& b = st_.bindings[i].first->str();
    const bool shadowed = std::any_of(st_.bindings.begin() + static_cast<std::ptrdiff_t>(i) + 1, st_.bindings.end(),
                                      [&](const auto& inner) { return inner.first->str() == b; });
    if (!shadowed && !st_.memory.find(b) && !(andContext && inContext(b))) names.offer(b);
  }
}

bool Evaluator::inContext(std::string_view key) const {
  return st_.context.find(key) || (st_.columnar && st_.columnar->find(key)) ||
         (st_.resident && st_.resident->find(key));
}

// "$name" that names no binding in scope, memory key or context key: an error
// (a text meant literally is the likelier slip than a missing key), naming
// what there is and the literal form.
void Evaluator::unknownReference(const Node& n, NearestNames& names) const {
  for (MemberRef m : st_.memory.members())
    if (!inContext(m.key.str())) names.offer(m.key.str());
  offerBindings(names, true);
  const std::string& name = n.name.str();
  throw PtcError(ErrorType::Execution, ErrorCode::UnknownVariable,
                 "\"$" + name + "\" names no let or 'as' binding, memory key or context key." +
                     namesHint(names, "names") + " For the text \"$" + name +
                     "\" itself write {\"op\": \"literal\", \"value\": \"$" + name + "\"}",
                 n.path);
}

// A context key: the run's own, one that crossed as columns (which becomes its
// list of rows here), else the resident context's, read where it is (never
// copied into the run, so a run is not charged for the keys it does not read).
Value Evaluator::loadContext(const Node& n) {
  const std::string& key = n.name.str();
  if (n.memoryFirst)
    if (const Value* stored = st_.memory.find(key)) return *stored;
  if (st_.columnar)
    if (ColumnarList* list = st_.columnar->find(key)) return list->rows();
  if (const Value* v = st_.context.find(key)) return *v;
  if (st_.resident)
    if (const Value* v = st_.resident->find(key)) return *v;
  // The keys there are, each once: a resident key the run's own shadows is not another.
  NearestNames keys(key);
  offerKeys(keys, st_.context);
  if (st_.columnar)
    for (const std::string& k : st_.columnar->names())
      if (!st_.context.find(k)) keys.offer(k);
  if (st_.resident)
    for (MemberRef m : st_.resident->members()) {
      const std::string& k = m.key.str();
      if (!st_.context.find(k) && !(st_.columnar && st_.columnar->find(k))) keys.offer(k);
    }
  if (n.memoryFirst) unknownReference(n, keys);
  warn(ErrorCode::UnknownContextKey, n.path, unknownContextKeyMessage(key, keys));
  return Value();
}

namespace {

// The groups' objects from their folded aggs; nullopt when an agg's result is
// what only its run over a list reports (an overflow).
template <typename Tick>
std::optional<Value> foldedGroups(const Node& n, Groups& groups, const GroupFolds& folds, Tick tick) {
  ListBuilder out;
  out.reserve(groups.size());
  Operands aggs(n.keys.size());
  for (size_t i = 0; i < groups.size(); ++i) {
    tick();
    if (!folds.results(i, aggs.data())) return std::nullopt;
    out.push_back(groupObject(n, groups.all()[i].key, aggs.data(), aggs.size()));
  }
  return orderedGroups(n, out.build());
}

// group_by's result with the aggs folded item by item; nullopt when one meets
// what only its run over a list reports.
template <typename KeyOf, typename Tick>
std::optional<Value> groupByFolding(const Node& n, const Array& items, KeyOf& keyOf, Tick tick) {
  Groups groups;
  GroupFolds folds(n);
  for (const Value& item : items) {
    tick();
    if (!folds.add(groups.indexOf(keyOf(item)), item)) return std::nullopt;
  }
  return foldedGroups(n, groups, folds, tick);
}

// Whether group_by n folds over columns: by a field, with aggs that fold
// (count, or sum/avg/min/max of a field).
bool foldsByColumns(const Node& n) {
  if (n.kid(field::groupKey) || n.keys.empty() || n.field.isNone()) return false;
  const auto aggs = n.kidsOf(field::groupAggs);
  return std::all_of(aggs.begin(), aggs.end(), [](const auto& agg) {
    return GroupFolds::canFold(*agg) && (!GroupFolds::readsCells(*agg) || !agg->field.isNone());
  });
}

}  // namespace

// group_by a field with folded aggregates of fields (or count) over `size`
// objects, read from their cells (a resident list's, or one that crossed as
// columns): the same groups, in the same order, as groupBy over the rows. An
// item whose key String cell points at a value finds its group once per
// value, not once per item. A block of items at a time: their groups first,
// then each agg over the block (GroupFolds::addCells), a loop with one agg's
// work in it rather than every agg's: 1.09 -> 0.65 ms over 100k resident rows.
std::optional<Value> Evaluator::groupByCells(const Node& n, size_t size, const ColumnSource& list,
                                             const uint32_t* positions) {
  if (!foldsByColumns(n)) return std::nullopt;
  const std::optional<CellColumn> keys = list.cells(n.field);
  if (!keys) return std::nullopt;
  const auto aggs = n.kidsOf(field::groupAggs);
  std::vector<CellColumn> aggCells(aggs.size(), CellColumn{});  // count's is never read
  for (size_t j = 0; j < aggs.size(); ++j) {
    if (!GroupFolds::readsCells(*aggs[j])) continue;
    std::optional<CellColumn> cells = list.cells(aggs[j]->field);
    if (!cells) return std::nullopt;
    aggCells[j] = *cells;
  }
  Groups groups;
  Scratch scratch;
  scratch.charge(keys->values->size() * sizeof(int64_t));
  std::vector<int64_t> textGroups(keys->values->size(), -1);
  auto groupOf = [&](size_t i) -> size_t {
    if (keys->tag(i) != RowTag::String) return groups.indexOf(keys->value(i));
    int64_t& group = textGroups[static_cast<size_t>(keys->cells[i])];
    if (group < 0) group = static_cast<int64_t>(groups.indexOf(keys->value(i)));
    return static_cast<size_t>(group);
  };
  GroupFolds folds(n);
  constexpr size_t kBlock = 1024;
  uint32_t blockGroups[kBlock];
  uint32_t blockAt[kBlock];  // where the block's items are in the columns
  for (size_t from = 0; from < size; from += kBlock) {
    const size_t count = std::min(kBlock, size - from);
    for (size_t k = 0; k < count; ++k) {
      tick();
      blockAt[k] = positions ? positions[from + k] : static_cast<uint32_t>(from + k);
      blockGroups[k] = static_cast<uint32_t>(groupOf(blockAt[k]));
    }
    if (!folds.addCells(blockGroups, count, groups.size(), aggCells.data(), blockAt)) return std::nullopt;
  }
  return foldedGroups(n, groups, folds, [this] { tick(); });
}

// Groups in first-seen order by a field or the `key` expression; each group's
// aggs see its items. Plain
// aggregates (GroupFolds) are folded while grouping instead; should one meet
// anything but the plain case, the lists are built and the aggs run on them, so
// errors are those (and in that order) of the aggs over lists.
Value Evaluator::groupBy(const Node& n, const Value& list) {
  const Array& items = list.items();
  // Data that stays in the engine is read by columns.
  if (st_.columns)
    if (std::optional<Value> folded = groupByCells(n, items.size(), CachedColumns(*st_.columns, list)))
      return *std::move(folded);
  const Node* key = n.kid(field::groupKey);
  auto keyOf = [&](const Value& item) {
    if (!key) return readField(n, item);
    ItemScope scope(st_, n, field::groupKey, item);
    return evalSync(*key, item);
  };
  const auto aggExprs = n.kidsOf(field::groupAggs);
  if (!n.keys.empty() &&
      std::all_of(aggExprs.begin(), aggExprs.end(), [](const auto& agg) { return GroupFolds::canFold(*agg); })) {
    if (std::optional<Value> folded = groupByFolding(n, items, keyOf, [this] { tick(); })) return *std::move(folded);
  }
  Groups groups;
  for (const Value& item : items) {
    tick();
    groups.add(keyOf(item), item);
  }
  if (n.keys.empty()) return orderedGroups(n, groups.toList());
  // Every group's list is made (and charged to the budget) before any aggregate runs.
  std::vector<Value> lists;
  lists.reserve(groups.size());
  for (size_t i = 0; i < groups.size(); ++i) lists.push_back(groups.takeItems(i));
  ListBuilder out;
  out.reserve(groups.size());
  Operands aggs(n.keys.size());
  for (size_t i = 0; i < lists.size(); ++i) {
    tick();
    for (size_t j = 0; j < aggExprs.size(); ++j) aggs[j] = evalSync(*aggExprs[j], lists[i]);
    out.push_back(groupObject(n, groups.all()[i].key, aggs.data(), aggs.size()));
  }
  return orderedGroups(n, out.build());
}

// key/value expressions read each item; without them its "key"/"value"
// members or [key, value] pair.
Value Evaluator::fromEntries(const Node& n, const Array& items) {
  Entries entries;
  const FieldRef fields[2] = {field::entryKey, field::entryValue};
  for (size_t i = 0; i < items.size(); ++i) {
    tick();
    Value parts[2];
    for (size_t part = 0; part < 2; ++part) {
      const Node* expr = n.kid(fields[part]);
      if (!expr) {
        parts[part] = entryPart(n, items[i], i, part == 0);
        continue;
      }
      ItemScope scope(st_, n, fields[part], items[i]);
      parts[part] = evalSync(*expr, items[i]);
    }
    entries.add(n, parts[0], std::move(parts[1]), i);
  }
  return entries.toObject();
}

Value Evaluator::caught(const Node& n, const Value& in, const Error& error) {
  const Node* handler = n.kid(field::tryCatch);
  if (!handler) return Value();
  const Value seen = errorValue(error);
  FieldScope scope(st_, n, field::tryCatch, nullptr, &seen);
  return evalSync(*handler, in);
}

// Each result is the current value of the next `while` and `next` (and bound
// to `as` when given).
Value Evaluator::loop(const Node& n, const Value& in) {
  const Node& whileExpr = *n.kid(field::loopWhile);
  const Node& next = *n.kid(field::loopNext);
  ListBuilder results;
  results.push_back(evalSync(*n.kid(field::loopInit), in));
  while (static_cast<int64_t>(results.size()) < n.count) {
    st_.core.checkDeadline();
    const Value latest = results.back();
    {
      FieldScope scope(st_, n, field::loopWhile, &latest);
      if (!evalSync(whileExpr, latest).truthy()) break;
    }
    FieldScope scope(st_, n, field::loopNext, &latest);
    results.push_back(evalSync(next, latest));
  }
  return locatedAt(n.path, [&] { return results.build(); });  // it may nest too deep
}

// Each item's expr sees the item as the current value and the previous
// result as `acc`: init, or null, for the first item.
Value Evaluator::scan(const Node& n, const Value& in) {
  const Array& items = expectList(n, in);
  const Node* init = n.kid(field::scanInit);
  const Node& expr = *n.kid(field::scanExpr);
  Value acc = init ? evalSync(*init, in) : Value();
  ListBuilder out;  // charged to the run's budget, as map's
  out.reserve(items.size());
  for (const Value& item : items) {
    ItemScope scope(st_, n, field::scanExpr, item, &acc);
    acc = evalSync(expr, item);
    out.push_back(acc);
  }
  return locatedAt(n.path, [&] { return out.build(); });  // it may nest too deep
}

// scan's fold without its running values: the last acc, init for an empty list.
Value Evaluator::reduce(const Node& n, const Value& in) {
  const Array& items = expectList(n, in);
  const Node* init = n.kid(field::reduceInit);
  const Node& expr = *n.kid(field::reduceExpr);
  Value acc = init ? evalSync(*init, in) : Value();
  for (const Value& item : items) {
    ItemScope scope(st_, n, field::reduceExpr, item, &acc);
    acc = evalSync(expr, item);
  }
  return acc;
}

// Each item's expr in order, one after another; `until` sees each result
// and, truthy, ends the list there (that result kept).
Value Evaluator::forEach(const Node& n, const Value& in) {
  const Array& items = expectList(n, in);
  const Node& expr = *n.kid(field::eachExpr);
  const Node* until = n.kid(field::eachUntil);
  ListBuilder out;  // charged to the run's budget, as map's
  for (const Value& item : items) {
    Value result;
    {
      ItemScope scope(st_, n, field::eachExpr, item);
      result = evalSync(expr, item);
    }
    const bool stop = until && evalSync(*until, result).truthy();
    out.push_back(std::move(result));
    if (stop) break;
  }
  return locatedAt(n.path, [&] { return out.build(); });
}

// expr against the input, tried again after an execution error that `when`
// (seeing it) accepts, at most n.count tries in all.
Value Evaluator::retry(const Node& n, const Value& in) {
  for (int64_t tries = 1;; ++tries) {
    st_.core.checkDeadline();
    try {
      const Value number = Value::integer(tries);
      FieldScope scope(st_, n, field::retryExpr, &number);  // `as`: the try's number
      return evalSync(*n.kid(field::retryExpr), in);
    } catch (const PtcError& e) {
      if (!catchable(st_, e)) throw;
      if (tries >= n.count) throwRetryGaveUp(n, e.error, tries, true);
      if (const Node* when = n.kid(field::retryWhen)) {
        const Value seen = errorValue(e.error);
        FieldScope scope(st_, n, field::retryWhen, nullptr, &seen);
        if (!evalSync(*when, seen).truthy()) throwRetryGaveUp(n, e.error, tries, false);
      }
    }
  }
}

// Pipe steps from step i that run as one: a load of a list that crossed as
// columns and the fold that reads its cells, a filter folded into the count
// or sum after it, or a filter of a resident list and the group_by after it. Their value, with i on the last of them;
// nullopt when step i runs on its own. (Folded steps never call tools: the async pipe uses it too.)
std::optional<Value> Evaluator::foldedSteps(const Node& pipe, size_t& i, const Value& current) {
  const Node& step = *pipe.kids[i];
  if (specOf(step.op).control == Control::Load && st_.columnar && i + 1 < pipe.kids.size() &&
      !(step.memoryFirst && st_.memory.find(step.name.str())))
    if (ColumnarList* list = st_.columnar->find(step.name.str())) {
      tick();
      if (std::optional<Value> folded = foldedColumns(pipe, i, *list)) return folded;
    }
  if (step.plan & kPlanFold)
    if (std::optional<Value> folded = foldedFilter(step, *pipe.kids[i + 1], current)) {
      ++i;  // the count or sum folded in
      return folded;
    }
  if (step.plan & kPlanGroup)
    if (std::optional<Value> grouped = groupedFilter(step, *pipe.kids[i + 1], current)) {
      ++i;  // the group_by folded in
      return grouped;
    }
  return std::nullopt;
}

// Strict ops: operands first, in order, then the op's function (ops/*.cpp).
// Control ops: a case each, run here (op_table.h: Control).
Value Evaluator::evalSync(const Node& n, const Value& in) {
  tick();
  if (n.readsInput && in.isNone()) throwNoInput(n);
  const OpSpec& spec = specOf(n.op);
  switch (spec.control) {
    case Control::None: {
      Operands args(n.kids.size());
      for (size_t i = 0; i < n.kids.size(); ++i) args[i] = evalSync(*n.kids[i], operandInput(n, in, i));
      return spec.apply(n, in, args.data(), args.size());
    }
    case Control::Literal: return n.data;
    case Control::Var: return readVarValue(n, lookupVar(n));
    case Control::Load: return loadContext(n);
    case Control::Let: {  // keys[i] binds the i-th binding (or `value`), seen by the later ones and `in`
      Bindings scope(st_);
      const auto values = letValues(n);
      for (size_t i = 0; i < values.size(); ++i) scope.add(&n.keys[i], evalSync(*values[i], in));
      return evalSync(*n.kid(field::letIn), in);
    }
    case Control::Pipe: {
      if (n.kids.empty()) return Value();
      Value current = in;
      for (size_t i = 0; i < n.kids.size(); ++i) {
        if (std::optional<Value> folded = foldedSteps(n, i, current)) current = std::move(*folded);
        else current = evalSync(*n.kids[i], current);
      }
      return current;
    }
    case Control::Filter: {  // filter, reject
      if (n.plan)
        if (std::optional<Value> planned = plannedFilter(n, in)) return std::move(*planned);
      const bool keep = !spec.rejects;
      const Node& where = *n.kid(field::where);
      const Array& items = expectList(n, in);
      ListBuilder out;
      for (const Value& item : items) {
        ItemScope scope(st_, n, field::where, item);
        if (evalSync(where, item).truthy() == keep) out.push_back(item);
      }
      return out.build();
    }
    case Control::Map: {                                  // map, flat_map
      const bool each = spec.gives == Gives::EachResult;  // map; flat_map concatenates
      const Node& expr = *n.kid(field::mapExpr);
      const Array& items = expectList(n, in);
      ListBuilder out;
      out.reserve(items.size());
      for (const Value& item : items) {
        ItemScope scope(st_, n, field::mapExpr, item);
        if (each) out.push_back(evalSync(expr, item));
        else appendFlat(out, evalSync(expr, item));
      }
      return locatedAt(n.path, [&] { return out.build(); });
    }
    // Ops that nest what they are given: a value too deep is refused at their node.
    case Control::GroupBy:
      return locatedAt(n.path, [&] {
        expectList(n, in);
        return groupBy(n, in);
      });
    case Control::FromEntries: return locatedAt(n.path, [&] { return fromEntries(n, expectList(n, in)); });
    case Control::Try: try { return evalSync(*n.kid(field::tryExpr), in);
      } catch (const PtcError& e) {
        if (!catchable(st_, e)) throw;
        return caught(n, in, e.error);
      }
    case Control::Loop: return loop(n, in);
    case Control::Lookup: {
      Operands args(n.kids.size());
      for (size_t i = 0; i < n.kids.size(); ++i) args[i] = evalSync(*n.kids[i], in);
      return lookup(n, in, args.data(), args.size());
    }
    case Control::Quantify: {  // any; all (rejects): stops at the first item that decides
      const bool sought = !spec.rejects;
      const Node& where = *n.kid(field::quantWhere);
      for (const Value& item : expectList(n, in)) {
        ItemScope scope(st_, n, field::quantWhere, item);
        if (evalSync(where, item).truthy() == sought) return Value::boolean(sought);
      }
      return Value::boolean(!sought);
    }
    case Control::Scan: return scan(n, in);
    case Control::Reduce: return reduce(n, in);
    case Control::ForEach: return forEach(n, in);
    case Control::Retry: return retry(n, in);
    case Control::Return: throwReturn(st_, n, evalSync(*n.kid(field::returnValue), in));
    case Control::And:
      for (const auto& c : n.kids)
        if (!evalSync(*c, in).truthy()) return Value::boolean(false);
      return Value::boolean(true);
    case Control::Or:
      for (const auto& c : n.kids)
        if (evalSync(*c, in).truthy()) return Value::boolean(true);
      return Value::boolean(false);
    case Control::If:
      return evalSync(*n.kid(evalSync(*n.kid(field::ifCondition), in).truthy() ? field::ifThen : field::ifElse), in);
    case Control::Call:
      throwExecution(ErrorCode::Internal, n, "internal: a tool call reached the synchronous evaluator");
  }
  throwExecution(ErrorCode::Internal, n, "internal: not an operation");
}

}  // namespace ptc
