#include "workflow/workflow_compiler.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/error.h"
#include "core/json.h"
#include "core/json_pointer.h"
#include "core/suggest.h"
#include "workflow/workflow_text.h"

namespace ptc::workflow {

namespace {

// Words of other languages that agents reach for; each gets its own explanation.
const char* notInDialect(std::string_view key) {
  if (key == "else") return "'else' is not part of the dialect: an 'if' step returns early, so write the else-case as the steps that follow it";
  if (key == "while") return "'while' is not part of the dialect: loop over a list with {\"for\": ..., \"in\": ..., \"do\": [...]}";
  if (key == "break") return "'break' is not part of the dialect";
  if (key == "try") return "'try' is not part of the dialect: put \"on-error\" on the call step";
  if (key == "continue") return "'continue' is only allowed inside \"on-error\" of a call in a loop body: {\"on-error\": {\"continue\": true}}";
  if (key == "description" || key == "comment" || key == "//" || key == "doc")
    return "descriptions and comments are not part of the dialect";
  return nullptr;
}

struct OperatorSpec {
  const char* key;
  Operator op;
  size_t minOperands;
  size_t maxOperands;
};

const OperatorSpec kOperators[] = {
    {"+", Operator::Add, 2, SIZE_MAX}, {"-", Operator::Sub, 1, 2},     {"*", Operator::Mul, 2, SIZE_MAX},
    {"/", Operator::Div, 2, 2},        {">", Operator::Gt, 2, 2},      {">=", Operator::Gte, 2, 2},
    {"<", Operator::Lt, 2, 2},         {"<=", Operator::Lte, 2, 2},    {"==", Operator::Eq, 2, 2},
    {"!=", Operator::Neq, 2, 2},       {"and", Operator::And, 2, SIZE_MAX}, {"or", Operator::Or, 2, SIZE_MAX},
    {"not", Operator::Not, 1, 1},
};

const OperatorSpec* findOperator(std::string_view key) {
  for (const auto& o : kOperators)
    if (key == o.key) return &o;
  return nullptr;
}

// A key made only of ASCII punctuation other than '_' or starting with '$' looks
// like an operator (§6): unknown ones are errors, not object literals.
bool looksLikeOperator(std::string_view key) {
  if (key.empty()) return false;
  if (key[0] == '$') return true;
  return std::all_of(key.begin(), key.end(),
                     [](char c) { return std::ispunct(static_cast<unsigned char>(c)) && c != '_'; });
}

std::vector<std::string> operatorKeys() {
  std::vector<std::string> keys;
  for (const auto& o : kOperators) keys.push_back(o.key);
  keys.push_back("$merge");
  return keys;
}

// What a function of the file looks like before its body is compiled.
struct Header {
  std::string name;
  std::string path;
  std::vector<std::pair<std::string, Type>> params;
  Type output;
  bool hasDeps = false;
  std::vector<std::string> deps;
  const Value* steps = nullptr;
};

// Names visible at a point of a function body.
struct Scope {
  std::vector<std::string> names;
  std::map<std::string, std::string> leftLoop;  // name -> path of the loop it was bound in
  bool has(const std::string& n) const { return std::find(names.begin(), names.end(), n) != names.end(); }
};

class WorkflowCompiler {
 public:
  WorkflowCompiler(const std::vector<Value>& values, const CompileOptions& options)
      : values_(values), options_(options) {}

  std::shared_ptr<const Workflow> compile() {
    if (values_.empty())
      throw PtcError(Error{ErrorType::Validation, "The file holds no function: write one or more function objects one after another", "", false, -1});
    for (size_t i = 0; i < values_.size(); ++i) headers_.push_back(header(values_[i], "/" + std::to_string(i)));
    auto wf = std::make_shared<Workflow>();
    wf->entry = entryIndex();
    for (size_t i = 0; i < headers_.size(); ++i) wf->functions.push_back(function(i));
    checkRecursion(*wf);
    wf->tools.assign(toolsCalled_.begin(), toolsCalled_.end());
    return wf;
  }

 private:
  // ---- function headers (§2, §3) ----

