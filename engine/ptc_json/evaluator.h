// Evaluation of a compiled program.
//
// Two paths share the op semantics (ops/ops.h, the op table's apply functions): evalSync, a plain recursive
// evaluator, runs every subtree that calls no tool; evalAsync, a coroutine, runs
// only the nodes on the way to a `call` and suspends there until the host's tool
// result arrives. Many runs can be suspended at once, each owning its frames.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/columns.h"
#include "core/coro.h"
#include "core/run.h"
#include "core/suggest.h"
#include "core/value.h"
#include "ptc_json/planner.h"
#include "ptc_json/program.h"

namespace ptc {

// What one PTC-JSON run's evaluation reads and writes besides values.
struct RunState {
  explicit RunState(RunCore& c) : core(c) {}
  RunCore& core;                                         // clock and tool channel
  Value context;                                         // object: the run's own
  const Value* resident = nullptr;                       // object: a resident context's keys, below the run's own
  Value memory;                                          // object
  std::vector<std::pair<const Value*, Value>> bindings;  // let scopes, innermost last
  std::vector<Value> mapItems;                           // items of the enclosing map iterations, innermost last
  JoinIndexes joins;                                     // planned filters' indexes (planner.h)
  ColumnCache* columns = nullptr;                        // of the resident context's lists, when the run has one
  ColumnarLists* columnar = nullptr;                     // context keys that crossed as columns, when any did
  // A `return` ran: the program's result. It unwinds as an execution error no
  // try or retry catches (evaluator_scope.h: catchable); the run ends with
  // this value (ProgramRun::doneError). The first return wins.
  std::optional<Value> returned;
};

struct FanOut;

class Evaluator {
 public:
  explicit Evaluator(RunState& state) : st_(state) {}
  Value evalSync(const Node& n, const Value& in);
  Task<Value> evalAsync(const Node& n, Value in);

 private:
  void tick() { st_.core.tick(); }
  Value lookupVar(const Node& n) const;
  Value groupBy(const Node& n, const Value& list);  // a list
  Value fromEntries(const Node& n, const Array& items);
  Value caught(const Node& n, const Value& in, const Error& error);
  Task<Value> caughtAsync(const Node& n, Value in, Error error);
  Value loop(const Node& n, const Value& in);
  Value scan(const Node& n, const Value& in);
  Value reduce(const Node& n, const Value& in);
  Value forEach(const Node& n, const Value& in);
  Value retry(const Node& n, const Value& in);
  std::optional<Value> plannedFilter(const Node& n, const Value& in);  // planner.cpp; nullopt: run it plainly
  // lookup over its evaluated operands: a probe of the run's index of `in` (planner.cpp).
  Value lookup(const Node& n, const Value& in, const Value* args, size_t nargs);
  // A filter marked kPlanFold and the count or sum after it, in one pass (planner.cpp).
  std::optional<Value> foldedFilter(const Node& n, const Node& agg, const Value& in);
  // The same fold, or group_by's folded aggregates, over a list that crossed
  // as columns, read without building its rows (planner.cpp). Pipe steps
  // [i+1..] after a load of it; on success `i` moves past the steps folded in.
  std::optional<Value> foldedColumns(const Node& pipe, size_t& i, ColumnarList& list);
  // Either of the above at step i of a pipe (evaluator.cpp).
  std::optional<Value> foldedSteps(const Node& pipe, size_t& i, const Value& current);
  // A filter marked kPlanGroup and the group_by after it, over a resident
  // list's columns: the kept positions, then groupByCells over them (planner.cpp).
  std::optional<Value> groupedFilter(const Node& n, const Node& group, const Value& in);
  // group_by a field with folded aggregates of fields, read from cells: of
  // the items at `positions` (size of them), or of the first `size` items.
  std::optional<Value> groupByCells(const Node& n, size_t size, const ColumnSource& list,
                                    const uint32_t* positions = nullptr);
  Value loadContext(const Node& n);
  [[noreturn]] void unknownReference(const Node& n, NearestNames& contextKeys) const;
  void offerBindings(NearestNames& names, bool andContext) const;
  bool inContext(std::string_view key) const;
  Task<Value> loopAsync(const Node& n, Value in);
  Task<Value> forEachAsync(const Node& n, Value in);
  Task<Value> retryAsync(const Node& n, Value in);
  Task<std::optional<Value>> tryOnce(const Node& expr, Value in, Error& failed);
  Task<bool> retriesAsync(const Node& n, Error failed);
  Task<std::vector<Value>> operandsAsync(const Node& n, Value in);
  Task<Value> callAsync(const Node& n, Value in);
  // Independent evaluations that call tools, run concurrently (evaluator_fanout.cpp).
  bool fansOut(size_t branches) const { return branches > 1 && st_.core.maxConcurrency > 1; }
  Task<std::vector<Value>> fanOutItems(const Node& n, FieldRef body, const Array& items);
  Task<std::vector<Value>> fanOutOperands(const Node& n, const Value& in);
  Task<std::vector<Value>> fanOut(FanOut& fan);
  // What an expression field of `n` is evaluated against: the current value,
  // except a comparison's `value` (kids[0]), which sees the item of the
  // innermost map; its `left` (kids[1]) sees the current value.
  const Value& operandInput(const Node& n, const Value& in, size_t kid = 0) const {
    return n.valueSeesMapItem && kid == 0 && !st_.mapItems.empty() ? st_.mapItems.back() : in;
  }
  RunState& st_;
};

}  // namespace ptc
