// Fan-out: evaluations that do not depend on each other (the items of a map,
// flat_map, filter or reject; the operands of an op such as list or object)
// and call tools run concurrently, so their calls are outstanding together.
//
// Each branch gets a copy of the scope state (bindings, map items): concurrent
// branches must not push and pop on one stack. Programs have no other effects
// than tool calls, so a branch sees exactly what it would see in a sequential
// run. At most maxConcurrency branches are alive at once (their frames are the
// cost), and RunCore issues at most maxConcurrency calls at once however
// fan-outs nest. Results come in item order; the error of a run is the one of
// the first failing item in ITEM order, as in a sequential run: once an item
// fails no later item starts, the items started before it run to their end
// (one of them may fail first in item order) and the results of the items
// after it are dropped. Limits (timeout, memory) end the run at once.
#include <memory>

#include "core/error.h"
#include "core/fan_out.h"
#include "ptc_json/evaluator.h"
#include "ptc_json/evaluator_scope.h"
#include "ptc_json/op_table.h"

namespace ptc {

struct FanOut : Branches {
  size_t count = 0;
  const Node* itemsOf = nullptr;  // a map/filter node: branch i binds item i for its field `body`
  FieldRef body;
  std::vector<const Node*> bodies;  // one for all branches, or one each
  std::vector<Value> inputs;        // likewise
};

namespace {

struct Branch {
  explicit Branch(const RunState& parent) : st(parent), ev(st) {}
  RunState st;
  Evaluator ev;
  std::optional<Value> value;
  std::optional<Error> error;
  std::optional<Task<bool>> task;
};

Task<bool> runBranch(Branch& b, FanOut& fan, size_t index) {
  const Node& body = *fan.bodies[fan.bodies.size() == 1 ? 0 : index];
  Value input = fan.inputs[fan.inputs.size() == 1 ? 0 : index];
  try {
    if (const Node* n = fan.itemsOf) {  // the item's scope, as ItemScope makes it
      evaluation::bindScopes(b.st, *n, fan.body, &input, nullptr);
      if (specOf(n->op).setsMapItem) b.st.mapItems.push_back(input);
    }
    Value v = co_await b.ev.evalAsync(body, input);
    b.value = std::move(v);
  } catch (...) {
    b.error = currentError();
  }
  fan.ended(index, b.error.has_value(), b.error && b.error->type != ErrorType::Execution);
  co_return true;
}

}  // namespace

Task<std::vector<Value>> Evaluator::fanOut(FanOut& fan) {
  std::vector<std::unique_ptr<Branch>> branches(fan.count);
  auto start = [&](size_t i) {
    branches[i] = std::make_unique<Branch>(st_);
    branches[i]->task.emplace(runBranch(*branches[i], fan, i));
  };
  const size_t next = co_await runBranches(fan, fan.count, static_cast<size_t>(st_.core.maxConcurrency), start);
  for (size_t i = 0; i < next; ++i)  // a limit first, then the first failure in item order
    if (fan.fatal && branches[i]->error && branches[i]->error->type != ErrorType::Execution)
      throw PtcError(*branches[i]->error);
  std::vector<Value> out(fan.count);
  for (size_t i = 0; i < next; ++i) {
    if (branches[i]->error) throw PtcError(*branches[i]->error);
    out[i] = std::move(*branches[i]->value);
  }
  co_return out;
}

Task<std::vector<Value>> Evaluator::fanOutItems(const Node& n, FieldRef body, const Array& items) {
  FanOut fan;
  fan.count = items.size();
  fan.itemsOf = &n;
  fan.body = body;
  fan.bodies = {n.kid(body)};
  fan.inputs.assign(items.begin(), items.end());
  co_return co_await fanOut(fan);
}

Task<std::vector<Value>> Evaluator::fanOutOperands(const Node& n, const Value& in) {
  FanOut fan;
  fan.count = n.kids.size();
  for (const auto& kid : n.kids) fan.bodies.push_back(kid.get());
  for (size_t i = 0; i < n.kids.size(); ++i) fan.inputs.push_back(operandInput(n, in, i));  // one per operand
  co_return co_await fanOut(fan);
}

}  // namespace ptc
