// Combine: object, merge, concat, zip, list: values built from their
// evaluated operands.
#include <algorithm>

#include "core/deadline.h"
#include "ptc_json/ops/ops.h"

namespace ptc {

namespace {

Value merge(const Node& n, const Value* args, size_t nargs) {
  ObjectBuilder out(Budget::current());  // charged as it collects the members
  for (size_t i = 0; i < nargs; ++i) {
    if (!args[i].isObject())
      throwExecution(ErrorCode::TypeMismatch, n,
                     "'merge' requires objects, but operand " + std::to_string(i) + " is " + typeName(args[i]));
    for (MemberRef m : args[i].members()) out.put(m.key, m.value);
  }
  return out.build();
}

const Array& listOperand(const Node& n, const Value& v, size_t i) {
  if (!v.isArray())
    throwExecution(ErrorCode::TypeMismatch, n,
                   quoted(n) + " requires lists, but operand " + std::to_string(i) + " is " + typeName(v));
  return v.items();
}

Value concat(const Node& n, const Value* args, size_t nargs) {
  size_t total = 0;
  for (size_t i = 0; i < nargs; ++i) total += listOperand(n, args[i], i).size();
  // One list may be an operand many times: the copy is refused before it is
  // built when it cannot fit (it is charged once it is a value).
  if (Budget* budget = Budget::current()) budget->require(total * sizeof(Value));
  Array out;
  out.reserve(total);
  for (size_t i = 0; i < nargs; ++i) out.insert(out.end(), args[i].items().begin(), args[i].items().end());
  return Value::array(std::move(out));
}

Value zip(const Node& n, const Value* args, size_t nargs) {
  if (nargs == 0) return Value::array({});
  size_t shortest = SIZE_MAX;
  for (size_t i = 0; i < nargs; ++i) shortest = std::min(shortest, listOperand(n, args[i], i).size());
  ListBuilder out;
  out.reserve(shortest);
  for (size_t row = 0; row < shortest; ++row) {
    tickDeadline();
    if (Budget* budget = Budget::current()) budget->require(nargs * sizeof(Value));
    Array tuple;
    tuple.reserve(nargs);
    for (size_t i = 0; i < nargs; ++i) tuple.push_back(args[i].items()[row]);
    out.push_back(Value::array(std::move(tuple)));
  }
  return out.build();
}

}  // namespace

Value applyObject(const Node& n, const Value&, const Value* args, size_t nargs) {
  return objectFromFields(n, args, nargs);
}

Value applyMerge(const Node& n, const Value&, const Value* args, size_t nargs) { return merge(n, args, nargs); }

Value applyConcat(const Node& n, const Value&, const Value* args, size_t nargs) { return concat(n, args, nargs); }

// A zip or a list of values nested deeply enough nests too deep: refused at its node.
Value applyZip(const Node& n, const Value&, const Value* args, size_t nargs) {
  return locatedAt(n.path, [&] { return zip(n, args, nargs); });
}

Value applyList(const Node& n, const Value&, const Value* args, size_t nargs) {
  return locatedAt(n.path, [&] { return Value::array(Array(args, args + nargs)); });
}

}  // namespace ptc