  Header header(const Value& v, const std::string& path) {
    if (v.isArray())
      fail(path, "The file must be function objects written one after another, not an array of them");
    if (!v.isObject()) fail(path, "Expected a function object {\"function\": ..., \"output\": ..., \"steps\": [...]}, got " + std::string(typeName(v)));
    static const std::vector<std::string> keys = {"function", "input", "output", "deps", "steps"};
    for (const Member& m : v.members()) {
      const std::string& k = m.key.str();
      if (std::find(keys.begin(), keys.end(), k) != keys.end()) continue;
      const char* why = notInDialect(k);
      fail(childPath(path, k), "Unknown key '" + k + "' in a function object" +
                               (why ? ": " + std::string(why) : "." + didYouMean(k, keys) + " Its keys are: " + listNames(keys) + "."));
    }
    Header h;
    h.path = path;
    const Value* name = v.find("function");
    if (!name) fail(path, "A function object needs \"function\": its name");
    if (!name->isString() || !isName(name->str()))
      fail(childPath(path, "function"), "The function name must be a NAME (letters, digits, '_', '-' groups, e.g. \"make-id\"), got " + shortJson(*name));
    h.name = name->str();
    for (const Header& other : headers_)
      if (other.name == h.name) fail(childPath(path, "function"), "A second function named '" + h.name + "' (the first is " + other.path + ")");
    if (const Value* input = v.find("input")) {
      if (!input->isObject()) fail(childPath(path, "input"), "\"input\" must be an object of parameter names to types, got " + std::string(typeName(*input)));
      for (const Member& m : input->members()) {
        std::string p = childPath(childPath(path, "input"), m.key.str());
        if (!isName(m.key.str())) fail(p, "Parameter name '" + m.key.str() + "' is not a NAME");
        if (!m.value.isString()) fail(p, "The type of parameter '" + m.key.str() + "' must be a type string such as \"number\" or \"list text\"");
        Type t;
        std::string error;
        if (!parseType(m.value.str(), false, t, error)) fail(p, "Bad type \"" + m.value.str() + "\" for parameter '" + m.key.str() + "': " + error);
        h.params.emplace_back(m.key.str(), t);
      }
    }
    const Value* output = v.find("output");
    if (!output) fail(path, "Function '" + h.name + "' needs \"output\": its type, e.g. \"number\" or \"result nil text\"");
    if (!output->isString()) fail(childPath(path, "output"), "\"output\" must be a type string");
    std::string error;
    if (!parseType(output->str(), true, h.output, error)) fail(childPath(path, "output"), "Bad output type \"" + output->str() + "\": " + error);
    if (const Value* deps = v.find("deps")) {
      if (!deps->isArray()) fail(childPath(path, "deps"), "\"deps\" must be a list of the names this function calls");
      h.hasDeps = true;
      for (size_t i = 0; i < deps->items().size(); ++i) {
        const Value& d = deps->items()[i];
        if (!d.isString() || !isName(d.str())) fail(childPath(childPath(path, "deps"), i), "Each dep must be a NAME, got " + shortJson(d));
        if (std::find(h.deps.begin(), h.deps.end(), d.str()) != h.deps.end())
          fail(childPath(childPath(path, "deps"), i), "Dep '" + d.str() + "' is listed twice");
        h.deps.push_back(d.str());
      }
    }
    const Value* steps = v.find("steps");
    if (!steps) fail(path, "Function '" + h.name + "' needs \"steps\": a non-empty list of steps");
    if (!steps->isArray() || steps->items().empty()) fail(childPath(path, "steps"), "\"steps\" must be a non-empty list of steps");
    h.steps = steps;
    return h;
  }

  int entryIndex() {
    if (options_.entry.empty()) return static_cast<int>(headers_.size()) - 1;
    for (size_t i = 0; i < headers_.size(); ++i)
      if (headers_[i].name == options_.entry) return static_cast<int>(i);
    throw PtcError(Error{ErrorType::Validation,
                         "Unknown entry function '" + options_.entry + "'." + didYouMean(options_.entry, functionNames()) +
                             " Functions: " + listNames(functionNames()) + ".",
                         "", false, -1});
  }

  std::vector<std::string> functionNames() const {
    std::vector<std::string> names;
    for (const Header& h : headers_) names.push_back(h.name);
    return names;
  }

