// The parts of the step-function compiler (compiler.h is its API),
// one file per concern: function headers (compile_headers.cpp), steps
// (compile_steps.cpp, the step table drives their keys), expressions
// (compile_exprs.cpp), calls among functions
// (compile_recursion.cpp) and nesting (compile_nesting.cpp). Each reports the first problem it finds
// with fail() (core/error.h): a validation_error at the offending JSON Pointer.
#pragma once

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/value.h"
#include "step_functions/compiler.h"
#include "step_functions/file.h"

namespace ptc::step_functions {

// What a function of the file looks like before its body is compiled (§2, §3).
struct Header {
  size_t index = 0;  // its position in the file
  std::string name;
  std::string path;  // "/index"
  std::vector<std::pair<std::string, Type>> params;
  Type output;
  bool hasDeps = false;
  std::vector<std::string> deps;
  const Value* steps = nullptr;
};

// A call of a function of the file, for the recursion check (§4).
struct CallSite {
  size_t callee;
  std::string path;  // of the step's "call"
};

// The whole file while its functions compile: every header is known first, so
// a call may name a function that comes later.
struct FileContext {
  explicit FileContext(const CompileOptions& compileOptions) : options(compileOptions) {}

  const CompileOptions& options;
  std::vector<Header> headers;
  std::vector<std::vector<CallSite>> calls;  // per function, the file functions it calls
  std::set<std::string> toolsCalled;

  // The function's index, or -1 when no function of the file has that name.
  int functionIndex(const std::string& name) const;
  std::vector<std::string> functionNames() const;
  // What a call may name: the file's functions, then the run's tools.
  std::vector<std::string> targets() const;
  bool isTool(const std::string& name) const {
    return std::find(options.tools.begin(), options.tools.end(), name) != options.tools.end();
  }
};

// Names visible at a point of a function body.
struct Scope {
  std::vector<std::string> names;       // in binding order, for did-you-mean
  std::unordered_set<std::string> set;  // the same: a function may bind thousands
  // name -> why it is not visible here: bound in the loop at ..., or in one branch of an if
  std::map<std::string, std::string> leftLoop;
  bool has(const std::string& n) const { return set.count(n) != 0; }
  void bind(const std::string& name) {
    if (set.insert(name).second) names.push_back(name);
    leftLoop.erase(name);
  }
};

// Where a piece of a function body compiles: passed down through steps and
// expressions in place of (scope, errorAvailable, loop depth) one by one.
struct BodyContext {
  FileContext& file;
  const Header& function;       // the function whose body it is
  Scope& scope;                 // the names bound before this point; steps add to it
  int loopDepth = 0;            // enclosing for loops: "yield" and "continue" need one
  bool errorAvailable = false;  // inside "on-error": $error is the failure's message
  // The "state" names of the enclosing for loops, which a yield's "to" may name.
  std::vector<std::string> loopState = {};
};

// ---- headers (compile_headers.cpp) ----
// `earlier`: the headers of the functions before it, whose names it must not repeat.
Header compileHeader(const Value& v, const std::string& path, const std::vector<Header>& earlier);
// With the run's tools known: each of the function's deps names a function of
// the file or a tool (checked after its body, whose problems come first).
void checkDepsResolve(const FileContext& file, const Header& h);
// The entry function's index: options.entry, or the last function.
int entryIndex(const FileContext& file);
// "a, b" or "none", for "Its parameters: ..." messages.
std::string parameterList(const std::vector<std::string>& names);
// An explanation for a key agents bring from other languages ("else", "while",
// "try", ...), or nullptr.
const char* notInDialect(std::string_view key);

// ---- steps (compile_steps.cpp) ----
Function compileFunction(FileContext& file, const Header& header);

// ---- expressions (compile_exprs.cpp) ----
Expr compileExpr(const Value& v, const std::string& path, const BodyContext& ctx);
// An object whose keys are data, never operators: a call's "args".
Expr compileObjectLiteral(const Value& v, const std::string& path, const BodyContext& ctx);
// An operator key ("+", "and", ...) or "$merge".
bool isOperatorKey(std::string_view key);

// ---- calls among functions (compile_recursion.cpp) ----
// Fails at the call that closes a cycle of calls among the file's functions.
void checkNoRecursion(const FileContext& file);

// ---- nesting (compile_nesting.cpp) ----
// Fails where the compiled file nests more than kMaxStepNesting for loops and
// calls of its functions along some path (counted through the functions called).
void checkNesting(const File& wf);
// The message of both checks: at `path`, the steps nest too deep.
[[noreturn]] void tooDeep(const std::string& path);

}  // namespace ptc::step_functions
