// Typed errors: every failure the engine reports is one of the five types of
// the spec with a code (ErrorCode), with an optional JSON Pointer path and, for JSON syntax, a byte offset.
#pragma once

#include <exception>
#include <new>
#include <string>
#include <utility>

namespace ptc {

enum class ErrorType { Parse, Validation, Execution, Timeout, MemoryExceeded };

inline const char* errorTypeName(ErrorType t) {
  switch (t) {
    case ErrorType::Parse: return "parse_error";
    case ErrorType::Validation: return "validation_error";
    case ErrorType::Execution: return "execution_error";
    case ErrorType::Timeout: return "timeout";
    case ErrorType::MemoryExceeded: return "memory_exceeded";
  }
  return "execution_error";
}

// A stable, machine-readable reason beside the type, so that hosts and repair
// loops branch on it instead of on message text. Names are snake_case and never
// change once released; docs/errors.md (generated from js/src/types/error-codes.ts,
// which a test keeps equal to this list) says what each means and how to fix it.
enum class ErrorCode {
  JsonSyntax,
  JsonTooDeep,
  NotAnObject,
  MissingProgram,
  BadRowBlock,
  TooDeep,
  UnknownOp,
  UnknownField,
  MissingField,
  ConflictingFields,
  WrongKind,
  BadValue,
  ConstantPredicate,
  BareString,
  NotAllowedHere,
  UnknownTool,
  UnknownEntry,
  BadOption,
  TooLarge,
  UnknownStep,
  BadName,
  DuplicateName,
  BadType,
  UnknownArgument,
  MissingArgument,
  UndeclaredDep,
  UnknownOperator,
  BadOperands,
  UnknownVariable,
  Recursion,
  MissingReturn,
  NoFunction,
  BadInput,
  TypeMismatch,
  TextNotNumber,
  DivisionByZero,
  NumberOverflow,
  InvalidDate,
  DateOutOfRange,
  BadArgument,
  NoInput,
  ToolFailed,
  UnhandledFailure,
  BadToolResult,
  NestingTooDeep,
  StepLimit,
  ToolCallLimit,
  NoMatch,
  Aborted,
  Timeout,
  MemoryExceeded,
  BadHostCall,
  // Warnings (core/warnings.h): the run goes on, the result carries them.
  UnknownContextKey,
  UnknownMemoryKey,
  FieldNotFound,
  DottedField,
  FieldOfList,
  UnknownResultField,
  DoubledProgram,
  ResultStored,
  Internal,
  Count_  // not a code: the number of codes
};

inline const char* errorCodeName(ErrorCode c) {
  switch (c) {  // no default: the compiler flags a code without a name
    case ErrorCode::JsonSyntax: return "json_syntax";
    case ErrorCode::JsonTooDeep: return "json_too_deep";
    case ErrorCode::NotAnObject: return "not_an_object";
    case ErrorCode::MissingProgram: return "missing_program";
    case ErrorCode::BadRowBlock: return "bad_row_block";
    case ErrorCode::TooDeep: return "too_deep";
    case ErrorCode::UnknownOp: return "unknown_op";
    case ErrorCode::UnknownField: return "unknown_field";
    case ErrorCode::MissingField: return "missing_field";
    case ErrorCode::ConflictingFields: return "conflicting_fields";
    case ErrorCode::WrongKind: return "wrong_kind";
    case ErrorCode::BadValue: return "bad_value";
    case ErrorCode::ConstantPredicate: return "constant_predicate";
    case ErrorCode::BareString: return "bare_string";
    case ErrorCode::NotAllowedHere: return "not_allowed_here";
    case ErrorCode::UnknownTool: return "unknown_tool";
    case ErrorCode::UnknownEntry: return "unknown_entry";
    case ErrorCode::BadOption: return "bad_option";
    case ErrorCode::TooLarge: return "too_large";
    case ErrorCode::UnknownStep: return "unknown_step";
    case ErrorCode::BadName: return "bad_name";
    case ErrorCode::DuplicateName: return "duplicate_name";
    case ErrorCode::BadType: return "bad_type";
    case ErrorCode::UnknownArgument: return "unknown_argument";
    case ErrorCode::MissingArgument: return "missing_argument";
    case ErrorCode::UndeclaredDep: return "undeclared_dep";
    case ErrorCode::UnknownOperator: return "unknown_operator";
    case ErrorCode::BadOperands: return "bad_operands";
    case ErrorCode::UnknownVariable: return "unknown_variable";
    case ErrorCode::Recursion: return "recursion";
    case ErrorCode::MissingReturn: return "missing_return";
    case ErrorCode::NoFunction: return "no_function";
    case ErrorCode::BadInput: return "bad_input";
    case ErrorCode::TypeMismatch: return "type_mismatch";
    case ErrorCode::TextNotNumber: return "text_not_number";
    case ErrorCode::DivisionByZero: return "division_by_zero";
    case ErrorCode::NumberOverflow: return "number_overflow";
    case ErrorCode::InvalidDate: return "invalid_date";
    case ErrorCode::DateOutOfRange: return "date_out_of_range";
    case ErrorCode::BadArgument: return "bad_argument";
    case ErrorCode::NoInput: return "no_input";
    case ErrorCode::ToolFailed: return "tool_failed";
    case ErrorCode::UnhandledFailure: return "unhandled_failure";
    case ErrorCode::BadToolResult: return "bad_tool_result";
    case ErrorCode::NestingTooDeep: return "nesting_too_deep";
    case ErrorCode::StepLimit: return "step_limit";
    case ErrorCode::ToolCallLimit: return "tool_call_limit";
    case ErrorCode::NoMatch: return "no_match";
    case ErrorCode::Aborted: return "aborted";
    case ErrorCode::Timeout: return "timeout";
    case ErrorCode::MemoryExceeded: return "memory_exceeded";
    case ErrorCode::BadHostCall: return "bad_host_call";
    case ErrorCode::UnknownContextKey: return "unknown_context_key";
    case ErrorCode::UnknownMemoryKey: return "unknown_memory_key";
    case ErrorCode::FieldNotFound: return "field_not_found";
    case ErrorCode::DottedField: return "dotted_field";
    case ErrorCode::FieldOfList: return "field_of_list";
    case ErrorCode::UnknownResultField: return "unknown_result_field";
    case ErrorCode::DoubledProgram: return "doubled_program";
    case ErrorCode::ResultStored: return "result_stored";
    case ErrorCode::Internal: return "internal";
    case ErrorCode::Count_: break;
  }
  return "internal";
}

struct Error {
  ErrorType type = ErrorType::Execution;
  ErrorCode code = ErrorCode::Internal;
  std::string message;
  std::string path;  // JSON Pointer; empty with hasPath=false when unknown
  bool hasPath = false;
  long long position = -1;  // byte offset for JSON syntax errors
};

// The one exception type the engine throws internally; the API boundary turns it
// into an error value, so no caller ever sees an exception.
class PtcError : public std::exception {
 public:
  explicit PtcError(Error e) : error(std::move(e)) {}
  PtcError(ErrorType type, ErrorCode code, std::string message) {
    error.type = type;
    error.code = code;
    error.message = std::move(message);
  }
  PtcError(ErrorType type, ErrorCode code, std::string message, std::string path) {
    error.type = type;
    error.code = code;
    error.message = std::move(message);
    error.path = std::move(path);
    error.hasPath = true;
  }
  const char* what() const noexcept override { return error.message.c_str(); }
  Error error;
};

// An execution error raised where no path is known (value.cpp refusing a list
// or object nested too deep) takes the path of the node or step that built it.
inline void locate(Error& e, const std::string& path) {
  if (e.type != ErrorType::Execution || e.hasPath) return;
  e.path = path;
  e.hasPath = true;
}

// Runs `build`, locating an execution error it throws without a path at `path`.
template <class Build>
auto locatedAt(const std::string& path, Build&& build) -> decltype(build()) {
  try {
    return build();
  } catch (PtcError& e) {
    locate(e.error, path);
    throw;
  }
}

// The first problem a compiler finds (PTC-JSON or step functions): a
// validation_error at the JSON Pointer of the offending node.
[[noreturn]] inline void fail(ErrorCode code, const std::string& path, std::string message) {
  throw PtcError(ErrorType::Validation, code, std::move(message), path);
}

// Converts the exception being handled into an error value. Call only inside a
// catch handler (or unhandled_exception of a coroutine).
inline Error currentError() {
  try {
    throw;
  } catch (const PtcError& e) {
    return e.error;
  } catch (const std::bad_alloc&) {
    return Error{ErrorType::MemoryExceeded, ErrorCode::MemoryExceeded, "The engine ran out of memory", "", false, -1};
  } catch (const std::exception& e) {
    return Error{ErrorType::Execution, ErrorCode::Internal, std::string("Internal error: ") + e.what(), "", false, -1};
  } catch (...) {
    return Error{ErrorType::Execution, ErrorCode::Internal, "Internal error", "", false, -1};
  }
}

}  // namespace ptc