  int functionIndex(const std::string& name) const {
    for (size_t i = 0; i < headers_.size(); ++i)
      if (headers_[i].name == name) return static_cast<int>(i);
    return -1;
  }

  // ---- function bodies ----

  Function function(size_t index) {
    const Header& h = headers_[index];
    current_ = &h;
    calls_.emplace_back();
    Function fn;
    fn.name = h.name;
    fn.path = h.path;
    fn.params = h.params;
    fn.output = h.output;
    Scope scope;
    fn.steps = block(*h.steps, childPath(h.path, "steps"), scope, 0);
    const Step& last = fn.steps.back();
    fn.endsWithUnboundFor = last.kind == Step::Kind::For && last.let.empty();
    if (!h.output.allowsFallingOffTheEnd() && last.kind != Step::Kind::Return && !fn.endsWithUnboundFor)
      fail(childPath(childPath(h.path, "steps"), fn.steps.size() - 1),
           "Missing return: function '" + h.name + "' has output '" + typeText(h.output) +
               "', so its last step must be a {\"return\": ...} (or a for without let, whose list it returns)");
    if (h.hasDeps)
      for (size_t i = 0; i < h.deps.size(); ++i)
        if (functionIndex(h.deps[i]) < 0 && options_.toolsKnown &&
            std::find(options_.tools.begin(), options_.tools.end(), h.deps[i]) == options_.tools.end())
          fail(childPath(childPath(h.path, "deps"), i), "Dep '" + h.deps[i] + "' is neither a function of the file nor a tool of this run." + didYouMean(h.deps[i], targets()));
    return fn;
  }

  std::vector<Step> block(const Value& steps, const std::string& path, Scope& scope, int loopDepth) {
    std::vector<Step> out;
    for (size_t i = 0; i < steps.items().size(); ++i) out.push_back(step(steps.items()[i], childPath(path, i), i, scope, loopDepth));
    return out;
  }

  void checkKeys(const Value& v, const std::string& path, const std::vector<std::string>& allowed, const char* shape) {
    for (const Member& m : v.members()) {
      const std::string& k = m.key.str();
      if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
      const char* why = notInDialect(k);
      fail(childPath(path, k), "Unknown key '" + k + "' in " + shape + (why ? ": " + std::string(why) : ". Its keys are: " + listNames(allowed) + "."));
    }
  }

  std::string bindName(const Value& v, const std::string& path) {
    if (!v.isString() || !isName(v.str()))
      fail(path, "A bound name must be a NAME (letters, digits, '_', '-' groups), got " + shortJson(v));
    if (v.str() == "input" || v.str() == "error") fail(path, "'" + v.str() + "' is reserved ($" + v.str() + "); choose another name");
    return v.str();
  }

