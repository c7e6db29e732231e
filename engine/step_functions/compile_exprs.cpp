// Value expressions (§5, §6, §8): constants, $references, interpolated text,
// lists, object literals, operators and $merge. References are resolved here
// against the scope; parts that are all constants fold into one constant.
#include <algorithm>
#include <cctype>
#include <cstdint>

#include "core/deadline.h"
#include "core/error.h"
#include "core/json.h"
#include "core/json_pointer.h"
#include "core/suggest.h"
#include "ptc_json/op_table.h"
#include "ptc_json/program.h"
#include "step_functions/compile.h"
#include "step_functions/functions.h"
#include "step_functions/step_table.h"
#include "step_functions/text.h"

namespace ptc::step_functions {

namespace {

const OperatorSpec* findOperator(std::string_view key) {
  for (const auto& o : operatorTable())
    if (key == o.key) return &o;
  return nullptr;
}

// A key made only of ASCII punctuation other than '_' or starting with '$' looks
// like an operator (§6): unknown ones are errors, not object literals.
bool looksLikeOperator(std::string_view key) {
  if (key.empty()) return false;
  if (key[0] == '$') return true;
  return std::all_of(key.begin(), key.end(),
                     [](char c) { return std::ispunct(static_cast<unsigned char>(c)) && c != '_'; });
}

std::vector<std::string> operatorKeys() {
  std::vector<std::string> keys;
  for (const auto& o : operatorTable()) keys.push_back(o.key);
  keys.push_back("$merge");
  for (const std::string& f : functionKeys()) keys.push_back(f);
  return keys;
}

std::string functionList() {
  std::string out;
  for (const std::string& k : functionKeys()) out += (out.empty() ? "" : " ") + k;
  return out;
}

// Arrays and objects whose parts are all constants are constants.
Expr fold(Expr e) {
  for (const Expr& item : e.items)
    if (item.kind != Expr::Kind::Const) return e;
  if (e.kind == Expr::Kind::Array) {
    Array values;
    for (Expr& item : e.items) values.push_back(std::move(item.constant));
    e.constant = Value::array(std::move(values));
  } else {
    Members members;
    for (size_t i = 0; i < e.items.size(); ++i) members.push_back(Member{e.keys[i], std::move(e.items[i].constant)});
    e.constant = Value::object(std::move(members));
  }
  e.kind = Expr::Kind::Const;
  e.items.clear();
  e.keys.clear();
  return e;
}

// Operands in a list, each an expression at its index.
Expr operandList(Expr e, const Value& operands, const std::string& path, const BodyContext& ctx) {
  for (size_t i = 0; i < operands.items().size(); ++i)
    e.items.push_back(compileExpr(operands.items()[i], childPath(path, i), ctx));
  return e;
}

Expr operatorExpr(const OperatorSpec& op, const Value& operands, const std::string& path, const BodyContext& ctx) {
  Expr e;
  e.path = path;
  e.kind = Expr::Kind::Operator;
  e.op = op.op;
  if (op.op == Operator::Not && !operands.isArray()) {
    e.items.push_back(compileExpr(operands, path, ctx));
    return e;
  }
  std::string arity = op.maxOperands == SIZE_MAX ? "at least " + std::to_string(op.minOperands)
                      : op.minOperands == op.maxOperands
                          ? std::to_string(op.minOperands)
                          : std::to_string(op.minOperands) + " or " + std::to_string(op.maxOperands);
  if (!operands.isArray())
    fail(ErrorCode::BadOperands, path,
         "Operator '" + std::string(op.key) + "' takes a list of " + arity + " operands, e.g. {\"" + op.key +
             "\": [\"$a\", \"$b\"]}");
  size_t n = operands.items().size();
  if (n < op.minOperands || n > op.maxOperands)
    fail(ErrorCode::BadOperands, path,
         "Operator '" + std::string(op.key) + "' takes " + arity + " operands, got " + std::to_string(n));
  return operandList(std::move(e), operands, path, ctx);
}

Expr mergeExpr(const Value& operands, const std::string& path, const BodyContext& ctx) {
  if (!operands.isArray() || operands.items().empty())
    fail(ErrorCode::BadOperands, path,
         "$merge takes a list of one or more objects to merge: {\"$merge\": [\"$a\", {\"k\": \"$v\"}]}");
  Expr e;
  e.path = path;
  e.kind = Expr::Kind::Merge;
  return operandList(std::move(e), operands, path, ctx);
}

// A constant argument of a function (a unit, a template, a default): checked
// and stored in the op's node before the run.
void constantArgument(const FunctionSpec& f, const FunctionParam& p, const Expr& arg, Node& node,
                      const std::string& path) {
  bool text = arg.kind == Expr::Kind::Const && arg.constant.isString();
  if (p.kind == FieldKind::Choice) {
    for (const char* c : p.choices)
      if (text && arg.constant.str() == c) {
        node.name = arg.constant;
        return;
      }
    std::string choices;
    for (const char* c : p.choices) choices += std::string(choices.empty() ? "" : ", ") + "\"" + c + "\"";
    fail(ErrorCode::BadValue, path,
         "The " + p.name + " of '" + f.key + "' is a constant text, one of " + choices + "; got " +
             (arg.kind == Expr::Kind::Const ? shortJson(arg.constant, 40) : std::string("an expression")));
  }
  if (p.kind == FieldKind::Precision) {  // $round's decimal places, as the op's `precision`
    bool ok = arg.kind == Expr::Kind::Const && arg.constant.isInt() && arg.constant.asInt() >= 0 &&
              arg.constant.asInt() <= 15;
    if (!ok)
      fail(ErrorCode::WrongKind, path,
           "The " + p.name + " of '" + f.key + "' is a constant integer from 0 to 15 (decimal places); got " +
               (arg.kind == Expr::Kind::Const ? shortJson(arg.constant, 40) : std::string("an expression")));
    node.count = arg.constant.asInt();
    return;
  }
  if (arg.kind != Expr::Kind::Const || (p.kind == FieldKind::Text && !text))
    fail(ErrorCode::WrongKind, path,
         "The " + p.name + " of '" + f.key + "' is a constant" + (p.kind == FieldKind::Text ? " text" : "") +
             " (it is not evaluated): write the value itself, not a reference or an operator");
  node.data = arg.constant;
  node.hasDefault = p.kind == FieldKind::Json;
}

// {"$name": [value, ...]}: the arguments in the order of the function's
// parameters; a single argument may be written without the list.
Expr functionExpr(const FunctionSpec& f, const Value& operands, const std::string& path, const BodyContext& ctx) {
  Array single;
  if (!operands.isArray()) single.push_back(operands);
  const Array& args = operands.isArray() ? operands.items() : single;
  if (args.size() < f.requiredCount() || args.size() > f.params.size())
    fail(ErrorCode::BadOperands, path,
         "Function '" + f.key + "' takes " +
             (f.requiredCount() == f.params.size()
                  ? std::to_string(f.params.size())
                  : std::to_string(f.requiredCount()) + " to " + std::to_string(f.params.size())) +
             " arguments in a list, got " + std::to_string(args.size()) + ": " + f.shape());
  auto node = std::make_shared<Node>();
  node->op = f.op->op;
  node->path = path;
  node->valueGiven = !f.testsText;
  node->field = Value::none();  // a text test reads its first argument itself
  node->slots.assign(f.op->fields.size(), -1);
  Expr e;
  e.path = path;
  e.kind = Expr::Kind::Function;
  for (size_t i = 0; i < args.size(); ++i) {
    const FunctionParam& p = f.params[i];
    Expr arg = compileExpr(args[i], childPath(path, i), ctx);
    if (p.kind != FieldKind::Expr) {
      constantArgument(f, p, arg, *node, childPath(path, i));
      continue;
    }
    // Slots index the arguments the op reads as operands: a text test's
    // first argument is its current value, not an operand.
    if (p.field >= 0) node->slots[static_cast<size_t>(p.field)] = static_cast<int8_t>(e.items.size() - f.testsText);
    e.items.push_back(std::move(arg));
  }
  e.function = std::move(node);
  return e;
}

Expr objectExpr(const Value& v, const std::string& path, const BodyContext& ctx) {
  bool callShaped = v.find("call") && (v.members().size() == 1 || (v.members().size() == 2 && v.find("args")));
  if (callShaped)
    fail(ErrorCode::NotAllowedHere, path,
         "Calls are steps, not expressions (§11): bind the result first with {\"let\": \"x\", \"call\": ...}, then "
         "use \"$x\"");
  for (MemberRef m : v.members()) {
    const std::string& k = m.key.str();
    bool special = isOperatorKey(k);
    if (special && v.members().size() > 1)
      fail(ErrorCode::ConflictingFields, childPath(path, k),
           "An operator or $merge must be the only key of its object, but '" + k + "' has company");
    if (!special && v.members().size() == 1 && looksLikeOperator(k))
      fail(ErrorCode::UnknownOperator, childPath(path, k),
           "Unknown operator or function '" + k + "'." + didYouMean(k, operatorKeys()) +
               " Operators: + - * / > >= < <= == != and or not, and $merge; functions: " + functionList() + ".");
  }
  if (v.members().size() == 1) {
    const std::string& k = v.members()[0].key.str();
    if (k == "$merge") return mergeExpr(v.members()[0].value, childPath(path, k), ctx);
    if (const OperatorSpec* op = findOperator(k))
      return operatorExpr(*op, v.members()[0].value, childPath(path, k), ctx);
    if (const FunctionSpec* f = findFunction(k)) return functionExpr(*f, v.members()[0].value, childPath(path, k), ctx);
  }
  return compileObjectLiteral(v, path, ctx);
}

void checkInputRef(const Ref& r, const std::string& path, const Header& function) {
  if (r.segs.empty()) return;
  std::vector<std::string> params;
  for (const auto& p : function.params) params.push_back(p.first);
  if (std::find(params.begin(), params.end(), r.segs[0]) == params.end())
    fail(ErrorCode::UnknownVariable, path,
         "'$input." + r.segs[0] + "' is not a parameter of function '" + function.name + "'." +
             didYouMean(r.segs[0], params) + " Its parameters: " + parameterList(params) + ".");
}

void checkRef(const Ref& r, const std::string& path, const BodyContext& ctx) {
  switch (r.root) {
    case Ref::Root::Input: return checkInputRef(r, path, ctx.function);
    case Ref::Root::Error:
      if (!ctx.errorAvailable)
        fail(ErrorCode::UnknownVariable, path,
             "'$error' is only available inside \"on-error\": in its compensate args and its return value");
      return;
    case Ref::Root::Var: break;
  }
  if (ctx.scope.has(r.name)) return;
  if (auto it = ctx.scope.leftLoop.find(r.name); it != ctx.scope.leftLoop.end())
    fail(ErrorCode::UnknownVariable, path, "'$" + r.name + "' " + it->second);
  fail(ErrorCode::UnknownVariable, path,
       "'$" + r.name + "' is not bound here: bind it with a step before this one." +
           didYouMean(r.name, ctx.scope.names));
}

Expr stringExpr(const Value& v, const std::string& path, const BodyContext& ctx) {
  Expr e;
  e.path = path;
  Interpolation parts = scanReferences(v.str());
  for (const Ref& r : parts.refs) checkRef(r, path, ctx);
  if (parts.refs.empty()) {
    e.constant = parts.texts[0] == v.str() ? v : Value::string(parts.texts[0]);
  } else if (parts.refs.size() == 1 && parts.texts[0].empty() && parts.texts[1].empty()) {
    e.kind = Expr::Kind::Ref;
    e.ref = parts.refs[0];
  } else {
    e.kind = Expr::Kind::Interpolate;
    e.texts = std::move(parts.texts);
    e.refs = std::move(parts.refs);
  }
  return e;
}

}  // namespace

bool isOperatorKey(std::string_view key) { return findOperator(key) || key == "$merge" || findFunction(key); }

Expr compileExpr(const Value& v, const std::string& path, const BodyContext& ctx) {
  tickDeadline();
  Expr e;
  e.path = path;
  switch (v.kind()) {
    case Kind::String: return stringExpr(v, path, ctx);
    case Kind::Array: e.kind = Expr::Kind::Array; return fold(operandList(std::move(e), v, path, ctx));
    case Kind::Object: return objectExpr(v, path, ctx);
    default: e.constant = v; return e;
  }
}

Expr compileObjectLiteral(const Value& v, const std::string& path, const BodyContext& ctx) {
  Expr e;
  e.path = path;
  e.kind = Expr::Kind::Object;
  for (MemberRef m : v.members()) {
    e.keys.push_back(m.key);
    e.items.push_back(compileExpr(m.value, childPath(path, m.key.str()), ctx));
  }
  return fold(std::move(e));
}

}  // namespace ptc::step_functions
