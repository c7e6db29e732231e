// Functions in step-function expressions: {"$lower": ["$name"]}. Each one is a
// PTC-JSON op of the op table (the text, date and conversion ops, and
// starts_with/ends_with) under its own name with a "$", its arguments in a list:
// the value first, then the op's other fields in the table's order. The
// semantics are the op's own (ptc::applyOp), so both dialects share one
// implementation, its edge cases and its messages. What a function raises is a
// failure (§7): on-error can catch it, as PTC-JSON's try can.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/value.h"
#include "ptc_json/op_table.h"
#include "step_functions/file.h"

namespace ptc::step_functions {

// One argument of a function, in the order the list gives them.
struct FunctionParam {
  std::string name;
  // Expr: a value expression. Choice, Text, Json: a constant, checked before
  // the run (a unit among its choices, a template, a default).
  FieldKind kind = FieldKind::Expr;
  bool required = false;
  std::string description;
  std::vector<const char*> choices;
  int field = -1;  // the op's field it fills (-1: the tested text of starts_with/ends_with)
};

struct FunctionSpec {
  const OpSpec* op = nullptr;
  std::string key;  // "$lower"
  std::vector<FunctionParam> params;
  bool testsText = false;  // starts_with/ends_with: a comparison of its first argument
  size_t requiredCount() const;
  std::string shape() const;  // {"$slice": [<value>, <start>?, <end>?]}
};

// The functions, in the op table's order.
const std::vector<FunctionSpec>& functionTable();
const FunctionSpec* findFunction(std::string_view key);
std::vector<std::string> functionKeys();
// The op's example written as a function expression: {"$lower": ["$email"]}.
std::string functionExample(const FunctionSpec& f);

// A failure raised by a function (an invalid date, an unparsable text, a value
// of the wrong type): the run turns it into the step's failure (§7).
struct FunctionFailure : std::runtime_error {
  FunctionFailure(ErrorCode code, std::string message, std::string path)
      : std::runtime_error(message), code(code), message(std::move(message)), path(std::move(path)) {}
  ErrorCode code;  // the op's own (invalid_date, text_not_number, ...), kept if nothing handles it
  std::string message;
  std::string path;  // of the function expression
};

// Applies e (Kind::Function) to its evaluated arguments (e.items' values, in order).
Value applyFunction(const Expr& e, const Value* args, size_t nargs);

}  // namespace ptc::step_functions