  Step step(const Value& v, const std::string& path, size_t index, Scope& scope, int loopDepth) {
    if (!v.isObject()) fail(path, "A step must be an object such as {\"let\": ..., \"call\": ...}, got " + std::string(typeName(v)));
    Step s;
    s.path = path;
    s.index = index;
    auto has = [&](const char* k) { return v.find(k) != nullptr; };
    std::vector<std::string> kinds;
    for (const char* k : {"expr", "call", "match", "if", "for", "yield"})
      if (has(k)) kinds.push_back(k);
    if (has("return") && !has("if")) kinds.push_back("return");
    if (kinds.size() > 1)
      fail(path, "A step has exactly one kind, but this one has both '" + kinds[0] + "' and '" + kinds[1] + "': split it into two steps");
    if (has("yield")) {
      checkKeys(v, path, {"yield"}, "a yield step");
      if (loopDepth == 0) fail(path, "'yield' is only allowed in the \"do\" body of a for loop");
      s.kind = Step::Kind::Yield;
      s.expr = expr(*v.find("yield"), childPath(path, "yield"), scope, false);
    } else if (has("for")) {
      forStep(v, path, s, scope, loopDepth);
    } else if (has("match")) {
      checkKeys(v, path, {"let", "match", "cases"}, "a match step");
      if (!has("let")) fail(path, "A match step needs \"let\": {\"let\": \"x\", \"match\": \"$y\", \"cases\": {...}}");
      if (!has("cases")) fail(path, "A match step needs \"cases\": an object of values by key, with \"_\" as the default");
      s.kind = Step::Kind::Match;
      s.expr = expr(*v.find("match"), childPath(path, "match"), scope, false);
      const Value& cases = *v.find("cases");
      if (!cases.isObject() || cases.members().empty()) fail(childPath(path, "cases"), "\"cases\" must be a non-empty object");
      for (const Member& m : cases.members())
        s.cases.emplace_back(m.key.str(), expr(m.value, childPath(childPath(path, "cases"), m.key.str()), scope, false));
      s.let = bindName(*v.find("let"), childPath(path, "let"));
    } else if (has("if")) {
      checkKeys(v, path, {"if", "return", "compensate"}, "an if step");
      if (!has("return")) fail(path, "An 'if' step must have \"return\": if steps always pair with return for early exit (there is no else)");
      s.kind = Step::Kind::If;
      s.expr = expr(*v.find("if"), childPath(path, "if"), scope, false);
      if (const Value* comp = v.find("compensate")) s.compensate = compensations(*comp, childPath(path, "compensate"), scope, false);
      s.ifReturn = returnValue(*v.find("return"), childPath(path, "return"), scope, false);
    } else if (has("call")) {
      checkKeys(v, path, {"let", "call", "args", "on-error"}, "a call step");
      s.kind = Step::Kind::Call;
      s.call = call(v, path, scope, false);
      if (const Value* handler = v.find("on-error")) s.onError = onError(*handler, childPath(path, "on-error"), scope, loopDepth);
      if (const Value* let = v.find("let")) s.let = bindName(*let, childPath(path, "let"));
    } else if (has("expr")) {
      checkKeys(v, path, {"let", "expr"}, "a let step");
      if (!has("let")) fail(path, "An \"expr\" step needs \"let\": {\"let\": \"x\", \"expr\": ...}");
      s.kind = Step::Kind::LetExpr;
      s.expr = expr(*v.find("expr"), childPath(path, "expr"), scope, false);
      s.let = bindName(*v.find("let"), childPath(path, "let"));
    } else if (has("return")) {
      checkKeys(v, path, {"return"}, "a return step");
      s.kind = Step::Kind::Return;
      s.expr = returnValue(*v.find("return"), childPath(path, "return"), scope, false);
    } else {
      for (const Member& m : v.members())
        if (const char* why = notInDialect(m.key.str())) fail(childPath(path, m.key.str()), why);
      if (has("let")) fail(path, "A \"let\" step needs \"expr\", \"call\" or \"match\" to say what is bound");
      fail(path, "Unknown step shape: a step is one of {let, expr}, {let?, call, args?, on-error?}, {let, match, cases}, "
                 "{if, return, compensate?}, {return}, {for, in, do, let?} or {yield}");
    }
    if (!s.let.empty()) bind(scope, s.let);
    return s;
  }

  void forStep(const Value& v, const std::string& path, Step& s, Scope& scope, int loopDepth) {
    checkKeys(v, path, {"for", "in", "do", "let"}, "a for step");
    if (!v.find("in")) fail(path, "A for step needs \"in\": the list to loop over");
    if (!v.find("do")) fail(path, "A for step needs \"do\": the steps of each iteration");
    s.kind = Step::Kind::For;
    s.var = bindName(*v.find("for"), childPath(path, "for"));
    s.expr = expr(*v.find("in"), childPath(path, "in"), scope, false);
    const Value& body = *v.find("do");
    if (!body.isArray() || body.items().empty()) fail(childPath(path, "do"), "\"do\" must be a non-empty list of steps");
    Scope inner = scope;
    bind(inner, s.var);
    s.body = block(body, childPath(path, "do"), inner, loopDepth + 1);
    // Names bound in the body are not visible after the loop (unless bound before it).
    for (const std::string& n : inner.names)
      if (!scope.has(n)) scope.leftLoop[n] = path;
    if (const Value* let = v.find("let")) s.let = bindName(*let, childPath(path, "let"));
  }

  static void bind(Scope& scope, const std::string& name) {
    if (!scope.has(name)) scope.names.push_back(name);
    scope.leftLoop.erase(name);
  }

