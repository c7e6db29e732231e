#include "step_functions/step_table.h"

#include <array>
#include <cstdint>

#include "core/json.h"
#include "ptc_json/op_table.h"
#include "step_functions/functions.h"

namespace ptc::step_functions {

namespace {

using K = StepKeyKind;
using P = KeyPresence;

constexpr std::array<StepSpec, kStepKindCount> buildTable() {
  return {{
      {Step::Kind::LetExpr,
       "let",
       "a let step",
       {{"let", K::Name, P::Required, "An \"expr\" step needs \"let\": {\"let\": \"x\", \"expr\": ...}"},
        {"expr", K::Expr, P::Kind}},
       "Binds a value."},
      {Step::Kind::Call,
       "call",
       "a call step",
       {{"let", K::Name, P::Optional},
        {"call", K::Target, P::Kind},
        {"args", K::Args, P::Optional},
        {"on-error", K::Handler, P::Optional},
        {"retry", K::Retry, P::Optional},
        {"undo", K::Undo, P::Optional}},
       "Calls a tool or your function, \"let\" binding the result; \"on-error\" catches a failure (§7), "
       "\"retry\": {\"tries\": 3, \"on\"?: [texts]}, \"undo\": {call} runs if the function fails later, newest "
       "first."},
      {Step::Kind::Match,
       "match",
       "a match step",
       {{"let", K::Name, P::Required,
         "A match step needs \"let\": {\"let\": \"x\", \"match\": \"$y\", \"cases\": {...}}"},
        {"match", K::Expr, P::Kind},
        {"cases", K::Cases, P::Required,
         "A match step needs \"cases\": an object of values by key, with \"_\" as the default"}},
       "Binds the case keyed by the subject's text (true is \"true\"), else \"_\" (null too) (§8)."},
      {Step::Kind::If,
       "if",
       "an if step",
       {{"if", K::Expr, P::Kind},
        {"then", K::Steps, P::Optional},
        {"else", K::Steps, P::Optional},
        {"return", K::Returned, P::Optional},
        {"compensate", K::Calls, P::Optional},
        {"break", K::Flag, P::Optional}},
       "When true: runs \"then\" (else \"else\"; names bound in both stay), returns (after \"compensate\"), "
       "or \"break\": true ends the loop."},
      {Step::Kind::Return,
       "return",
       "a return step",
       {{"return", K::Returned, P::Kind}},
       "Returns a value of the output type (§9)."},
      {Step::Kind::For,
       "for",
       "a for step",
       {{"for", K::Name, P::Kind},
        {"in", K::Expr, P::Required, "A for step needs \"in\": the list to loop over"},
        {"where", K::Expr, P::Optional},
        {"do", K::Steps, P::Required, "A for step needs \"do\": the steps of each iteration"},
        {"let", K::Name, P::Optional},
        {"parallel", K::Parallel, P::Optional},
        {"state", K::State, P::Optional}},
       "Runs \"do\" per item (\"where\": if true; \"state\": {\"n\": 0}: lets of n carry to later items and "
       "after); yields make its list, bound by \"let\"."},
      {Step::Kind::Yield,
       "yield",
       "a yield step",
       {{"yield", K::Expr, P::Kind}, {"to", K::Name, P::Optional}},
       "Adds a value to its for's list, or \"to\" a state list."},
  }};
}

// stepSpecOf indexes the table by Step::Kind: a table out of step with the
// enum (a kind left out, added twice or out of order), a kind without exactly
// one kind key, or a required key without its message does not compile.
constexpr bool checked(const std::array<StepSpec, kStepKindCount>& table) {
  for (size_t i = 0; i < table.size(); ++i) {
    size_t kindKeys = 0;
    for (const StepKey& k : table[i].keys) {
      kindKeys += k.presence == P::Kind;
      if ((k.presence == P::Required) != (k.whenMissing != nullptr)) return false;
    }
    if (table[i].kind != static_cast<Step::Kind>(i) || kindKeys != 1) return false;
  }
  return true;
}

constexpr std::array<StepSpec, kStepKindCount> kStepTable = buildTable();
static_assert(checked(kStepTable),
              "the step table must hold one entry per Step::Kind, in enum order, each with one kind key and a "
              "message for each required key");

constexpr OperatorSpec kOperators[] = {
    {"+", Operator::Add, 2, SIZE_MAX, "sum of numbers, or concatenation of texts"},
    {"-", Operator::Sub, 1, 2, "negation of one number, or the difference of two"},
    {"*", Operator::Mul, 2, SIZE_MAX, "product of numbers"},
    {"/", Operator::Div, 2, 2, "quotient of two numbers (dividing by zero is a fault)"},
    {">", Operator::Gt, 2, 2, "greater than: two numbers or two texts (texts by code points)"},
    {">=", Operator::Gte, 2, 2, "greater than or equal: two numbers or two texts"},
    {"<", Operator::Lt, 2, 2, "less than: two numbers or two texts"},
    {"<=", Operator::Lte, 2, 2, "less than or equal: two numbers or two texts"},
    {"==", Operator::Eq, 2, 2, "equal: any two values, structurally"},
    {"!=", Operator::Neq, 2, 2, "not equal: any two values, structurally"},
    {"and", Operator::And, 2, SIZE_MAX, "every condition holds (short-circuit)"},
    {"or", Operator::Or, 2, SIZE_MAX, "some condition holds (short-circuit)"},
    {"not", Operator::Not, 1, 1, "the condition does not hold (one operand, bare or in a list)"},
};

}  // namespace

const char* StepSpec::kindKey() const {
  for (const StepKey& k : keys)
    if (k.presence == P::Kind) return k.name;
  return "";  // not reached: the static_assert on checked() requires one
}

bool StepSpec::takes(std::string_view key) const {
  for (const StepKey& k : keys)
    if (key == k.name) return true;
  return false;
}

std::span<const StepSpec> stepTable() { return kStepTable; }

const StepSpec& stepSpecOf(Step::Kind kind) { return stepTable()[static_cast<size_t>(kind)]; }

std::span<const OperatorSpec> operatorTable() { return kOperators; }

namespace {

const char* keyKindName(StepKeyKind kind) {
  switch (kind) {
    case K::Expr: return "expr";
    case K::Name: return "name";
    case K::Target: return "target";
    case K::Args: return "args";
    case K::Steps: return "steps";
    case K::Cases: return "cases";
    case K::Calls: return "calls";
    case K::Handler: return "handler";
    case K::Returned: return "returned";
    case K::Flag: return "flag";
    case K::Parallel: return "parallel";
    case K::Retry: return "retry";
    case K::State: return "state";
    case K::Undo: return "undo";
  }
  return "expr";
}

const char* presenceName(KeyPresence p) { return p == P::Kind ? "kind" : (p == P::Required ? "required" : "optional"); }

void appendString(std::string& out, const char* key, std::string_view value) {
  out += ",\"";
  out += key;
  out += "\":";
  appendJsonString(out, value);
}

void appendSteps(std::string& out) {
  out += "\"steps\":[";
  for (const StepSpec& s : stepTable()) {
    if (&s != &stepTable().front()) out += ",";
    out += "{\"name\":";
    appendJsonString(out, s.name);
    appendString(out, "description", s.description);
    appendString(out, "shape", stepShape(s));
    out += ",\"keys\":[";
    for (const StepKey& k : s.keys) {
      if (&k != &s.keys.front()) out += ",";
      out += "{\"name\":";
      appendJsonString(out, k.name);
      appendString(out, "kind", keyKindName(k.kind));
      appendString(out, "presence", presenceName(k.presence));
      out += "}";
    }
    out += "]}";
  }
  out += "]";
}

void appendOperators(std::string& out) {
  out += ",\"operators\":[";
  for (const OperatorSpec& o : operatorTable()) {
    if (&o != &operatorTable().front()) out += ",";
    out += "{\"key\":";
    appendJsonString(out, o.key);
    out += ",\"minOperands\":" + std::to_string(o.minOperands);
    out += ",\"maxOperands\":" + (o.maxOperands == SIZE_MAX ? std::string("null") : std::to_string(o.maxOperands));
    appendString(out, "description", o.description);
    out += "}";
  }
  out += "]";
}

void appendFunctions(std::string& out) {
  out += ",\"functions\":[";
  for (const FunctionSpec& f : functionTable()) {
    if (&f != &functionTable().front()) out += ",";
    out += "{\"key\":";
    appendJsonString(out, f.key);
    appendString(out, "op", f.op->name);
    appendString(out, "category", f.op->category);
    appendString(out, "description", f.op->description);
    appendString(out, "shape", f.shape());
    out += ",\"example\":" + functionExample(f);
    out += ",\"params\":[";
    for (const FunctionParam& p : f.params) {
      if (&p != &f.params.front()) out += ",";
      out += "{\"name\":";
      appendJsonString(out, p.name);
      appendString(out, "kind", fieldKindName(p.kind));
      out += std::string(",\"required\":") + (p.required ? "true" : "false");
      appendString(out, "description", p.description);
      if (p.kind == FieldKind::Choice) {
        out += ",\"choices\":[";
        for (size_t c = 0; c < p.choices.size(); ++c) {
          if (c) out += ",";
          appendJsonString(out, p.choices[c]);
        }
        out += "]";
      }
      out += "}";
    }
    out += "]}";
  }
  out += "]";
}

}  // namespace

std::string stepTableJson() {
  std::string out = "{";
  appendSteps(out);
  appendOperators(out);
  appendFunctions(out);
  return out + "}";
}

std::string stepShape(const StepSpec& spec) {
  std::string out = "{";
  for (const StepKey& k : spec.keys)
    out += std::string(out.size() > 1 ? ", " : "") + k.name + (k.presence == P::Optional ? "?" : "");
  return out + "}";
}

}  // namespace ptc::step_functions
