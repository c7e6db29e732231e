// The one table of step kinds, like the op table of PTC-JSON: each kind is
// declared once, with its name (as the trace shows it), its keys with their
// kinds and presence, and a description. Verification reads it to tell which
// kind a step is and to report unknown and missing keys; the run reads the
// trace names from it. Adding a kind is an entry here (in Step::Kind order)
// plus its compilation and execution: the engine builds with -Werror=switch and
// no switch over Step::Kind has a default, so the compiler lists the places.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/fixed_list.h"
#include "step_functions/file.h"

namespace ptc::step_functions {

enum class StepKeyKind : uint8_t {
  Expr,      // a value expression (§5)
  Name,      // a NAME the step binds
  Target,    // a NAME: a function of the file or a host tool
  Args,      // an object literal of argument names to expressions
  Steps,     // a non-empty list of steps
  Cases,     // an object of expressions by match key, "_" the default
  Calls,     // a list of compensation calls {"call", "args"?}
  Handler,   // "on-error": {"compensate"?, "return"?, "continue"?}
  Returned,  // a value the function returns, checked against its output type (§9)
  Flag,      // true
  Parallel,  // true, false, or how many iterations may run at once
  Retry,     // {"tries": n, "on"?: [texts], "let"?: name}
  State,     // an object of names to their first values (a for's "state")
  Undo,      // a call {"call", "args"?} that undoes a call step's effect (its "undo")
};

enum class KeyPresence : uint8_t {
  Kind,      // the key that makes a step this kind (one per kind)
  Required,  // its absence is reported with StepKey::whenMissing
  Optional,
};

struct StepKey {
  const char* name = nullptr;
  StepKeyKind kind = StepKeyKind::Expr;
  KeyPresence presence = KeyPresence::Optional;
  const char* whenMissing = nullptr;  // Required keys: the message when the step lacks it
};

inline constexpr size_t kMaxStepKeys = 7;

struct StepSpec {
  Step::Kind kind = Step::Kind::End_;
  const char* name = nullptr;               // in the trace ("kind") and in messages
  const char* noun = nullptr;               // in messages: "Unknown key 'x' in a call step"
  FixedList<StepKey, kMaxStepKeys> keys{};  // in the order messages list them
  const char* description = nullptr;
  const char* kindKey() const;  // the key with KeyPresence::Kind
  bool takes(std::string_view key) const;
};

// One entry per Step::Kind, in enum order (checked at compile time).
std::span<const StepSpec> stepTable();
const StepSpec& stepSpecOf(Step::Kind kind);
// The keys of a kind as messages show them: "{let?, call, args?, on-error?}".
std::string stepShape(const StepSpec& spec);

// The operators of value expressions (§6): objects with one key, the operator,
// whose value is the list of operands ("not" also takes one bare operand).
struct OperatorSpec {
  const char* key;
  Operator op;
  size_t minOperands;
  size_t maxOperands;  // SIZE_MAX: no limit
  const char* description;
};
std::span<const OperatorSpec> operatorTable();

// The language as JSON text, for the package (prompt, schema): the step kinds
// with their keys, the operators and the functions (functions.h).
std::string stepTableJson();

}  // namespace ptc::step_functions