  std::unique_ptr<Handler> onError(const Value& v, const std::string& path, Scope& scope, int loopDepth) {
    if (!v.isObject()) fail(path, "\"on-error\" must be an object with \"return\", \"compensate\" and/or \"continue\"");
    checkKeys(v, path, {"compensate", "return", "continue"}, "on-error");
    if (v.members().empty()) fail(path, "\"on-error\" needs at least one of \"return\", \"compensate\", \"continue\"");
    auto h = std::make_unique<Handler>();
    if (const Value* comp = v.find("compensate")) h->compensate = compensations(*comp, childPath(path, "compensate"), scope, true);
    const Value* ret = v.find("return");
    const Value* cont = v.find("continue");
    if (ret && cont) fail(path, "\"on-error\" cannot have both \"return\" and \"continue\"");
    if (cont) {
      if (!(cont->isBool() && cont->asBool())) fail(childPath(path, "continue"), "\"continue\" must be true");
      if (loopDepth == 0) fail(childPath(path, "continue"), "\"continue\" is only allowed inside the \"do\" body of a for loop");
      h->continueLoop = true;
    }
    if (ret) {
      h->hasReturn = true;
      h->returnValue = returnValue(*ret, childPath(path, "return"), scope, true);
    }
    return h;
  }

  std::vector<Call> compensations(const Value& v, const std::string& path, Scope& scope, bool errorAvailable) {
    if (!v.isArray()) fail(path, "\"compensate\" must be a list of calls [{\"call\": ..., \"args\": {...}}]");
    std::vector<Call> out;
    for (size_t i = 0; i < v.items().size(); ++i) {
      const Value& c = v.items()[i];
      std::string p = childPath(path, i);
      if (!c.isObject() || !c.find("call")) fail(p, "A compensation is a call: {\"call\": \"name\", \"args\": {...}}");
      checkKeys(c, p, {"call", "args"}, "a compensation");
      out.push_back(call(c, p, scope, errorAvailable));
    }
    return out;
  }

  Call call(const Value& v, const std::string& path, const Scope& scope, bool errorAvailable) {
    Call c;
    c.path = path;
    const Value& target = *v.find("call");
    if (!target.isString() || !isName(target.str())) fail(childPath(path, "call"), "\"call\" must name a function of the file or a tool, got " + shortJson(target));
    c.target = target.str();
    c.function = functionIndex(c.target);
    if (c.function < 0) {
      if (options_.toolsKnown && std::find(options_.tools.begin(), options_.tools.end(), c.target) == options_.tools.end())
        fail(childPath(path, "call"), "Unknown function or tool '" + c.target + "'." + didYouMean(c.target, targets()) +
                                      (targets().empty() ? " No tools are available in this run." : " Available: " + listNames(targets()) + "."));
      toolsCalled_.insert(c.target);
    } else {
      calls_.back().emplace_back(c.function, childPath(path, "call"));
    }
    if (current_->hasDeps && std::find(current_->deps.begin(), current_->deps.end(), c.target) == current_->deps.end())
      fail(childPath(path, "call"), "Undeclared dep '" + c.target + "': function '" + current_->name + "' lists its deps, so add it to \"deps\"");
    if (const Value* args = v.find("args")) {
      std::string ap = childPath(path, "args");
      if (!args->isObject()) fail(ap, "\"args\" must be an object of argument names to values");
      for (const Member& m : args->members())
        if (findOperator(m.key.str()) || m.key.str() == "$merge")
          fail(childPath(ap, m.key.str()), "Argument names cannot be operators or $merge: \"args\" is an object literal");
      c.hasArgs = true;
      c.args = objectLiteral(*args, ap, scope, errorAvailable);
    }
    if (c.function >= 0) checkArgNames(c, path, v.find("args"));
    return c;
  }

