// A verified, compiled step-function file (shared/spec/step-functions.md with
// the decisions of step-functions-semantics.md, cited as §n). Compilation
// resolves every reference, operator and call target once, so execution only
// walks these structures.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/value.h"
#include "step_functions/types.h"

namespace ptc {
struct Node;  // ptc_json/program.h: a function expression calls a PTC-JSON op's semantics through one
}

namespace ptc::step_functions {

// A $reference: $input[.seg...], $error, or $var[.seg...] (§5).
struct Ref {
  enum class Root { Input, Error, Var };
  Root root = Root::Var;
  std::string name;               // the variable (Var)
  std::vector<std::string> segs;  // field names or list indexes
  std::string text;               // as written, for messages
};

enum class Operator { Add, Sub, Mul, Div, Gt, Gte, Lt, Lte, Eq, Neq, And, Or, Not };

// A value expression (§5): constants are folded at compile time.
struct Expr {
  enum class Kind { Const, Ref, Interpolate, Array, Object, Operator, Merge, Function };
  Kind kind = Kind::Const;
  Value constant;                  // Const
  Ref ref;                         // Ref
  std::vector<std::string> texts;  // Interpolate: literal pieces, one more than refs
  std::vector<Ref> refs;           // Interpolate: the refs between the pieces
  std::vector<Expr> items;         // Array items, Object values, Operator/Merge/Function operands
  std::vector<Value> keys;         // Object keys
  Operator op = Operator::Add;     // Operator
  // Function: the PTC-JSON op it applies, with its constant arguments (unit,
  // default, template) filled in and its path (functions.h).
  std::shared_ptr<const ptc::Node> function;
  std::string path;  // JSON Pointer, for faults
};

struct Function;

// A call of a host tool or of a function of the file.
struct Call {
  std::string target;
  int function = -1;  // index of the called file function, or -1 for a host tool
  bool hasArgs = false;
  Expr args;         // an Object expression
  std::string path;  // JSON Pointer of the step (or compensation)
  std::string let;   // a compensation's binding, for the rest of its handler; "" if none
};

// A call step's "retry": how many tries in all, and which failures are retried
// (their message contains one of `on`; every failure when `on` is empty).
struct Retry {
  int tries = 1;
  std::vector<std::string> on;
  std::string let;  // bound to the number of tries made; "" if none
};

struct Step;

// on-error (§7): compensations in written order, then the "then" steps (with
// $error), then return, continue or break; with "then" and none of those the
// failure is handled and the steps after the call run (its let is null).
struct Handler {
  std::vector<Call> compensate;
  std::vector<Step> then;
  bool hasReturn = false;
  Expr returnValue;
  bool continueLoop = false;
  bool breakLoop = false;
};

struct Step {
  // One per entry of the step table (step_table.cpp), in its order.
  // End_ is not a kind but their number: a new kind goes before it.
  enum class Kind { LetExpr, Call, Match, If, Return, For, Yield, End_ };
  Kind kind = Kind::LetExpr;
  std::string path;
  size_t index = 0;
  std::string let;                   // the name bound (LetExpr, Call with let, Match, For with let); "" if none
  Expr expr;                         // LetExpr expr, Return/Yield value, If condition, Match subject, For list
  Call call;                         // Call
  std::unique_ptr<Handler> onError;  // Call, optional
  std::unique_ptr<Retry> retry;      // Call, optional
  std::vector<std::pair<std::string, Expr>> cases;  // Match; "_" is the default
  bool hasReturn = false;                           // If: an early exit
  bool breaks = false;                              // If: "break": true ends the innermost loop
  Expr ifReturn;                                    // If with return
  std::vector<Call> compensate;                     // If with return; Call: its "undo", registered when it succeeds
  std::string var;                                  // For
  std::vector<Step> body;                           // For "do"; If "then"
  std::vector<Step> elseBody;                       // If "else"
  bool hasWhere = false;                            // For: items whose condition is false are skipped
  Expr where;                                       // For
  // For "state": names bound before the loop, whose rebinding in the body
  // carries to the next pass and after the loop; Yield "to": the state list it adds to.
  std::vector<std::pair<std::string, Expr>> state;
  std::string yieldTo;
  enum class Order { Unsaid, InOrder, Parallel };
  Order order = Order::Unsaid;  // For: "parallel" false / true or a number / absent
  size_t maxParallel = 0;       // For with "parallel": n: at most n at once (0: the run's maxConcurrency)
  bool independent = false;     // For: no iteration can leave the function or the loop (return, break)
};

inline constexpr size_t kStepKindCount = static_cast<size_t>(Step::Kind::End_);

struct Function {
  std::string name;
  std::string path;  // "/i"
  std::vector<std::pair<std::string, Type>> params;
  Type output;
  std::vector<Step> steps;
  bool endsWithUnboundFor = false;  // §9: its list is returned at the end of steps
};

struct File {
  std::vector<Function> functions;
  int entry = 0;
  std::vector<std::string> tools;  // host tools the file calls
};

}  // namespace ptc::step_functions
