// Evaluation of a compiled program.
//
// Two paths share the op semantics (ops.h): evalSync, a plain recursive
// evaluator, runs every subtree that calls no tool; evalAsync, a coroutine, runs
// only the nodes on the way to a `call` and suspends there until the host's tool
// result arrives. Many runs can be suspended at once, each owning its frames.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "coro.h"
#include "program.h"
#include "value.h"

namespace ptc {

struct ToolRequest {
  std::string tool;
  Value args;
  const Node* node = nullptr;
};

// What one run's evaluation reads and writes besides values.
struct RunState {
  Value context;  // object
  Value memory;   // object
  std::vector<std::pair<const Value*, Value>> bindings;  // let scopes, innermost last
  std::vector<Value> mapItems;  // items of the enclosing map iterations, innermost last
  std::chrono::steady_clock::time_point deadline;
  int64_t timeoutMs = 1000;
  uint32_t ticks = 0;
  int toolCalls = 0;

  // The tool call the run is suspended on, and its outcome once the host answers.
  std::optional<ToolRequest> pending;
  coro::coroutine_handle<> waiter;
  std::optional<Value> toolResult;
  std::optional<std::string> toolFailure;

  void checkDeadline() const;
};

class Evaluator {
 public:
  explicit Evaluator(RunState& state) : st_(state) {}
  Value evalSync(const Node& n, const Value& in);
  Task<Value> evalAsync(const Node& n, Value in);

 private:
  void tick() {
    if ((++st_.ticks & 1023) == 0) st_.checkDeadline();
  }
  Value lookupVar(const Value& name) const;
  // What an expression field of `n` is evaluated against: the current value,
  // except a comparison's `value`, which sees the item of the innermost map.
  const Value& operandInput(const Node& n, const Value& in) const {
    return n.valueSeesMapItem && !st_.mapItems.empty() ? st_.mapItems.back() : in;
  }
  RunState& st_;
};

}  // namespace ptc