  void checkArgNames(const Call& c, const std::string& path, const Value* args) {
    const Header& callee = headers_[static_cast<size_t>(c.function)];
    std::vector<std::string> declared;
    for (const auto& p : callee.params) declared.push_back(p.first);
    std::vector<std::string> given;
    if (args)
      for (const Member& m : args->members()) given.push_back(m.key.str());
    for (const std::string& g : given)
      if (std::find(declared.begin(), declared.end(), g) == declared.end())
        fail(childPath(childPath(path, "args"), g), "Function '" + callee.name + "' has no parameter '" + g + "'." + didYouMean(g, declared) +
                                                " Its parameters: " + (declared.empty() ? "none" : listNames(declared)) + ".");
    for (const std::string& d : declared)
      if (std::find(given.begin(), given.end(), d) == given.end())
        fail(args ? childPath(path, "args") : path, "The call of '" + callee.name + "' is missing argument '" + d + "'");
  }

  std::vector<std::string> targets() const {
    std::vector<std::string> all = functionNames();
    all.insert(all.end(), options_.tools.begin(), options_.tools.end());
    return all;
  }

  // ---- returns (§9) ----

  Expr returnValue(const Value& v, const std::string& path, const Scope& scope, bool errorAvailable) {
    const Type& out = current_->output;
    bool resultShaped = v.isObject() && v.members().size() == 1 &&
                        (v.members()[0].key.str() == "ok" || v.members()[0].key.str() == "error");
    if (out.isResult() && !resultShaped)
      fail(path, "Function '" + current_->name + "' has output '" + typeText(out) +
                     "': return {\"ok\": value} or {\"error\": message}, got " + shortJson(v));
    if (!out.isResult() && resultShaped)
      fail(path, "Function '" + current_->name + "' has output '" + typeText(out) +
                     "', not a result type: return the value itself, not {\"" + v.members()[0].key.str() + "\": ...}");
    Expr e = expr(v, path, scope, errorAvailable);
    if (e.kind == Expr::Kind::Const && !conforms(e.constant, out)) {
      // Point at what does not conform: the payload of {"ok"}/{"error"}, or the value.
      std::string key = out.isResult() ? v.members()[0].key.str() : "";
      const Value& shown = out.isResult() ? v.members()[0].value : e.constant;
      std::string what = out.isResult() ? typeText(out.args[key == "ok" ? 0 : 1]) : typeText(out);
      fail(key.empty() ? path : childPath(path, key), "The returned constant " + shortJson(shown) + " is not a " + what +
                                                      " (function '" + current_->name + "' has output '" + typeText(out) + "')");
    }
    return e;
  }

  // ---- value expressions (§5, §6, §8) ----

  Expr expr(const Value& v, const std::string& path, const Scope& scope, bool errorAvailable) {
    Expr e;
    e.path = path;
    switch (v.kind()) {
      case Kind::String: return stringExpr(v, path, scope, errorAvailable);
      case Kind::Array: {
        e.kind = Expr::Kind::Array;
        for (size_t i = 0; i < v.items().size(); ++i) e.items.push_back(expr(v.items()[i], childPath(path, i), scope, errorAvailable));
        return fold(std::move(e));
      }
      case Kind::Object: return objectExpr(v, path, scope, errorAvailable);
      default:
        e.constant = v;
        return e;
    }
  }

  Expr objectExpr(const Value& v, const std::string& path, const Scope& scope, bool errorAvailable) {
    bool callShaped = v.find("call") && (v.members().size() == 1 || (v.members().size() == 2 && v.find("args")));
    if (callShaped)
      fail(path, "Calls are steps, not expressions (§11): bind the result first with {\"let\": \"x\", \"call\": ...}, then use \"$x\"");
    for (const Member& m : v.members()) {
      const std::string& k = m.key.str();
      bool special = findOperator(k) || k == "$merge";
      if (special && v.members().size() > 1)
        fail(childPath(path, k), "An operator or $merge must be the only key of its object, but '" + k + "' has company");
      if (!special && v.members().size() == 1 && looksLikeOperator(k))
        fail(childPath(path, k), "Unknown operator '" + k + "'." + didYouMean(k, operatorKeys()) + " Operators: + - * / > >= < <= == != and or not, and $merge.");
    }
    if (v.members().size() == 1) {
      const std::string& k = v.members()[0].key.str();
      if (k == "$merge") return mergeExpr(v.members()[0].value, childPath(path, k), scope, errorAvailable);
      if (const OperatorSpec* op = findOperator(k)) return operatorExpr(*op, v.members()[0].value, childPath(path, k), scope, errorAvailable);
    }
    return objectLiteral(v, path, scope, errorAvailable);
  }

