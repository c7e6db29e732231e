// Function headers (§2, §3): the name, parameters, output type and deps of each
// function, checked before any body so that calls may name later functions.
#include <algorithm>

#include "core/error.h"
#include "core/json.h"
#include "core/json_pointer.h"
#include "core/suggest.h"
#include "step_functions/compile.h"
#include "step_functions/text.h"

namespace ptc::step_functions {

namespace {

void checkFunctionKeys(const Value& v, const std::string& path) {
  static const std::vector<std::string> keys = {"function", "input", "output", "deps", "steps"};
  for (MemberRef m : v.members()) {
    const std::string& k = m.key.str();
    if (std::find(keys.begin(), keys.end(), k) != keys.end()) continue;
    const char* why = notInDialect(k);
    fail(ErrorCode::UnknownField, childPath(path, k),
         "Unknown key '" + k + "' in a function object" +
             (why ? ": " + std::string(why) : "." + didYouMean(k, keys) + " Its keys are: " + listNames(keys) + "."));
  }
}

std::string functionName(const Value& v, const std::string& path, const std::vector<Header>& earlier) {
  const Value* name = v.find("function");
  if (!name) fail(ErrorCode::MissingField, path, "A function object needs \"function\": its name");
  if (!name->isString() || !isName(name->str()))
    fail(ErrorCode::BadName, childPath(path, "function"),
         "The function name must be a NAME (letters, digits, '_', '-' groups, e.g. \"make-id\"), got " +
             shortJson(*name));
  for (const Header& other : earlier)
    if (other.name == name->str())
      fail(ErrorCode::DuplicateName, childPath(path, "function"),
           "A second function named '" + name->str() + "' (the first is " + other.path + ")");
  return name->str();
}

void parameters(const Value& v, const std::string& path, Header& h) {
  const Value* input = v.find("input");
  if (!input) return;
  if (!input->isObject())
    fail(ErrorCode::WrongKind, childPath(path, "input"),
         "\"input\" must be an object of parameter names to types, got " + std::string(typeName(*input)));
  for (MemberRef m : input->members()) {
    std::string p = childPath(childPath(path, "input"), m.key.str());
    if (!isName(m.key.str())) fail(ErrorCode::BadName, p, "Parameter name '" + m.key.str() + "' is not a NAME");
    if (!m.value.isString())
      fail(ErrorCode::WrongKind, p,
           "The type of parameter '" + m.key.str() + "' must be a type string such as \"number\" or \"list text\"");
    Type t;
    std::string error;
    if (!parseType(m.value.str(), false, t, error))
      fail(ErrorCode::BadType, p, "Bad type \"" + m.value.str() + "\" for parameter '" + m.key.str() + "': " + error);
    h.params.emplace_back(m.key.str(), t);
  }
}

void outputType(const Value& v, const std::string& path, Header& h) {
  const Value* output = v.find("output");
  if (!output)
    fail(ErrorCode::MissingField, path,
         "Function '" + h.name + "' needs \"output\": its type, e.g. \"number\" or \"result nil text\"");
  if (!output->isString()) fail(ErrorCode::WrongKind, childPath(path, "output"), "\"output\" must be a type string");
  std::string error;
  if (!parseType(output->str(), true, h.output, error))
    fail(ErrorCode::BadType, childPath(path, "output"), "Bad output type \"" + output->str() + "\": " + error);
}

void deps(const Value& v, const std::string& path, Header& h) {
  const Value* deps = v.find("deps");
  if (!deps) return;
  if (!deps->isArray())
    fail(ErrorCode::WrongKind, childPath(path, "deps"), "\"deps\" must be a list of the names this function calls");
  h.hasDeps = true;
  for (size_t i = 0; i < deps->items().size(); ++i) {
    const Value& d = deps->items()[i];
    if (!d.isString() || !isName(d.str()))
      fail(ErrorCode::BadName, childPath(childPath(path, "deps"), i), "Each dep must be a NAME, got " + shortJson(d));
    if (std::find(h.deps.begin(), h.deps.end(), d.str()) != h.deps.end())
      fail(ErrorCode::DuplicateName, childPath(childPath(path, "deps"), i), "Dep '" + d.str() + "' is listed twice");
    h.deps.push_back(d.str());
  }
}

}  // namespace

const char* notInDialect(std::string_view key) {
  if (key == "else")
    return "'else' goes in an 'if' step with \"then\": {\"if\": condition, \"then\": [steps], \"else\": [steps]}";
  if (key == "while")
    return "'while' is not part of the dialect: loop over a list with {\"for\": ..., \"in\": ..., \"do\": [...]}";
  if (key == "break")
    return "'break' is a key of an 'if' step, {\"if\": condition, \"break\": true}, or of on-error, "
           "{\"break\": true}: it ends the innermost for loop";
  if (key == "compensate")
    return "'compensate' belongs in \"on-error\" (calls when this step fails) or in an 'if' with \"return\"; to "
           "undo a call step if the function fails later, give it \"undo\": {\"call\": ..., \"args\": {...}}";
  if (key == "try") return "'try' is not part of the dialect: put \"on-error\" on the call step";
  if (key == "continue")
    return "'continue' is only allowed inside \"on-error\" of a call in a loop body: {\"on-error\": {\"continue\": true}}";
  if (key == "description" || key == "comment" || key == "//" || key == "doc")
    return "descriptions and comments are not part of the dialect";
  return nullptr;
}

std::string parameterList(const std::vector<std::string>& names) { return names.empty() ? "none" : listNames(names); }

Header compileHeader(const Value& v, const std::string& path, const std::vector<Header>& earlier) {
  if (v.isArray())
    fail(ErrorCode::NotAnObject, path,
         "The file must be function objects written one after another, not an array of them");
  if (!v.isObject())
    fail(ErrorCode::NotAnObject, path,
         "Expected a function object {\"function\": ..., \"output\": ..., \"steps\": [...]}, got " +
             std::string(typeName(v)));
  checkFunctionKeys(v, path);
  Header h;
  h.index = earlier.size();
  h.path = path;
  h.name = functionName(v, path, earlier);
  parameters(v, path, h);
  outputType(v, path, h);
  deps(v, path, h);
  const Value* steps = v.find("steps");
  if (!steps)
    fail(ErrorCode::MissingField, path, "Function '" + h.name + "' needs \"steps\": a non-empty list of steps");
  if (!steps->isArray() || steps->items().empty())
    fail(ErrorCode::WrongKind, childPath(path, "steps"), "\"steps\" must be a non-empty list of steps");
  h.steps = steps;
  return h;
}

int FileContext::functionIndex(const std::string& name) const {
  for (const Header& h : headers)
    if (h.name == name) return static_cast<int>(h.index);
  return -1;
}

std::vector<std::string> FileContext::functionNames() const {
  std::vector<std::string> names;
  for (const Header& h : headers) names.push_back(h.name);
  return names;
}

std::vector<std::string> FileContext::targets() const {
  std::vector<std::string> all = functionNames();
  all.insert(all.end(), options.tools.begin(), options.tools.end());
  return all;
}

void checkDepsResolve(const FileContext& file, const Header& h) {
  if (!h.hasDeps || !file.options.toolsKnown) return;
  for (size_t i = 0; i < h.deps.size(); ++i)
    if (file.functionIndex(h.deps[i]) < 0 && !file.isTool(h.deps[i]))
      fail(ErrorCode::UnknownTool, childPath(childPath(h.path, "deps"), i),
           "Dep '" + h.deps[i] + "' is neither a function of the file nor a tool of this run." +
               didYouMean(h.deps[i], file.targets()));
}

int entryIndex(const FileContext& file) {
  const std::string& entry = file.options.entry;
  if (entry.empty()) return static_cast<int>(file.headers.size()) - 1;
  if (int i = file.functionIndex(entry); i >= 0) return i;
  throw PtcError(Error{ErrorType::Validation, ErrorCode::UnknownEntry,
                       "Unknown entry function '" + entry + "'." + didYouMean(entry, file.functionNames()) +
                           " Functions: " + listNames(file.functionNames()) + ".",
                       "", false, -1});
}

}  // namespace ptc::step_functions
