#include "workflow/workflow_step_table.h"

#include <stdexcept>

namespace ptc::workflow {

namespace {

using K = StepKeyKind;
using P = KeyPresence;

std::vector<StepSpec> buildTable() {
  return {
      {Step::Kind::LetExpr,
       "let",
       "a let step",
       {{"let", K::Name, P::Required, "An \"expr\" step needs \"let\": {\"let\": \"x\", \"expr\": ...}"},
        {"expr", K::Expr, P::Kind}},
       "Binds the value of an expression to a name for the rest of its block."},
      {Step::Kind::Call,
       "call",
       "a call step",
       {{"let", K::Name, P::Optional},
        {"call", K::Target, P::Kind},
        {"args", K::Args, P::Optional},
        {"on-error", K::Handler, P::Optional}},
       "Calls a host tool or a function of the file with its args, binding the result with \"let\"; "
       "\"on-error\" handles a failure: compensations, then return or continue (§7)."},
      {Step::Kind::Match,
       "match",
       "a match step",
       {{"let", K::Name, P::Required,
         "A match step needs \"let\": {\"let\": \"x\", \"match\": \"$y\", \"cases\": {...}}"},
        {"match", K::Expr, P::Kind},
        {"cases", K::Cases, P::Required,
         "A match step needs \"cases\": an object of values by key, with \"_\" as the default"}},
       "Binds the value of the case whose key is the subject's text form, else of the \"_\" case (§8)."},
      {Step::Kind::If,
       "if",
       "an if step",
       {{"if", K::Expr, P::Kind},
        {"return", K::Returned, P::Required,
         "An 'if' step must have \"return\": if steps always pair with return for early exit (there is no else)"},
        {"compensate", K::Calls, P::Optional}},
       "Returns early when the condition holds, after running its compensations; there is no else."},
      {Step::Kind::Return,
       "return",
       "a return step",
       {{"return", K::Returned, P::Kind}},
       "Ends the function with a value that conforms to its output type (§9)."},
      {Step::Kind::For,
       "for",
       "a for step",
       {{"for", K::Name, P::Kind},
        {"in", K::Expr, P::Required, "A for step needs \"in\": the list to loop over"},
        {"do", K::Steps, P::Required, "A for step needs \"do\": the steps of each iteration"},
        {"let", K::Name, P::Optional}},
       "Runs \"do\" for each item of a list; the values its body yields form a list, bound with \"let\" "
       "(without \"let\", a last step's list is the function's result)."},
      {Step::Kind::Yield,
       "yield",
       "a yield step",
       {{"yield", K::Expr, P::Kind}},
       "Adds a value to the list of the enclosing for loop."},
  };
}

// stepSpecOf indexes the table by Step::Kind: a table out of step with the
// enum (a kind left out, added twice or out of order) must not be used.
std::vector<StepSpec> checked(std::vector<StepSpec> table) {
  bool ok = table.size() == kStepKindCount;
  for (size_t i = 0; ok && i < table.size(); ++i) {
    size_t kindKeys = 0;
    for (const StepKey& k : table[i].keys) {
      kindKeys += k.presence == P::Kind;
      ok = ok && (k.presence == P::Required) == (k.whenMissing != nullptr);
    }
    ok = ok && table[i].kind == static_cast<Step::Kind>(i) && kindKeys == 1;
  }
  if (!ok)
    throw std::logic_error(
        "the step table must hold one entry per Step::Kind, in enum order, each with one kind key and a message "
        "for each required key");
  return table;
}

}  // namespace

const char* StepSpec::kindKey() const {
  for (const StepKey& k : keys)
    if (k.presence == P::Kind) return k.name;
  return "";  // not reached: checked() requires one
}

bool StepSpec::takes(std::string_view key) const {
  for (const StepKey& k : keys)
    if (key == k.name) return true;
  return false;
}

const std::vector<StepSpec>& stepTable() {
  static const std::vector<StepSpec> table = checked(buildTable());
  return table;
}

const StepSpec& stepSpecOf(Step::Kind kind) { return stepTable()[static_cast<size_t>(kind)]; }

std::string stepShape(const StepSpec& spec) {
  std::string out = "{";
  for (const StepKey& k : spec.keys)
    out += std::string(out.size() > 1 ? ", " : "") + k.name + (k.presence == P::Optional ? "?" : "");
  return out + "}";
}

}  // namespace ptc::workflow