  Expr objectLiteral(const Value& v, const std::string& path, const Scope& scope, bool errorAvailable) {
    Expr e;
    e.path = path;
    e.kind = Expr::Kind::Object;
    for (const Member& m : v.members()) {
      e.keys.push_back(m.key);
      e.items.push_back(expr(m.value, childPath(path, m.key.str()), scope, errorAvailable));
    }
    return fold(std::move(e));
  }

  Expr operatorExpr(const OperatorSpec& op, const Value& operands, const std::string& path, const Scope& scope, bool errorAvailable) {
    Expr e;
    e.path = path;
    e.kind = Expr::Kind::Operator;
    e.op = op.op;
    if (op.op == Operator::Not && !operands.isArray()) {
      e.items.push_back(expr(operands, path, scope, errorAvailable));
      return e;
    }
    std::string arity = op.maxOperands == SIZE_MAX ? "at least " + std::to_string(op.minOperands)
                        : op.minOperands == op.maxOperands ? std::to_string(op.minOperands)
                                                           : std::to_string(op.minOperands) + " or " + std::to_string(op.maxOperands);
    if (!operands.isArray())
      fail(path, "Operator '" + std::string(op.key) + "' takes a list of " + arity + " operands, e.g. {\"" + op.key + "\": [\"$a\", \"$b\"]}");
    size_t n = operands.items().size();
    if (n < op.minOperands || n > op.maxOperands)
      fail(path, "Operator '" + std::string(op.key) + "' takes " + arity + " operands, got " + std::to_string(n));
    for (size_t i = 0; i < n; ++i) e.items.push_back(expr(operands.items()[i], childPath(path, i), scope, errorAvailable));
    return e;
  }

  Expr mergeExpr(const Value& operands, const std::string& path, const Scope& scope, bool errorAvailable) {
    if (!operands.isArray() || operands.items().empty())
      fail(path, "$merge takes a list of one or more objects to merge: {\"$merge\": [\"$a\", {\"k\": \"$v\"}]}");
    Expr e;
    e.path = path;
    e.kind = Expr::Kind::Merge;
    for (size_t i = 0; i < operands.items().size(); ++i) e.items.push_back(expr(operands.items()[i], childPath(path, i), scope, errorAvailable));
    return e;
  }

  Expr stringExpr(const Value& v, const std::string& path, const Scope& scope, bool errorAvailable) {
    Expr e;
    e.path = path;
    Interpolation parts = scanReferences(v.str());
    for (const Ref& r : parts.refs) checkRef(r, path, scope, errorAvailable);
    if (parts.refs.empty()) {
      e.constant = parts.texts[0] == v.str() ? v : Value::string(parts.texts[0]);
    } else if (parts.refs.size() == 1 && parts.texts[0].empty() && parts.texts[1].empty()) {
      e.kind = Expr::Kind::Ref;
      e.ref = parts.refs[0];
    } else {
      e.kind = Expr::Kind::Interpolate;
      e.texts = std::move(parts.texts);
      e.refs = std::move(parts.refs);
    }
    return e;
  }

  void checkRef(const Ref& r, const std::string& path, const Scope& scope, bool errorAvailable) {
    if (r.root == Ref::Root::Input) {
      if (r.segs.empty()) return;
      std::vector<std::string> params;
      for (const auto& p : current_->params) params.push_back(p.first);
      if (std::find(params.begin(), params.end(), r.segs[0]) == params.end())
        fail(path, "'$input." + r.segs[0] + "' is not a parameter of function '" + current_->name + "'." + didYouMean(r.segs[0], params) +
                       " Its parameters: " + (params.empty() ? "none" : listNames(params)) + ".");
      return;
    }
    if (r.root == Ref::Root::Error) {
      if (!errorAvailable)
        fail(path, "'$error' is only available inside \"on-error\": in its compensate args and its return value");
      return;
    }
    if (scope.has(r.name)) return;
    if (auto it = scope.leftLoop.find(r.name); it != scope.leftLoop.end())
      fail(path, "'$" + r.name + "' is bound inside the loop at " + it->second + " and is not visible after it (bind the loop's list with \"let\" on the for step)");
    fail(path, "'$" + r.name + "' is not bound here: bind it with a step before this one." + didYouMean(r.name, scope.names));
  }

