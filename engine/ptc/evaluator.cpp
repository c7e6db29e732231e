#include "ptc/evaluator.h"

#include <array>

#include "core/error.h"
#include "ptc/ops.h"

namespace ptc {

namespace {

// A let binding for the duration of a scope (also across suspensions).
class Binding {
 public:
  Binding(RunState& st, const Value* name, Value v) : st_(st) { st_.bindings.emplace_back(name, std::move(v)); }
  ~Binding() { st_.bindings.pop_back(); }
  Binding(const Binding&) = delete;
  Binding& operator=(const Binding&) = delete;

 private:
  RunState& st_;
};

// The item of a map iteration, visible to comparison values inside it.
class MapItem {
 public:
  MapItem(RunState& st, const Value& item) : st_(st) { st_.mapItems.push_back(item); }
  ~MapItem() { st_.mapItems.pop_back(); }
  MapItem(const MapItem&) = delete;
  MapItem& operator=(const MapItem&) = delete;

 private:
  RunState& st_;
};

// Operands of a strict op: inline for the common small counts.
class Operands {
 public:
  explicit Operands(size_t n) : n_(n) {
    if (n > small_.size()) big_.resize(n);
  }
  Value* data() { return n_ > small_.size() ? big_.data() : small_.data(); }
  Value& operator[](size_t i) { return data()[i]; }
  size_t size() const { return n_; }

 private:
  size_t n_;
  std::array<Value, 3> small_;
  std::vector<Value> big_;
};

}  // namespace

Value Evaluator::lookupVar(const Value& name) const {
  for (auto it = st_.bindings.rbegin(); it != st_.bindings.rend(); ++it)
    if (it->first->str() == name.str()) return it->second;
  return st_.memory.field(name.str());
}

Value Evaluator::evalSync(const Node& n, const Value& in) {
  tick();
  if (n.readsInput && in.isNone()) throwNoInput(n);
  switch (n.op) {
    case Op::Literal: return n.data;
    case Op::Var: return lookupVar(n.name);
    case Op::Load: return st_.context.field(n.name.str());
    case Op::Let: {
      Binding b(st_, &n.name, evalSync(*n.kids[0], in));
      return evalSync(*n.kids[1], in);
    }
    case Op::Pipe: {
      if (n.kids.empty()) return Value();
      Value current = in;
      for (const auto& step : n.kids) current = evalSync(*step, current);
      return current;
    }
    case Op::Filter:
    case Op::Reject: {
      const bool keep = n.op == Op::Filter;
      const Array& items = expectList(n, in);
      Array out;
      for (const Value& item : items)
        if (evalSync(*n.kids[0], item).truthy() == keep) out.push_back(item);
      return Value::array(std::move(out));
    }
    case Op::Map: {
      const Array& items = expectList(n, in);
      Array out;
      out.reserve(items.size());
      for (const Value& item : items) {
        MapItem scope(st_, item);
        out.push_back(evalSync(*n.kids[0], item));
      }
      return Value::array(std::move(out));
    }
    case Op::And:
      for (const auto& c : n.kids)
        if (!evalSync(*c, in).truthy()) return Value::boolean(false);
      return Value::boolean(true);
    case Op::Or:
      for (const auto& c : n.kids)
        if (evalSync(*c, in).truthy()) return Value::boolean(true);
      return Value::boolean(false);
    case Op::If: return evalSync(*n.kids[evalSync(*n.kids[0], in).truthy() ? 1 : 2], in);
    case Op::Call: throwExecution(n, "internal: a tool call reached the synchronous evaluator");
    // The strict operations: operands first, in order, then ops.h.
    case Op::Select: case Op::SortBy: case Op::First: case Op::Last: case Op::Nth: case Op::Take:
    case Op::Drop: case Op::Distinct: case Op::Count: case Op::Sum: case Op::Avg: case Op::Min: case Op::Max:
    case Op::MinBy: case Op::MaxBy: case Op::Get: case Op::Keys: case Op::Typeof: case Op::Eq: case Op::Neq:
    case Op::Gt: case Op::Gte: case Op::Lt: case Op::Lte: case Op::Contains: case Op::In: case Op::FilterIn:
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Round: case Op::Pct: case Op::Not:
    case Op::Object: case Op::Merge: case Op::Concat: case Op::Zip: case Op::List: case Op::ToNumber:
    case Op::ToString: {
      Operands args(n.kids.size());
      for (size_t i = 0; i < n.kids.size(); ++i) args[i] = evalSync(*n.kids[i], operandInput(n, in));
      return applyOp(n, in, args.data(), args.size());
    }
    case Op::End_: break;
  }
  throwExecution(n, "internal: not an operation");
}

Task<Value> Evaluator::evalAsync(const Node& n, Value in) {
  if (!n.hasCall) co_return evalSync(n, in);
  tick();
  if (n.readsInput && in.isNone()) throwNoInput(n);
  switch (n.op) {
    case Op::Let: {
      Binding b(st_, &n.name, co_await evalAsync(*n.kids[0], in));
      co_return co_await evalAsync(*n.kids[1], in);
    }
    case Op::Pipe: {
      Value current = in;
      for (const auto& step : n.kids) current = co_await evalAsync(*step, current);
      co_return current;
    }
    case Op::Filter:
    case Op::Reject: {
      const bool keep = n.op == Op::Filter;
      const Array& items = expectList(n, in);
      Array out;
      for (const Value& item : items)
        if ((co_await evalAsync(*n.kids[0], item)).truthy() == keep) out.push_back(item);
      co_return Value::array(std::move(out));
    }
    case Op::Map: {
      const Array& items = expectList(n, in);
      Array out;
      out.reserve(items.size());
      for (const Value& item : items) {
        MapItem scope(st_, item);
        out.push_back(co_await evalAsync(*n.kids[0], item));
      }
      co_return Value::array(std::move(out));
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
    case Op::Literal:
    case Op::Var:
    case Op::Load: co_return evalSync(n, in);  // no kids: never on the way to a call
    // A call, and the strict operations: operands first, in order.
    case Op::Call:
    case Op::Select: case Op::SortBy: case Op::First: case Op::Last: case Op::Nth: case Op::Take:
    case Op::Drop: case Op::Distinct: case Op::Count: case Op::Sum: case Op::Avg: case Op::Min: case Op::Max:
    case Op::MinBy: case Op::MaxBy: case Op::Get: case Op::Keys: case Op::Typeof: case Op::Eq: case Op::Neq:
    case Op::Gt: case Op::Gte: case Op::Lt: case Op::Lte: case Op::Contains: case Op::In: case Op::FilterIn:
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Round: case Op::Pct: case Op::Not:
    case Op::Object: case Op::Merge: case Op::Concat: case Op::Zip: case Op::List: case Op::ToNumber:
    case Op::ToString: {
      std::vector<Value> args(n.kids.size());
      for (size_t i = 0; i < n.kids.size(); ++i) args[i] = co_await evalAsync(*n.kids[i], operandInput(n, in));
      if (n.op == Op::Call) {
        st_.core.checkDeadline();
        // A named awaiter, not a braced temporary: g++ 12 destroys such temporaries
        // inside co_await twice.
        ToolAwaiter call{st_.core, ToolRequest{n.name.str(), objectFromFields(n, args.data(), args.size()), n.path}};
        ToolAnswer answer = co_await call;
        if (answer.failed) throwExecution(n, "Tool '" + n.name.str() + "' failed: " + answer.message);
        co_return answer.value;
      }
      co_return applyOp(n, in, args.data(), args.size());
    }
    case Op::End_: break;
  }
  throwExecution(n, "internal: not an operation");
}

}  // namespace ptc
