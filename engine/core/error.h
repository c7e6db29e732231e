// Typed errors: every failure the engine reports is one of the five types of
// the spec, with an optional JSON Pointer path and, for JSON syntax, a byte offset.
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

struct Error {
  ErrorType type = ErrorType::Execution;
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
  PtcError(ErrorType type, std::string message) {
    error.type = type;
    error.message = std::move(message);
  }
  PtcError(ErrorType type, std::string message, std::string path) {
    error.type = type;
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
[[noreturn]] inline void fail(const std::string& path, std::string message) {
  throw PtcError(ErrorType::Validation, std::move(message), path);
}

// Converts the exception being handled into an error value. Call only inside a
// catch handler (or unhandled_exception of a coroutine).
inline Error currentError() {
  try {
    throw;
  } catch (const PtcError& e) {
    return e.error;
  } catch (const std::bad_alloc&) {
    return Error{ErrorType::MemoryExceeded, "The engine ran out of memory", "", false, -1};
  } catch (const std::exception& e) {
    return Error{ErrorType::Execution, std::string("Internal error: ") + e.what(), "", false, -1};
  } catch (...) {
    return Error{ErrorType::Execution, "Internal error", "", false, -1};
  }
}

}  // namespace ptc