  // Arrays and objects whose parts are all constants are constants.
  static Expr fold(Expr e) {
    for (const Expr& item : e.items)
      if (item.kind != Expr::Kind::Const) return e;
    if (e.kind == Expr::Kind::Array) {
      Array values;
      for (Expr& item : e.items) values.push_back(std::move(item.constant));
      e.constant = Value::array(std::move(values));
    } else {
      Members members;
      for (size_t i = 0; i < e.items.size(); ++i) members.push_back(Member{e.keys[i], std::move(e.items[i].constant)});
      e.constant = Value::object(std::move(members));
    }
    e.kind = Expr::Kind::Const;
    e.items.clear();
    e.keys.clear();
    return e;
  }

  // ---- calls among functions (§4) ----

  void checkRecursion(const Workflow& wf) {
    std::vector<int> state(wf.functions.size(), 0);  // 0 new, 1 on the path, 2 done
    std::vector<std::string> stack;
    for (size_t i = 0; i < wf.functions.size(); ++i) visit(static_cast<int>(i), state, stack);
  }

  void visit(int f, std::vector<int>& state, std::vector<std::string>& stack) {
    if (state[static_cast<size_t>(f)] == 2) return;
    state[static_cast<size_t>(f)] = 1;
    stack.push_back(headers_[static_cast<size_t>(f)].name);
    for (const auto& [callee, path] : calls_[static_cast<size_t>(f)]) {
      if (state[static_cast<size_t>(callee)] == 1) {
        std::string cycle;
        bool on = false;
        for (const std::string& n : stack) {
          on = on || n == headers_[static_cast<size_t>(callee)].name;
          if (on) cycle += n + " -> ";
        }
        fail(path, "Recursion is not allowed: " + cycle + headers_[static_cast<size_t>(callee)].name);
      }
      visit(callee, state, stack);
    }
    stack.pop_back();
    state[static_cast<size_t>(f)] = 2;
  }

  const std::vector<Value>& values_;
  const CompileOptions& options_;
  std::vector<Header> headers_;
  const Header* current_ = nullptr;
  std::vector<std::vector<std::pair<int, std::string>>> calls_;  // per function: (callee, path of the call)
  std::set<std::string> toolsCalled_;
};

}  // namespace

std::shared_ptr<const Workflow> compileWorkflow(const std::vector<Value>& functions, const CompileOptions& options) {
  BudgetScope noBudget(nullptr);
  return WorkflowCompiler(functions, options).compile();
}

void checkEntryInput(const Workflow& workflow, const Value& input) {
  const Function& fn = workflow.functions[static_cast<size_t>(workflow.entry)];
  std::string path = fn.path + "/input";
  if (!input.isObject())
    throw PtcError(ErrorType::Validation, "The input of '" + fn.name + "' must be an object of its parameters, got " + typeName(input), path);
  std::vector<std::string> declared;
  for (const auto& [name, type] : fn.params) {
    declared.push_back(name);
    const Value* v = input.find(name);
    if (!v) throw PtcError(ErrorType::Validation, "The input of '" + fn.name + "' is missing parameter '" + name + "' (" + typeText(type) + ")", path + "/" + pointerToken(name));
    if (!conforms(*v, type))
      throw PtcError(ErrorType::Validation, "Input parameter '" + name + "' of '" + fn.name + "' must be " + typeText(type) + ", got " + shortJson(*v), path + "/" + pointerToken(name));
  }
  for (const Member& m : input.members())
    if (std::find(declared.begin(), declared.end(), m.key.str()) == declared.end())
      throw PtcError(ErrorType::Validation, "Unknown input parameter '" + m.key.str() + "' for '" + fn.name + "'." + didYouMean(m.key.str(), declared) +
                                                " Its parameters: " + (declared.empty() ? "none" : listNames(declared)) + ".",
                     path);
}

}  // namespace ptc::workflow
