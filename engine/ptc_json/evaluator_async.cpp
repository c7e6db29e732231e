// The resumable evaluator: programs whose subtrees call tools evaluate here,
// suspending at each call (coro.h) while the host runs the tool. Compiled for
// size (-Oz): its time goes to waiting on tools, and a coroutine's frame code is
// large. Everything without a call evaluates synchronously (evaluator.cpp).
#include <algorithm>
#include <optional>

#include "ptc_json/evaluator.h"
#include "ptc_json/evaluator_scope.h"
#include "ptc_json/op_table.h"
#include "ptc_json/ops/ops.h"

namespace ptc {

using namespace evaluation;

Task<Value> Evaluator::caughtAsync(const Node& n, Value in, Error error) {
  const Node* handler = n.kid(field::tryCatch);
  if (!handler) co_return Value();
  const Value seen = errorValue(error);
  FieldScope scope(st_, n, field::tryCatch, nullptr, &seen);
  co_return co_await evalAsync(*handler, in);
}

Task<Value> Evaluator::loopAsync(const Node& n, Value in) {
  Value first = co_await evalAsync(*n.kid(field::loopInit), in);
  ListBuilder results;
  results.push_back(std::move(first));
  while (static_cast<int64_t>(results.size()) < n.count) {
    st_.core.checkDeadline();
    const Value latest = results.back();
    {
      FieldScope scope(st_, n, field::loopWhile, &latest);
      if (!(co_await evalAsync(*n.kid(field::loopWhile), latest)).truthy()) break;
    }
    FieldScope scope(st_, n, field::loopNext, &latest);
    Value next = co_await evalAsync(*n.kid(field::loopNext), latest);
    results.push_back(std::move(next));
  }
  co_return locatedAt(n.path, [&] { return results.build(); });
}

// for_each: never fanned out, so each item's calls are answered before the
// next item's are made.
Task<Value> Evaluator::forEachAsync(const Node& n, Value in) {
  const Array& items = expectList(n, in);
  const Node& expr = *n.kid(field::eachExpr);
  const Node* until = n.kid(field::eachUntil);
  ListBuilder out;
  for (const Value& item : items) {
    Value result;
    {
      ItemScope scope(st_, n, field::eachExpr, item);
      result = co_await evalAsync(expr, item);
    }
    const bool stop = until && (co_await evalAsync(*until, result)).truthy();
    out.push_back(std::move(result));
    if (stop) break;
  }
  co_return locatedAt(n.path, [&] { return out.build(); });
}

// One try of retry's expr: its value, or nullopt with `failed` set to the
// execution error it failed with. A coroutine of its own per try, as Try's
// case is: a frame that catches once and then only returns (clang's wasm
// coroutines do not resume a frame into a try block after a catch in it).
Task<std::optional<Value>> Evaluator::tryOnce(const Node& expr, Value in, Error& failed) {
  try {
    co_return co_await evalAsync(expr, in);
  } catch (const PtcError& e) {
    if (!catchable(st_, e)) throw;
    failed = e.error;
  }
  co_return std::nullopt;
}

// Whether retry's `when` tries the failure again (it may call tools).
Task<bool> Evaluator::retriesAsync(const Node& n, Error failed) {
  const Node* when = n.kid(field::retryWhen);
  if (!when) co_return true;
  const Value seen = errorValue(failed);
  FieldScope scope(st_, n, field::retryWhen, nullptr, &seen);
  co_return (co_await evalAsync(*when, seen)).truthy();
}

Task<Value> Evaluator::retryAsync(const Node& n, Value in) {
  Error failed;
  for (int64_t tries = 1;; ++tries) {
    st_.core.checkDeadline();
    std::optional<Value> value;
    {
      const Value number = Value::integer(tries);
      FieldScope scope(st_, n, field::retryExpr, &number);  // `as`: the try's number
      value = co_await tryOnce(*n.kid(field::retryExpr), in, failed);
    }
    if (value) co_return std::move(*value);
    const bool exhausted = tries >= n.count;
    if (exhausted || !(co_await retriesAsync(n, failed))) throwRetryGaveUp(n, std::move(failed), tries, exhausted);
  }
}

// Its operands, in order; those that call tools concurrently when several do
// (e.g. a list of calls).
Task<std::vector<Value>> Evaluator::operandsAsync(const Node& n, Value in) {
  std::vector<Value> args(n.kids.size());
  size_t calling = std::count_if(n.kids.begin(), n.kids.end(), [](const auto& k) { return k->hasCall; });
  if (fansOut(calling)) args = co_await fanOutOperands(n, in);
  else
    for (size_t i = 0; i < n.kids.size(); ++i) args[i] = co_await evalAsync(*n.kids[i], operandInput(n, in, i));
  co_return args;
}

Task<Value> Evaluator::callAsync(const Node& n, Value in) {
  std::vector<Value> args = co_await operandsAsync(n, in);
  st_.core.checkDeadline();
  // A named awaiter, not a braced temporary: g++ 12 destroys such temporaries
  // inside co_await twice.
  ToolAwaiter call{st_.core, ToolRequest{n.name.str(), objectFromFields(n, args.data(), args.size()), n.path}};
  ToolAnswer answer = co_await call;
  if (answer.failed) throwExecution(ErrorCode::ToolFailed, n, toolFailedMessage(n.name.str(), answer.message));
  // `get`: one field of the result (null when it has none), tallied for the warnings as get's reads are.
  co_return n.field.isNone() ? answer.value : fieldOf(n, answer.value);
}

// The cases of evalSync, for a subtree that calls a tool.
Task<Value> Evaluator::evalAsync(const Node& n, Value in) {
  if (!n.hasCall) co_return evalSync(n, in);
  tick();
  if (n.readsInput && in.isNone()) throwNoInput(n);
  const OpSpec& spec = specOf(n.op);
  switch (spec.control) {
    case Control::None: {
      std::vector<Value> args = co_await operandsAsync(n, in);
      co_return spec.apply(n, in, args.data(), args.size());
    }
    case Control::Call: co_return co_await callAsync(n, in);
    case Control::Let: {
      Bindings scope(st_);
      const auto values = letValues(n);
      for (size_t i = 0; i < values.size(); ++i) scope.add(&n.keys[i], co_await evalAsync(*values[i], in));
      co_return co_await evalAsync(*n.kid(field::letIn), in);
    }
    case Control::Pipe: {
      Value current = in;
      for (size_t i = 0; i < n.kids.size(); ++i) {
        if (std::optional<Value> folded = foldedSteps(n, i, current)) current = std::move(*folded);
        else current = co_await evalAsync(*n.kids[i], current);
      }
      co_return current;
    }
    case Control::Filter: {  // filter, reject
      const bool keep = !spec.rejects;
      const Node& where = *n.kid(field::where);
      const Array& items = expectList(n, in);
      ListBuilder out;
      if (fansOut(items.size())) {
        std::vector<Value> verdicts = co_await fanOutItems(n, field::where, items);
        for (size_t i = 0; i < items.size(); ++i)
          if (verdicts[i].truthy() == keep) out.push_back(items[i]);
        co_return out.build();
      }
      for (const Value& item : items) {
        ItemScope scope(st_, n, field::where, item);
        if ((co_await evalAsync(where, item)).truthy() == keep) out.push_back(item);
      }
      co_return out.build();
    }
    case Control::Map: {                                  // map, flat_map
      const bool each = spec.gives == Gives::EachResult;  // map; flat_map concatenates
      const Node& expr = *n.kid(field::mapExpr);
      const Array& items = expectList(n, in);
      ListBuilder out;
      out.reserve(items.size());
      if (fansOut(items.size())) {
        std::vector<Value> results = co_await fanOutItems(n, field::mapExpr, items);
        for (Value& v : results)
          if (each) out.push_back(std::move(v));
          else appendFlat(out, std::move(v));
      } else {
        for (const Value& item : items) {
          ItemScope scope(st_, n, field::mapExpr, item);
          if (each) out.push_back(co_await evalAsync(expr, item));
          else appendFlat(out, co_await evalAsync(expr, item));
        }
      }
      co_return locatedAt(n.path, [&] { return out.build(); });
    }
    case Control::And:
      for (const auto& c : n.kids)
        if (!(co_await evalAsync(*c, in)).truthy()) co_return Value::boolean(false);
      co_return Value::boolean(true);
    case Control::Or:
      for (const auto& c : n.kids)
        if ((co_await evalAsync(*c, in)).truthy()) co_return Value::boolean(true);
      co_return Value::boolean(false);
    case Control::If: {
      bool condition = (co_await evalAsync(*n.kid(field::ifCondition), in)).truthy();
      co_return co_await evalAsync(*n.kid(condition ? field::ifThen : field::ifElse), in);
    }
    case Control::Try: {
      std::optional<Error> failed;
      try {
        co_return co_await evalAsync(*n.kid(field::tryExpr), in);
      } catch (const PtcError& e) {  // no co_await inside a handler: catch after it
        if (!catchable(st_, e)) throw;
        failed = e.error;
      }
      co_return co_await caughtAsync(n, in, std::move(*failed));
    }
    case Control::Loop: co_return co_await loopAsync(n, in);
    case Control::ForEach: co_return co_await forEachAsync(n, in);
    case Control::Retry: co_return co_await retryAsync(n, in);
    case Control::Return: throwReturn(st_, n, co_await evalAsync(*n.kid(field::returnValue), in));
    case Control::Lookup: {
      std::vector<Value> args = co_await operandsAsync(n, in);
      co_return lookup(n, in, args.data(), args.size());
    }
    case Control::Literal:
    case Control::Var:
    case Control::Load:  // no kids: never on the way to a call
    case Control::GroupBy:
    case Control::FromEntries:
    case Control::Scan:
    case Control::Quantify:
    case Control::Reduce: co_return evalSync(n, in);  // validation keeps tool calls out (OpSpec::refusesCalls)
  }
  throwExecution(ErrorCode::Internal, n, "internal: not an operation");
}

}  // namespace ptc
