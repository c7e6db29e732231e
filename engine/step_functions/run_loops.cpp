// The for step (§8) of a run of a step-function file: its items in order, or
// concurrently when it says "parallel" (or, unsaid, when no item can end the
// loop or the function), "where" filtering them and "break" ending the loop.
#include <algorithm>
#include <memory>

#include "core/error.h"
#include "core/json.h"
#include "core/json_pointer.h"
#include "step_functions/eval.h"
#include "step_functions/functions.h"
#include "step_functions/run.h"
#include "step_functions/text.h"

namespace ptc::step_functions {

namespace {

void bindVar(Frame& frame, const std::string& name, Value v) { frame.vars.emplace_back(&name, std::move(v)); }

// A for step without "parallel" runs its items in order: writes never
// interleave unless the file asks (issue 36; the semantics note's calls are
// "strictly sequential, in step order"). "parallel": true or a number runs them
// concurrently, verified before the run to be independent (Step::independent).
constexpr bool kUnsaidLoopsRunConcurrently = false;

bool runsConcurrently(const Step& step) {
  switch (step.order) {
    case Step::Order::InOrder: return false;
    case Step::Order::Parallel: return true;  // verified independent
    case Step::Order::Unsaid: return kUnsaidLoopsRunConcurrently && step.independent;
  }
  return false;
}

// At the end of an item, a state name's latest binding in the item is its
// value from then on: for the next item and after the loop.
void carryState(Frame& frame, const Step& step, size_t first, size_t mark) {
  for (size_t k = 0; k < step.state.size(); ++k)
    for (size_t j = frame.vars.size(); j-- > mark;)
      if (*frame.vars[j].first == step.state[k].first) {
        frame.vars[first + k].second = frame.vars[j].second;
        break;
      }
}

}  // namespace

Task<Flow> FileRun::runForStep(Frame& frame, const Step& step, size_t entry) {
  Value list;
  try {
    list = evaluate(frame, step.expr);
  } catch (const FunctionFailure& f) {
    co_return failedStep(entry, Failure{f.message, "", f.path, f.code});
  }
  if (!list.isArray())
    throw PtcError(ErrorType::Execution, ErrorCode::TypeMismatch,
                   "'for' loops over a list, got " + std::string(typeName(list)) + " " + shortJson(list),
                   step.path + "/in");
  // "state": bound before the first item, carried from item to item, still bound after the loop.
  const size_t firstState = frame.vars.size();
  try {
    for (const auto& [name, init] : step.state) bindVar(frame, name, evaluate(frame, init));
  } catch (const FunctionFailure& f) {
    co_return failedStep(entry, Failure{f.message, "", f.path, f.code});
  }
  ListBuilder collected;  // charged as it grows: nested loops yield far more items than they loop over
  if (list.items().size() > 1 && core_.maxConcurrency > 1 && runsConcurrently(step) && step.state.empty()) {
    Array items;
    try {
      items = itemsWhere(frame, step, list.items());
    } catch (const FunctionFailure& f) {
      co_return failedStep(entry, Failure{f.message, "", f.path, f.code});
    }
    Flow flow = co_await runIterationsConcurrently(frame, step, entry, items, collected);
    if (flow.kind == Flow::Kind::Fail) co_return flow;
  } else {
    frame.loops.push_back(&collected);
    for (const Value& item : list.items()) {
      size_t mark = frame.vars.size();
      bindVar(frame, step.var, item);
      Flow flow;
      bool kept = true;
      try {
        kept = !step.hasWhere || truthValue(evaluate(frame, step.where), step.path + "/where", "'where'");
      } catch (const FunctionFailure& f) {
        flow = Flow{Flow::Kind::Fail, Value(), Failure{f.message, "", f.path, f.code}};
      }
      if (kept && flow.kind == Flow::Kind::Next) flow = co_await runBlock(frame, step.body);
      carryState(frame, step, firstState, mark);
      frame.vars.resize(mark);  // the iteration's bindings end with it
      if (flow.kind == Flow::Kind::Continue || flow.kind == Flow::Kind::Next) continue;
      if (flow.kind == Flow::Kind::Break) break;  // the list keeps what was yielded
      frame.loops.pop_back();
      endTrace(entry, flow.kind == Flow::Kind::Fail ? "failure" : "value");
      co_return flow;
    }
    frame.loops.pop_back();
  }
  Value result = collected.build();
  trace_[entry].value = result;
  trace_[entry].hasValue = true;
  if (!step.let.empty()) bindVar(frame, step.let, result);
  else frame.lastForList = result;
  endTrace(entry, "value");
  co_return Flow{};
}

Array FileRun::itemsWhere(Frame& frame, const Step& step, const Array& items) {
  if (!step.hasWhere) return items;
  Array kept;
  for (const Value& item : items) {
    size_t mark = frame.vars.size();
    bindVar(frame, step.var, item);
    bool keep = truthValue(evaluate(frame, step.where), step.path + "/where", "'where'");
    frame.vars.resize(mark);
    if (keep) kept.push_back(item);
  }
  return kept;
}

// One iteration of a concurrent loop: a frame of its own (bindings, the list
// its yields go to), so that iterations do not push on one another's stacks.
struct FileRun::Iteration {
  Frame frame;
  ListBuilder yielded;
  Flow flow;
  std::optional<Error> fault;
  std::optional<Task<bool>> task;
};

Task<bool> FileRun::runIteration(Iteration& it, const Step& step, Branches& fan, size_t index) {
  try {
    Flow flow = co_await runBlock(it.frame, step.body);
    it.flow = std::move(flow);
  } catch (...) {
    it.fault = currentError();
  }
  // Its copy of the frame's bindings is not charged: an iteration that ended
  // lets it go, so the loop holds maxConcurrency copies at most, not one an item.
  std::vector<std::pair<const std::string*, Value>>().swap(it.frame.vars);
  fan.ended(index, it.fault || it.flow.kind == Flow::Kind::Fail, it.fault.has_value());
  co_return true;
}

// Iterations run concurrently, at most maxConcurrency at once; their yields
// join the list in item order. A failure of the first failing iteration in
// item order is the loop's, as in a sequential run: once one fails no later
// one starts, and those already started run to their end. A fault ends the run.
Task<Flow> FileRun::runIterationsConcurrently(Frame& frame, const Step& step, size_t entry, const Array& items,
                                              ListBuilder& collected) {
  Branches fan;
  const size_t registeredBefore = frame.undo.size();  // each item's frame starts with a copy of these
  std::vector<std::unique_ptr<Iteration>> its(items.size());
  auto start = [&](size_t i) {
    auto& it = its[i] = std::make_unique<Iteration>();
    it->frame = frame;
    it->frame.loops.push_back(&it->yielded);
    bindVar(it->frame, step.var, items[i]);
    it->task.emplace(runIteration(*it, step, fan, i));
  };
  size_t limit = static_cast<size_t>(core_.maxConcurrency);
  if (step.maxParallel > 0) limit = std::min(limit, step.maxParallel);  // the host's limit holds
  const size_t started = co_await runBranches(fan, items.size(), limit, start);
  for (size_t i = 0; i < started; ++i)
    if (its[i]->fault) throw PtcError(*its[i]->fault);
  for (size_t i = 0; i < started; ++i) {
    if (its[i]->flow.kind == Flow::Kind::Fail) {
      endTrace(entry, "failure");
      co_return std::move(its[i]->flow);
    }
    const Array& yielded = its[i]->yielded.items();
    collected.append(yielded.begin(), yielded.end());
    // Compensations its calls registered, in item order (as if the items had run in order).
    std::vector<Registered>& undo = its[i]->frame.undo;
    frame.undo.insert(frame.undo.end(), undo.begin() + static_cast<std::ptrdiff_t>(registeredBefore), undo.end());
  }
  co_return Flow{};
}

}  // namespace ptc::step_functions
