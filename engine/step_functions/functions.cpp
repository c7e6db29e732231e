#include "step_functions/functions.h"

#include "core/error.h"
#include "core/json.h"
#include "ptc_json/op_table.h"
#include "ptc_json/ops/ops.h"
#include "ptc_json/program.h"

namespace ptc::step_functions {

namespace {

// The functions: the value-level ops of the op table (text, dates,
// conversions), whose input is their `value`, and the two text tests.
// (Only ops applied over their operands: a control op's value-level form, lookup's, is PTC-JSON's alone.)
bool isFunction(const OpSpec& op) {
  return op.control == Control::None &&
         ((op.valueOverridesInput && !op.notAStepFunction) || op.op == Op::StartsWith || op.op == Op::EndsWith);
}

FunctionSpec specFor(const OpSpec& op) {
  FunctionSpec f;
  f.op = &op;
  f.key = std::string("$") + op.name;
  f.testsText = !op.valueOverridesInput;
  if (f.testsText) {
    f.params.push_back({"value", FieldKind::Expr, true, "the text to test (another value: false)", {}, -1});
    f.params.push_back({op.op == Op::StartsWith ? "prefix" : "suffix",
                        FieldKind::Expr,
                        true,
                        "the text",
                        {},
                        fieldIndex(op, "value")});
    return f;
  }
  // The op's `value` is the input; its `field` has no use here (references
  // read fields); then the op's own fields, by name.
  f.params.push_back({"value", FieldKind::Expr, true, "the input", {}, fieldIndex(op, "value")});
  for (size_t i = 0; i < op.fields.size(); ++i) {
    const FieldSpec& field = op.fields[i];
    if (std::string_view(field.name) == "field" || std::string_view(field.name) == "value") continue;
    f.params.push_back({field.name, field.kind, field.presence == Presence::Required, field.description,
                        std::vector<const char*>(field.choices.begin(), field.choices.end()), static_cast<int>(i)});
  }
  return f;
}

std::vector<FunctionSpec> buildTable() {
  std::vector<FunctionSpec> out;
  for (const OpSpec& op : opTable())
    if (isFunction(op)) out.push_back(specFor(op));
  return out;
}

// A PTC-JSON example's operand as a step-function value: a field read becomes a reference.
Value asStepFunctionValue(const Value& v) {
  if (v.isObject() && v.find("op")) {
    const Value* field = v.find("field");
    const Value* name = v.find("name");
    if (field && field->isString()) return Value::string("$" + field->str());
    if (name && name->isString()) return Value::string("$" + name->str());
  }
  return v;
}

}  // namespace

size_t FunctionSpec::requiredCount() const {
  size_t n = 0;
  for (const FunctionParam& p : params) n += p.required;
  return n;
}

std::string FunctionSpec::shape() const {
  std::string out = "{\"" + key + "\": [";
  for (size_t i = 0; i < params.size(); ++i) {
    const FunctionParam& p = params[i];
    if (i) out += ", ";
    if (p.kind == FieldKind::Choice) {
      for (size_t c = 0; c < p.choices.size(); ++c) out += std::string(c ? "|" : "") + "\"" + p.choices[c] + "\"";
    } else {
      out += "<" + p.name + ">";
    }
    if (!p.required) out += "?";
  }
  return out + "]}";
}

const std::vector<FunctionSpec>& functionTable() {
  static const std::vector<FunctionSpec> table = buildTable();
  return table;
}

const FunctionSpec* findFunction(std::string_view key) {
  for (const FunctionSpec& f : functionTable())
    if (key == f.key) return &f;
  return nullptr;
}

std::vector<std::string> functionKeys() {
  std::vector<std::string> out;
  for (const FunctionSpec& f : functionTable()) out.push_back(f.key);
  return out;
}

std::string functionExample(const FunctionSpec& f) {
  Value example = parseJson(f.op->example, "example");
  const int input = fieldIndex(*f.op, "value");  // the op's `value`: a function's input
  Array args;
  for (const FunctionParam& p : f.params) {
    const Value* given = nullptr;
    if (p.field == input && !f.testsText) given = example.find("value");
    if (p.field == -1 || (p.field == input && !given && !f.testsText)) {
      const Value* field = example.find("field");
      if (field && field->isString()) {
        args.push_back(Value::string("$" + field->str()));
        continue;
      }
    }
    if (!given && p.field >= 0) given = example.find(f.op->fields[static_cast<size_t>(p.field)].name);
    if (!given && p.field == input) {  // the op reads its current value: here, a variable
      args.push_back(Value::string("$item"));
      continue;
    }
    if (!given) break;  // trailing optional arguments are left out
    args.push_back(asStepFunctionValue(*given));
  }
  return toJson(Value::object({{Value::string(f.key), Value::array(std::move(args))}}));
}

Value applyFunction(const Expr& e, const Value* args, size_t nargs) {
  const Node& n = *e.function;
  try {
    // A text test compares its first argument (the op's current value) with the second.
    if (n.op == Op::StartsWith || n.op == Op::EndsWith) return applyOp(n, args[0], args + 1, nargs - 1);
    // Functions take null to null; PTC-JSON's round (spec 5.7) fails on it instead.
    if (n.op == Op::Round && args[0].isNull()) return Value();
    return applyOp(n, Value(), args, nargs);
  } catch (const PtcError& err) {
    if (err.error.type != ErrorType::Execution) throw;  // a limit: memory, time
    throw FunctionFailure(err.error.code, err.error.message, e.path);
  }
}

}  // namespace ptc::step_functions
