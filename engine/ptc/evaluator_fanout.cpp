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
#include "ptc/evaluator.h"

namespace ptc {

struct FanOut {
  size_t count = 0;
  const Node* itemsOf = nullptr;    // a map/filter node: branch i binds item i
  std::vector<const Node*> bodies;  // one for all branches, or one each
  std::vector<Value> inputs;        // likewise
  size_t finished = 0;
  size_t firstFailed = SIZE_MAX;  // the lowest index whose branch failed
  bool fatal = false;             // a branch hit a limit: the run ends
  coro::coroutine_handle<> waiter;
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

// Resumes the fan-out once a branch has finished since it last looked.
struct BranchFinished {
  FanOut& fan;
  size_t seen;
  bool await_ready() const noexcept { return fan.finished > seen; }
  void await_suspend(coro::coroutine_handle<> h) noexcept { fan.waiter = h; }
  void await_resume() const noexcept {}
};

Task<bool> runBranch(Branch& b, FanOut& fan, size_t index) {
  const Node& body = *fan.bodies[fan.bodies.size() == 1 ? 0 : index];
  Value input = fan.inputs[fan.inputs.size() == 1 ? 0 : index];
  try {
    if (const Node* n = fan.itemsOf) {  // the item's scope, as ItemScope makes it
      if (n->name.isString()) b.st.bindings.emplace_back(&n->name, input);
      if (n->op == Op::Map || n->op == Op::FlatMap) b.st.mapItems.push_back(input);
    }
    Value v = co_await b.ev.evalAsync(body, input);
    b.value = std::move(v);
  } catch (...) {
    b.error = currentError();
  }
  if (b.error) {
    fan.firstFailed = std::min(fan.firstFailed, index);
    if (b.error->type != ErrorType::Execution) fan.fatal = true;
  }
  ++fan.finished;
  if (auto w = std::exchange(fan.waiter, {})) readyCoroutines().push_back(w);
  co_return true;
}

}  // namespace

Task<std::vector<Value>> Evaluator::fanOut(FanOut& fan) {
  const size_t window = static_cast<size_t>(st_.core.maxConcurrency);
  std::vector<std::unique_ptr<Branch>> branches(fan.count);
  size_t next = 0;
  for (;;) {
    while (next < fan.count && next - fan.finished < window && next < fan.firstFailed && !fan.fatal) {
      auto& b = branches[next];
      b = std::make_unique<Branch>(st_);
      b->task.emplace(runBranch(*b, fan, next));
      ++next;
    }
    if (fan.fatal) break;
    if (fan.finished == next) break;
    BranchFinished wait{fan, fan.finished};
    co_await wait;
  }
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

Task<std::vector<Value>> Evaluator::fanOutItems(const Node& n, const Array& items) {
  FanOut fan;
  fan.count = items.size();
  fan.itemsOf = &n;
  fan.bodies = {n.kids[0].get()};
  fan.inputs.assign(items.begin(), items.end());
  co_return co_await fanOut(fan);
}

Task<std::vector<Value>> Evaluator::fanOutOperands(const Node& n, const Value& in) {
  FanOut fan;
  fan.count = n.kids.size();
  for (const auto& kid : n.kids) fan.bodies.push_back(kid.get());
  fan.inputs = {operandInput(n, in)};
  co_return co_await fanOut(fan);
}

}  // namespace ptc
