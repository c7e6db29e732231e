// The resumable evaluator: programs whose subtrees call tools evaluate here,
// suspending at each call (coro.h) while the host runs the tool. Compiled for
// size (-Oz): its time goes to waiting on tools, and a coroutine's frame code is
// large. Everything without a call evaluates synchronously (evaluator.cpp).
#include <algorithm>
#include <optional>

#include "ptc_json/evaluator.h"
#include "ptc_json/evaluator_scope.h"
#include "ptc_json/ops/ops.h"

namespace ptc {

using namespace evaluation;

Task<Value> Evaluator::caughtAsync(const Node& n, Value in, Error error) {
  if (n.kids.size() < 2) co_return Value();
  Bindings scope(st_);
  scope.add(&n.name, errorValue(error));
  co_return co_await evalAsync(*n.kids[1], in);
}

Task<Value> Evaluator::loopAsync(const Node& n, Value in) {
  Value first = co_await evalAsync(*n.kids[0], in);
  ListBuilder results;
  results.push_back(std::move(first));
  while (static_cast<int64_t>(results.size()) < n.count) {
    st_.core.checkDeadline();
    ItemScope scope(st_, n, results.back());
    if (!(co_await evalAsync(*n.kids[2], results.back())).truthy()) break;
    Value next = co_await evalAsync(*n.kids[1], results.back());
    results.push_back(std::move(next));
  }
  co_return locatedAt(n.path, [&] { return results.build(); });
}

Task<Value> Evaluator::evalAsync(const Node& n, Value in) {
  if (!n.hasCall) co_return evalSync(n, in);
  tick();
  if (n.readsInput && in.isNone()) throwNoInput(n);
  switch (n.op) {
    case Op::Let: {
      Bindings scope(st_);
      for (size_t i = 0; i < n.keys.size(); ++i) scope.add(&n.keys[i], co_await evalAsync(*n.kids[i], in));
      co_return co_await evalAsync(*n.kids[n.keys.size()], in);
    }
    case Op::Pipe: {
      Value current = in;
      for (size_t i = 0; i < n.kids.size(); ++i) {
        if (std::optional<Value> folded = foldedSteps(n, i, current)) current = std::move(*folded);
        else current = co_await evalAsync(*n.kids[i], current);
      }
      co_return current;
    }
    case Op::Filter:
    case Op::Reject: {
      const bool keep = n.op == Op::Filter;
      const Array& items = expectList(n, in);
      ListBuilder out;
      if (fansOut(items.size())) {
        std::vector<Value> verdicts = co_await fanOutItems(n, items);
        for (size_t i = 0; i < items.size(); ++i)
          if (verdicts[i].truthy() == keep) out.push_back(items[i]);
        co_return out.build();
      }
      for (const Value& item : items) {
        ItemScope scope(st_, n, item);
        if ((co_await evalAsync(*n.kids[0], item)).truthy() == keep) out.push_back(item);
      }
      co_return out.build();
    }
    case Op::Map:
    case Op::FlatMap: {
      const Array& items = expectList(n, in);
      ListBuilder out;
      out.reserve(items.size());
      if (fansOut(items.size())) {
        std::vector<Value> results = co_await fanOutItems(n, items);
        for (Value& v : results)
          if (n.op == Op::Map) out.push_back(std::move(v));
          else appendFlat(out, std::move(v));
      } else {
        for (const Value& item : items) {
          ItemScope scope(st_, n, item);
          if (n.op == Op::Map) out.push_back(co_await evalAsync(*n.kids[0], item));
          else appendFlat(out, co_await evalAsync(*n.kids[0], item));
        }
      }
      co_return locatedAt(n.path, [&] { return out.build(); });
    }
    case Op::And:
      for (const auto& c : n.kids)
        if (!(co_await evalAsync(*c, in)).truthy()) co_return Value::boolean(false);
      co_return Value::boolean(true);
    case Op::Or:
      for (const auto& c : n.kids)
        if ((co_await evalAsync(*c, in)).truthy()) co_return Value::boolean(true);
      co_return Value::boolean(false);
    case Op::If: {
      bool condition = (co_await evalAsync(*n.kids[0], in)).truthy();
      co_return co_await evalAsync(*n.kids[condition ? 1 : 2], in);
    }
    case Op::Try: {
      std::optional<Error> failed;
      try {
        co_return co_await evalAsync(*n.kids[0], in);
      } catch (const PtcError& e) {  // no co_await inside a handler: catch after it
        if (!catchable(e)) throw;
        failed = e.error;
      }
      co_return co_await caughtAsync(n, in, std::move(*failed));
    }
    case Op::Loop: co_return co_await loopAsync(n, in);
    case Op::Literal:
    case Op::Var:
    case Op::Load:  // no kids: never on the way to a call
    case Op::GroupBy:
    case Op::FromEntries:
    case Op::Scan:
      co_return evalSync(n, in);  // validation keeps tool calls out of them
    // A call, and the strict operations: operands first, in order.
    case Op::Call:
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
    case Op::Sum:
    case Op::Avg:
    case Op::Min:
    case Op::Max:
    case Op::MinBy:
    case Op::MaxBy:
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
    case Op::Not:
    case Op::Object:
    case Op::Merge:
    case Op::Concat:
    case Op::Zip:
    case Op::List:
    case Op::ToNumber:
    case Op::ToString:
    case Op::ToEntries:
    case Op::Flatten:
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
    case Op::StartsWith:
    case Op::EndsWith:
    case Op::Replace:
    case Op::Format:
    case Op::ToTimestamp:
    case Op::FormatDate:
    case Op::DateDiff:
    case Op::DateAdd:
    case Op::DatePart:
    case Op::DateTrunc: {
      std::vector<Value> args(n.kids.size());
      size_t calling = std::count_if(n.kids.begin(), n.kids.end(), [](const auto& k) { return k->hasCall; });
      if (fansOut(calling)) args = co_await fanOutOperands(n, in);  // e.g. a list of calls
      else
        for (size_t i = 0; i < n.kids.size(); ++i) args[i] = co_await evalAsync(*n.kids[i], operandInput(n, in));
      if (n.op == Op::Call) {
        st_.core.checkDeadline();
        // A named awaiter, not a braced temporary: g++ 12 destroys such temporaries
        // inside co_await twice.
        ToolAwaiter call{st_.core, ToolRequest{n.name.str(), objectFromFields(n, args.data(), args.size()), n.path}};
        ToolAnswer answer = co_await call;
        if (answer.failed)
          throwExecution(ErrorCode::ToolFailed, n, "Tool '" + n.name.str() + "' failed: " + answer.message);
        co_return answer.value;
      }
      co_return applyOp(n, in, args.data(), args.size());
    }
    case Op::End_: break;
  }
  throwExecution(ErrorCode::Internal, n, "internal: not an operation");
}

}  // namespace ptc
