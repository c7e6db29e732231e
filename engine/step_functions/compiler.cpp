// The step-function compiler's entry: headers of every function first (so a
// call may name a later function), then each body, then the call graph and
// its nesting. The
// concerns live in compile_*.cpp (see compile.h).
#include "step_functions/compiler.h"

#include <algorithm>

#include "core/error.h"
#include "core/json.h"
#include "core/json_pointer.h"
#include "core/suggest.h"
#include "step_functions/compile.h"
#include "step_functions/text.h"

namespace ptc::step_functions {

std::shared_ptr<const File> compileFile(const std::vector<Value>& functions, const CompileOptions& options) {
  BudgetScope noBudget(nullptr);  // compiled constants belong to no run
  if (functions.empty())
    throw PtcError(Error{ErrorType::Validation, ErrorCode::NoFunction,
                         "The file holds no function: write one or more function objects one after another", "", false,
                         -1});
  FileContext file{options};
  for (size_t i = 0; i < functions.size(); ++i)
    file.headers.push_back(compileHeader(functions[i], "/" + std::to_string(i), file.headers));
  file.calls.resize(file.headers.size());
  auto wf = std::make_shared<File>();
  wf->entry = entryIndex(file);
  for (const Header& h : file.headers) wf->functions.push_back(compileFunction(file, h));
  checkNoRecursion(file);
  checkNesting(*wf);
  wf->tools.assign(file.toolsCalled.begin(), file.toolsCalled.end());
  return wf;
}

void checkEntryInput(const File& file, const Value& input) {
  const Function& fn = file.functions[static_cast<size_t>(file.entry)];
  std::string path = fn.path + "/input";
  if (!input.isObject())
    throw PtcError(ErrorType::Validation, ErrorCode::BadInput,
                   "The input of '" + fn.name + "' must be an object of its parameters, got " + typeName(input), path);
  std::vector<std::string> declared;
  for (const auto& [name, type] : fn.params) {
    declared.push_back(name);
    const Value* v = input.find(name);
    if (!v)
      throw PtcError(ErrorType::Validation, ErrorCode::BadInput,
                     "The input of '" + fn.name + "' is missing parameter '" + name + "' (" + typeText(type) + ")",
                     path + "/" + pointerToken(name));
    if (!conforms(*v, type))
      throw PtcError(
          ErrorType::Validation, ErrorCode::BadInput,
          "Input parameter '" + name + "' of '" + fn.name + "' must be " + typeText(type) + ", got " + shortJson(*v),
          path + "/" + pointerToken(name));
  }
  for (MemberRef m : input.members())
    if (std::find(declared.begin(), declared.end(), m.key.str()) == declared.end())
      throw PtcError(ErrorType::Validation, ErrorCode::BadInput,
                     "Unknown input parameter '" + m.key.str() + "' for '" + fn.name + "'." +
                         didYouMean(m.key.str(), declared) + " Its parameters: " + parameterList(declared) + ".",
                     path);
}

}  // namespace ptc::step_functions
