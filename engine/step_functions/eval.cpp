#include "step_functions/eval.h"

#include <cmath>
#include <cstdlib>

#include "core/error.h"
#include "core/json.h"
#include "core/json_pointer.h"
#include "step_functions/functions.h"
#include "step_functions/run.h"
#include "step_functions/text.h"

namespace ptc::step_functions {

namespace {

[[noreturn]] void fault(ErrorCode code, const std::string& path, std::string message) {
  throw PtcError(ErrorType::Execution, code, std::move(message), path);
}

const char* operatorName(Operator op) {
  static const char* names[] = {"+", "-", "*", "/", ">", ">=", "<", "<=", "==", "!=", "and", "or", "not"};
  return names[static_cast<int>(op)];
}

Value lookupVar(const Frame& frame, const std::string& name) {
  for (auto it = frame.vars.rbegin(); it != frame.vars.rend(); ++it)
    if (*it->first == name) return it->second;
  return Value();  // verification guarantees it is bound
}

Value resolve(const Frame& frame, const Ref& ref, const std::string& path) {
  Value v;
  if (ref.root == Ref::Root::Input) v = frame.input;
  else if (ref.root == Ref::Root::Error) v = frame.error ? *frame.error : Value();
  else v = lookupVar(frame, ref.name);
  for (const std::string& seg : ref.segs) {
    if (v.isNull()) return v;  // $a.b.c is nil when b is missing
    if (v.isObject()) {
      v = v.field(seg);
    } else if (v.isArray()) {
      bool digits = !seg.empty() && seg.find_first_not_of("0123456789") == std::string::npos;
      if (!digits)
        fault(ErrorCode::TypeMismatch, path,
              "'" + ref.text + "': '" + seg + "' is not an index of a list (use a number such as ." + "0)");
      size_t index = seg.size() > 9 ? SIZE_MAX : std::stoul(seg);
      v = index < v.items().size() ? v.items()[index] : Value();
    } else {
      fault(ErrorCode::TypeMismatch, path,
            "'" + ref.text + "': cannot read '" + seg + "' of a " + typeName(v) + " (" + describeValue(v) + ")");
    }
  }
  return v;
}

double number(const Value& v, Operator op, const std::string& path) {
  if (!v.isNumber())
    fault(ErrorCode::TypeMismatch, path,
          std::string("Operator '") + operatorName(op) + "' needs numbers, got " + describeValue(v));
  return v.asDouble();
}

Value arithmetic(const Frame& frame, const Expr& e) {
  std::vector<Value> operands;
  for (const Expr& x : e.items) operands.push_back(evaluate(frame, x));
  if (e.op == Operator::Add && operands[0].isString()) {
    size_t length = 0;
    for (const Value& v : operands) {
      if (!v.isString())
        fault(ErrorCode::TypeMismatch, e.path,
              "Operator '+' adds numbers or joins texts, not a mix: got " + describeValue(v) + " among texts");
      length += v.str().size();
    }
    // The joined text is a copy of texts that may be one shared text many
    // times: refused before it is built when it cannot fit.
    if (Budget* budget = Budget::current()) budget->require(length);
    std::string out;
    out.reserve(length);
    for (const Value& v : operands) out += v.str();
    return Value::string(std::move(out));
  }
  if (e.op == Operator::Add)
    for (const Value& v : operands)
      if (!v.isNumber())
        fault(ErrorCode::TypeMismatch, e.path,
              "Operator '+' adds numbers or joins texts, not a mix: got " + describeValue(v));
  double acc = number(operands[0], e.op, e.path);
  if (e.op == Operator::Sub && operands.size() == 1) return numberValue(-acc, e.path);
  for (size_t i = 1; i < operands.size(); ++i) {
    double x = number(operands[i], e.op, e.path);
    switch (e.op) {
      case Operator::Add: acc += x; break;
      case Operator::Sub: acc -= x; break;
      case Operator::Mul: acc *= x; break;
      default:
        if (x == 0) fault(ErrorCode::DivisionByZero, e.path, "division by zero");
        acc /= x;
    }
  }
  return numberValue(acc, e.path);
}

Value ordering(const Frame& frame, const Expr& e) {
  Value a = evaluate(frame, e.items[0]);
  Value b = evaluate(frame, e.items[1]);
  int c;
  if (a.isNumber() && b.isNumber()) c = a.asDouble() < b.asDouble() ? -1 : (a.asDouble() > b.asDouble() ? 1 : 0);
  else if (a.isString() && b.isString()) c = a.str().compare(b.str());  // UTF-8 byte order = code point order
  else
    fault(ErrorCode::TypeMismatch, e.path,
          std::string("Operator '") + operatorName(e.op) + "' compares two numbers or two texts, got " +
              describeValue(a) + " and " + describeValue(b));
  switch (e.op) {
    case Operator::Gt: return Value::boolean(c > 0);
    case Operator::Gte: return Value::boolean(c >= 0);
    case Operator::Lt: return Value::boolean(c < 0);
    default: return Value::boolean(c <= 0);
  }
}

Value logic(const Frame& frame, const Expr& e) {
  if (e.op == Operator::Not) return Value::boolean(!truthValue(evaluate(frame, e.items[0]), e.path, "'not'"));
  bool isAnd = e.op == Operator::And;
  for (const Expr& x : e.items) {  // left to right, short-circuit
    bool t = truthValue(evaluate(frame, x), x.path, isAnd ? "'and'" : "'or'");
    if (t != isAnd) return Value::boolean(t);
  }
  return Value::boolean(isAnd);
}

// "id-$x": the references' texts between the literal parts. A text may be one
// shared text referenced many times, so the joined length is known (and
// refused past the limit) before it is built; what other values are written
// as is charged while it is held.
Value interpolate(const Frame& frame, const Expr& e) {
  std::vector<Value> values;
  std::vector<std::string> written(e.refs.size());
  Scratch held;
  size_t length = e.texts[0].size();
  for (size_t i = 0; i < e.refs.size(); ++i) {
    values.push_back(resolve(frame, e.refs[i], e.path));
    if (!values[i].isString()) {
      written[i] = textForm(values[i]);
      held.charge(written[i].size());
    }
    length += (values[i].isString() ? values[i].str().size() : written[i].size()) + e.texts[i + 1].size();
  }
  if (Budget* budget = Budget::current()) budget->require(length);
  std::string out;
  out.reserve(length);
  out += e.texts[0];
  for (size_t i = 0; i < e.refs.size(); ++i)
    out.append(values[i].isString() ? values[i].str() : written[i]).append(e.texts[i + 1]);
  return Value::string(std::move(out));
}

Value merge(const Frame& frame, const Expr& e) {
  ObjectBuilder out(Budget::current());  // charged as it collects the members
  for (const Expr& x : e.items) {
    Value v = evaluate(frame, x);
    if (!v.isObject()) fault(ErrorCode::TypeMismatch, x.path, "$merge merges objects, got " + describeValue(v));
    for (MemberRef m : v.members()) out.put(m.key, m.value);
  }
  return locatedAt(e.path, [&] { return out.build(); });  // it may nest too deep
}

}  // namespace

bool truthValue(const Value& v, const std::string& path, const char* where) {
  if (v.isBool()) return v.asBool();
  if (v.isNull()) return false;
  fault(ErrorCode::TypeMismatch, path, std::string(where) + " needs a bool (or nil), got " + describeValue(v));
}

Value numberValue(double d, const std::string& path) {
  if (!std::isfinite(d)) fault(ErrorCode::NumberOverflow, path, "The result is not a finite number");
  if (d == std::floor(d) && std::fabs(d) < 9007199254740992.0) return Value::integer(static_cast<int64_t>(d));
  return Value::number(d);
}

Value evaluate(const Frame& frame, const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::Const: return e.constant;
    case Expr::Kind::Ref: return resolve(frame, e.ref, e.path);
    case Expr::Kind::Interpolate: return interpolate(frame, e);
    case Expr::Kind::Array: {
      Array items;
      for (const Expr& x : e.items) items.push_back(evaluate(frame, x));
      return locatedAt(e.path, [&] { return Value::array(std::move(items)); });
    }
    case Expr::Kind::Object: {
      Members members;
      for (size_t i = 0; i < e.items.size(); ++i) members.push_back(Member{e.keys[i], evaluate(frame, e.items[i])});
      return locatedAt(e.path, [&] { return Value::object(std::move(members)); });
    }
    case Expr::Kind::Merge: return merge(frame, e);
    case Expr::Kind::Function: {
      std::vector<Value> args;
      args.reserve(e.items.size());
      for (const Expr& x : e.items) args.push_back(evaluate(frame, x));
      return applyFunction(e, args.data(), args.size());
    }
    case Expr::Kind::Operator:
      switch (e.op) {
        case Operator::Eq: return Value::boolean(equals(evaluate(frame, e.items[0]), evaluate(frame, e.items[1])));
        case Operator::Neq: return Value::boolean(!equals(evaluate(frame, e.items[0]), evaluate(frame, e.items[1])));
        case Operator::Gt:
        case Operator::Gte:
        case Operator::Lt:
        case Operator::Lte: return ordering(frame, e);
        case Operator::And:
        case Operator::Or:
        case Operator::Not: return logic(frame, e);
        default: return arithmetic(frame, e);
      }
  }
  return Value();
}

}  // namespace ptc::step_functions
