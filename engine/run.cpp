#include "run.h"

#include <algorithm>

#include "error.h"
#include "json.h"
#include "protocol.h"

namespace ptc {

namespace {

Value parseObject(std::string_view text, std::string_view what) {
  if (text.empty()) return Value::object({});
  Value v = parseJson(text, what);
  if (!v.isObject())
    throw PtcError(ErrorType::Parse, "The " + std::string(what) + " must be a JSON object, got " + typeName(v));
  return v;
}

}  // namespace

Run::Run(std::shared_ptr<const Program> program, const RunLimits& limits)
    : budget_(limits.maxHeapBytes), evaluator_(state_), program_(std::move(program)) {
  state_.timeoutMs = limits.timeoutMs;
  state_.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(limits.timeoutMs);
}

Run::~Run() {
  // Suspended frames hold values charged to budget_; free them first.
  task_.reset();
}

template <class F>
std::string Run::guarded(F&& step) {
  if (finished_) return finishWithError(Error{ErrorType::Execution, "This run has already finished", "", false, -1});
  BudgetScope scope(&budget_);
  try {
    return step();
  } catch (...) {
    return finishWithError(currentError());
  }
}

std::string Run::begin(std::string_view contextJson, std::string_view memoryJson) {
  return guarded([&] {
    state_.context = parseObject(contextJson, "context");
    state_.memory = parseObject(memoryJson, "memory");
    if (!program_->hasCall) return finish(evaluator_.evalSync(*program_->root, Value::none()));
    task_.emplace(evaluator_.evalAsync(*program_->root, Value::none()));
    return status();
  });
}

std::string Run::resume(std::string_view toolResultJson) {
  return guarded([&] {
    std::string tool = state_.pending ? state_.pending->tool : "";
    state_.toolResult = parseJson(toolResultJson, "the result of tool '" + tool + "'");
    return continueAfterTool();
  });
}

std::string Run::fail(std::string_view toolErrorMessage) {
  return guarded([&] {
    state_.toolFailure = std::string(toolErrorMessage);
    return continueAfterTool();
  });
}

std::string Run::cancel(const Error& error) {
  if (finished_) return finishWithError(error);
  BudgetScope scope(&budget_);
  return finishWithError(error);
}

std::string Run::continueAfterTool() {
  if (!state_.waiter) throw PtcError(ErrorType::Execution, "The run is not waiting for a tool");
  state_.checkDeadline();
  auto waiter = state_.waiter;
  state_.waiter = {};
  waiter.resume();
  return status();
}

std::string Run::status() {
  drainReadyCoroutines();
  if (task_->done()) return finish(task_->take());
  return callStatusJson(*state_.pending);
}

std::string Run::finish(const Value& result) {
  // The memory contract (spec 5.11) applies to the final value however it was built.
  Value returned = result;
  Members delta;
  if (result.isObject()) {
    const Value* r = result.find("result");
    for (const Member& m : result.members())
      if (!r || m.key.str() != "result") delta.push_back(m);
    if (r) returned = *r;
  }
  Members memory = state_.memory.members();
  for (const Member& d : delta) {
    auto it = std::find_if(memory.begin(), memory.end(), [&](const Member& m) { return m.key.str() == d.key.str(); });
    if (it != memory.end()) it->value = d.value;
    else memory.push_back(d);
  }
  std::string out = doneOkJson(returned, Value::object(std::move(delta)), Value::object(std::move(memory)),
                               metricsJson());
  finished_ = true;
  task_.reset();
  return out;
}

std::string Run::finishWithError(const Error& error) {
  finished_ = true;
  task_.reset();
  return doneErrorJson(error, metricsJson());
}

std::string Run::metricsJson() const {
  return "{\"memoryBytes\":" + std::to_string(budget_.peak()) + ",\"toolCalls\":" +
         std::to_string(state_.toolCalls) + "}";
}

}  // namespace ptc
