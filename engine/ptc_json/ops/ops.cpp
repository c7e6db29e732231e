// What the op families (ops/<family>.cpp) share: reading a field of the
// current value, expecting a list, the operands of counts, typed execution
// errors; and applyOp, which applies a strict op through its table entry.
#include "ptc_json/ops/ops.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <unordered_set>

#include "core/deadline.h"
#include "core/digits.h"
#include "core/error.h"
#include "core/json.h"
#include "core/json_fast.h"
#include "core/json_pointer.h"
#include "ptc_json/op_table.h"

namespace ptc {

// The value a comparison or aggregate looks at: the item's field, or the item.
Value subject(const Node& n, const Value& item) { return n.field.isNone() ? item : fieldOf(n, item); }

Value number(const Node& n, double d) {
  if (!std::isfinite(d))
    throwExecution(ErrorCode::NumberOverflow, n, quoted(n) + " produced a number too large to represent");
  return Value::number(d);
}

// ---- ordering ----

// Numbers and texts do not order against each other: a number stored as text
// ("98000" > 100000) is the usual cause, and comparing it as text is silently
// wrong. Other mixed types keep the term order (docs/semantics.md).
int orderOf(const Node& n, const Value& a, const Value& b) {
  if (a.isNumber() && b.isString()) throwTextNotNumber(n, "cannot order a number against the text", b);
  if (a.isString() && b.isNumber()) throwTextNotNumber(n, "cannot order a number against the text", a);
  return compare(a, b);
}

namespace {

const char* opName(const Node& n) { return specOf(n.op).name; }

}  // namespace

[[noreturn]] void throwExecution(ErrorCode code, const Node& n, std::string message) {
  throw PtcError(ErrorType::Execution, code, std::move(message), n.path);
}

std::string quoted(const Node& n) { return std::string("'") + opName(n) + "'"; }

const Value& operand(const Node& n, const Value* args, size_t fieldIndex) {
  static const Value kNull;
  if (fieldIndex >= n.slots.size() || n.slots[fieldIndex] < 0) return kNull;
  return args[static_cast<size_t>(n.slots[fieldIndex])];
}

Value itemValue(const Node& n, const Value& item, size_t i) {
  if (n.field.isNone() || item.isObject() || item.isNull()) return subject(n, item);
  throwExecution(ErrorCode::TypeMismatch, n,
                 quoted(n) + " reads field '" + n.field.str() + "' of each item, but item " + std::to_string(i) +
                     " is a " + typeName(item) + ", not an object. Omit 'field' to use the items themselves");
}

size_t countOperand(const Node& n, const Value* args, size_t nargs) {
  if (nargs == 0) return static_cast<size_t>(n.count);
  const Value& v = args[0];
  const char* name = "count";  // its Count field's name: nth's index, chunk's size, take's count
  for (const FieldSpec& f : specOf(n.op).fields)
    if (f.kind == FieldKind::Count) name = f.name;
  if (v.isInt() && v.asInt() >= 0) return static_cast<size_t>(v.asInt());
  double d = v.isNumber() ? v.asDouble() : -1;
  if (d >= 0 && d == std::floor(d)) return d >= 1.8e19 ? SIZE_MAX : static_cast<size_t>(d);
  throwExecution(ErrorCode::BadArgument, n,
                 quoted(n) + " needs '" + name + "' to be a non-negative integer, got " + describeValue(v) +
                     (v.isNumber() && d >= 0 ? " (use {\"op\": \"round\"} or compute an integer)" : ""));
}

Value readField(const Node& n, const Value& in) {
  if (n.field.isNone() || in.isNull()) return n.field.isNone() ? in : Value();
  if (in.isObject()) return fieldOf(n, in);
  throwExecution(ErrorCode::TypeMismatch, n,
                 quoted(n) + " reads field '" + n.field.str() + "', but the current value is a " + typeName(in) +
                     ", not an object. Omit 'field' to use the value itself");
}

[[noreturn]] void throwTextNotNumber(const Node& n, const std::string& context, const Value& text) {
  throwExecution(ErrorCode::TextNotNumber, n,
                 quoted(n) + " " + context + " " + shortJson(text, 40) +
                     ": convert texts to numbers first with {\"op\": \"to_number\"} (e.g. {\"op\": \"map\", "
                     "\"expr\": {\"op\": \"to_number\", \"field\": ...}})");
}

[[noreturn]] void throwNoInput(const Node& n) {
  throwExecution(ErrorCode::NoInput, n,
                 "No input available for " + quoted(n) +
                     ": at the top of a program there is no current value. Give it one first, e.g. "
                     "{\"op\": \"pipe\", \"steps\": [{\"op\": \"load\", \"name\": \"...\"}, {\"op\": \"" +
                     opName(n) + "\", ...}]}");
}

const Array& expectList(const Node& n, const Value& in) {
  if (in.isArray()) return in.items();
  std::string hint = in.isObject() ? " (use {\"op\": \"get\", \"field\": ...} to reach a list inside it)" : "";
  throwExecution(ErrorCode::TypeMismatch, n, quoted(n) + " expects a list, got " + typeName(in) + hint);
}

Value objectFromFields(const Node& n, const Value* args, size_t nargs) {
  Members out;
  out.reserve(nargs);
  for (size_t i = 0; i < nargs; ++i) out.push_back(Member{n.keys[i], args[i]});
  return locatedAt(n.path, [&] { return Value::object(std::move(out)); });  // it may nest too deep
}

// The op's function from the table (op_table.cpp); a control op has none:
// the evaluators run it.
Value applyOp(const Node& n, const Value& in, const Value* args, size_t nargs) {
  if (n.op < Op::End_)
    if (ApplyFn apply = specOf(n.op).apply) return apply(n, in, args, nargs);
  throwExecution(ErrorCode::Internal, n,
                 "internal: " + (n.op < Op::End_ ? quoted(n) : std::string("End_")) + " is not a strict operation");
}

}  // namespace ptc
