// Function bodies: steps (§7-§10), calls and their handlers, returns (§9). The
// step table says which kind a step is and which keys it takes; each kind's
// own rules are its compile function below.
#include <algorithm>
#include <memory>

#include "core/deadline.h"
#include "core/error.h"
#include "core/json.h"
#include "core/json_pointer.h"
#include "core/suggest.h"
#include "step_functions/workflow_compile.h"
#include "step_functions/workflow_step_table.h"
#include "step_functions/workflow_text.h"

namespace ptc::workflow {

namespace {

std::vector<Step> block(const Value& steps, const std::string& path, BodyContext& ctx);
Expr returnValue(const Value& v, const std::string& path, const BodyContext& ctx);

void checkKeys(const Value& v, const std::string& path, const std::vector<std::string>& allowed, const char* shape) {
  for (const Member& m : v.members()) {
    const std::string& k = m.key.str();
    if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
    const char* why = notInDialect(k);
    fail(ErrorCode::UnknownField, childPath(path, k),
         "Unknown key '" + k + "' in " + shape +
             (why ? ": " + std::string(why) : ". Its keys are: " + listNames(allowed) + "."));
  }
}

std::string bindName(const Value& v, const std::string& path) {
  if (!v.isString() || !isName(v.str()))
    fail(ErrorCode::BadName, path,
         "A bound name must be a NAME (letters, digits, '_', '-' groups), got " + shortJson(v));
  if (v.str() == "input" || v.str() == "error")
    fail(ErrorCode::BadName, path, "'" + v.str() + "' is reserved ($" + v.str() + "); choose another name");
  return v.str();
}

// ---- which kind a step is, and its keys (the step table) ----

// The kind that also takes this kind's key as one of its own ("return" is a
// key of an if step), or nullptr.
const StepSpec* sharedWith(const StepSpec& spec) {
  for (const StepSpec& other : stepTable())
    if (&other != &spec && other.takes(spec.kindKey())) return &other;
  return nullptr;
}

[[noreturn]] void noKind(const Value& v, const std::string& path) {
  for (const Member& m : v.members())
    if (const char* why = notInDialect(m.key.str())) fail(ErrorCode::UnknownStep, childPath(path, m.key.str()), why);
  if (v.find("let"))
    fail(ErrorCode::MissingField, path, "A \"let\" step needs \"expr\", \"call\" or \"match\" to say what is bound");
  std::string shapes;
  const std::span<const StepSpec> table = stepTable();
  for (size_t i = 0; i < table.size(); ++i)
    shapes += (i == 0 ? "" : i + 1 == table.size() ? " or " : ", ") + stepShape(table[i]);
  fail(ErrorCode::UnknownStep, path, "Unknown step shape: a step is one of " + shapes);
}

const StepSpec& kindOf(const Value& v, const std::string& path) {
  // The kinds whose key the step has. A shared key ("return") makes its own kind
  // only without the other kind's key ("if"), and is named last of two kinds.
  std::vector<const StepSpec*> kinds, shared;
  for (const StepSpec& spec : stepTable()) {
    if (!v.find(spec.kindKey())) continue;
    const StepSpec* owner = sharedWith(spec);
    if (!owner) kinds.push_back(&spec);
    else if (!v.find(owner->kindKey())) shared.push_back(&spec);
  }
  kinds.insert(kinds.end(), shared.begin(), shared.end());
  if (kinds.size() > 1)
    fail(ErrorCode::ConflictingFields, path,
         "A step has exactly one kind, but this one has both '" + std::string(kinds[0]->kindKey()) + "' and '" +
             kinds[1]->kindKey() + "': split it into two steps");
  if (kinds.empty()) noKind(v, path);
  return *kinds[0];
}

void checkStepKeys(const Value& v, const std::string& path, const StepSpec& spec) {
  std::vector<std::string> allowed;
  for (const StepKey& k : spec.keys) allowed.push_back(k.name);
  checkKeys(v, path, allowed, spec.noun);
  for (const StepKey& k : spec.keys)
    if (k.presence == KeyPresence::Required && !v.find(k.name)) fail(ErrorCode::MissingField, path, k.whenMissing);
}

// ---- calls and their handlers ----

void checkArgNames(const FileContext& file, const Call& c, const std::string& path, const Value* args) {
  const Header& callee = file.headers[static_cast<size_t>(c.function)];
  std::vector<std::string> declared;
  for (const auto& p : callee.params) declared.push_back(p.first);
  std::vector<std::string> given;
  if (args)
    for (const Member& m : args->members()) given.push_back(m.key.str());
  for (const std::string& g : given)
    if (std::find(declared.begin(), declared.end(), g) == declared.end())
      fail(ErrorCode::UnknownArgument, childPath(childPath(path, "args"), g),
           "Function '" + callee.name + "' has no parameter '" + g + "'." + didYouMean(g, declared) +
               " Its parameters: " + parameterList(declared) + ".");
  for (const std::string& d : declared)
    if (std::find(given.begin(), given.end(), d) == given.end())
      fail(ErrorCode::MissingArgument, args ? childPath(path, "args") : path,
           "The call of '" + callee.name + "' is missing argument '" + d + "'");
}

// Resolves the target: a function of the file (an edge of the call graph) or a tool.
void resolveTarget(Call& c, const std::string& path, const BodyContext& ctx) {
  FileContext& file = ctx.file;
  c.function = file.functionIndex(c.target);
  if (c.function < 0) {
    std::vector<std::string> targets = file.targets();
    if (file.options.toolsKnown && !file.isTool(c.target))
      fail(ErrorCode::UnknownTool, childPath(path, "call"),
           "Unknown function or tool '" + c.target + "'." + didYouMean(c.target, targets) +
               (targets.empty() ? " No tools are available in this run." : " Available: " + listNames(targets) + "."));
    file.toolsCalled.insert(c.target);
  } else {
    file.calls[ctx.function.index].push_back(CallSite{static_cast<size_t>(c.function), childPath(path, "call")});
  }
  const Header& fn = ctx.function;
  if (fn.hasDeps && std::find(fn.deps.begin(), fn.deps.end(), c.target) == fn.deps.end())
    fail(ErrorCode::UndeclaredDep, childPath(path, "call"),
         "Undeclared dep '" + c.target + "': function '" + fn.name + "' lists its deps, so add it to \"deps\"");
}

Call call(const Value& v, const std::string& path, const BodyContext& ctx) {
  Call c;
  c.path = path;
  const Value& target = *v.find("call");
  if (!target.isString() || !(isName(target.str()) || isServerToolName(target.str())))
    fail(ErrorCode::WrongKind, childPath(path, "call"),
         "\"call\" must name a function of the file or a tool, got " + shortJson(target));
  c.target = target.str();
  resolveTarget(c, path, ctx);
  if (const Value* args = v.find("args")) {
    std::string ap = childPath(path, "args");
    if (!args->isObject()) fail(ErrorCode::WrongKind, ap, "\"args\" must be an object of argument names to values");
    for (const Member& m : args->members())
      if (isOperatorKey(m.key.str()))
        fail(ErrorCode::BadName, childPath(ap, m.key.str()),
             "Argument names cannot be operators or $merge: \"args\" is an object literal");
    c.hasArgs = true;
    c.args = compileObjectLiteral(*args, ap, ctx);
  }
  if (c.function >= 0) checkArgNames(ctx.file, c, path, v.find("args"));
  return c;
}

std::vector<Call> compensations(const Value& v, const std::string& path, const BodyContext& ctx) {
  if (!v.isArray())
    fail(ErrorCode::WrongKind, path, "\"compensate\" must be a list of calls [{\"call\": ..., \"args\": {...}}]");
  std::vector<Call> out;
  for (size_t i = 0; i < v.items().size(); ++i) {
    const Value& c = v.items()[i];
    std::string p = childPath(path, i);
    if (!c.isObject() || !c.find("call"))
      fail(ErrorCode::WrongKind, p, "A compensation is a call: {\"call\": \"name\", \"args\": {...}}");
    checkKeys(c, p, {"call", "args"}, "a compensation");
    out.push_back(call(c, p, ctx));
  }
  return out;
}

// on-error (§7): compensations, then return or continue; $error is available.
std::unique_ptr<Handler> onError(const Value& v, const std::string& path, const BodyContext& ctx) {
  if (!v.isObject())
    fail(ErrorCode::WrongKind, path,
         "\"on-error\" must be an object with \"return\", \"compensate\" and/or \"continue\"");
  checkKeys(v, path, {"compensate", "return", "continue"}, "on-error");
  if (v.members().empty())
    fail(ErrorCode::MissingField, path, "\"on-error\" needs at least one of \"return\", \"compensate\", \"continue\"");
  BodyContext handler = ctx;
  handler.errorAvailable = true;
  auto h = std::make_unique<Handler>();
  if (const Value* comp = v.find("compensate"))
    h->compensate = compensations(*comp, childPath(path, "compensate"), handler);
  const Value* ret = v.find("return");
  const Value* cont = v.find("continue");
  if (ret && cont)
    fail(ErrorCode::ConflictingFields, path, "\"on-error\" cannot have both \"return\" and \"continue\"");
  if (cont) {
    if (!(cont->isBool() && cont->asBool()))
      fail(ErrorCode::BadValue, childPath(path, "continue"), "\"continue\" must be true");
    if (ctx.loopDepth == 0)
      fail(ErrorCode::NotAllowedHere, childPath(path, "continue"),
           "\"continue\" is only allowed inside the \"do\" body of a for loop");
    h->continueLoop = true;
  }
  if (ret) {
    h->hasReturn = true;
    h->returnValue = returnValue(*ret, childPath(path, "return"), handler);
  }
  return h;
}

// ---- returns (§9) ----

Expr returnValue(const Value& v, const std::string& path, const BodyContext& ctx) {
  const Header& fn = ctx.function;
  const Type& out = fn.output;
  bool resultShaped = v.isObject() && v.members().size() == 1 &&
                      (v.members()[0].key.str() == "ok" || v.members()[0].key.str() == "error");
  if (out.isResult() && !resultShaped)
    fail(ErrorCode::TypeMismatch, path,
         "Function '" + fn.name + "' has output '" + typeText(out) +
             "': return {\"ok\": value} or {\"error\": message}, got " + shortJson(v));
  if (!out.isResult() && resultShaped)
    fail(ErrorCode::TypeMismatch, path,
         "Function '" + fn.name + "' has output '" + typeText(out) +
             "', not a result type: return the value itself, not {\"" + v.members()[0].key.str() + "\": ...}");
  Expr e = compileExpr(v, path, ctx);
  if (e.kind == Expr::Kind::Const && !conforms(e.constant, out)) {
    // Point at what does not conform: the payload of {"ok"}/{"error"}, or the value.
    std::string key = out.isResult() ? v.members()[0].key.str() : "";
    const Value& shown = out.isResult() ? v.members()[0].value : e.constant;
    std::string what = out.isResult() ? typeText(out.args[key == "ok" ? 0 : 1]) : typeText(out);
    fail(ErrorCode::TypeMismatch, key.empty() ? path : childPath(path, key),
         "The returned constant " + shortJson(shown) + " is not a " + what + " (function '" + fn.name +
             "' has output '" + typeText(out) + "')");
  }
  return e;
}

// ---- the kinds (one function each, in step table order) ----

void letStep(const Value& v, const std::string& path, Step& s, BodyContext& ctx) {
  s.expr = compileExpr(*v.find("expr"), childPath(path, "expr"), ctx);
  s.let = bindName(*v.find("let"), childPath(path, "let"));
}

void callStep(const Value& v, const std::string& path, Step& s, BodyContext& ctx) {
  s.call = call(v, path, ctx);
  if (const Value* handler = v.find("on-error")) s.onError = onError(*handler, childPath(path, "on-error"), ctx);
  if (const Value* let = v.find("let")) s.let = bindName(*let, childPath(path, "let"));
}

void matchStep(const Value& v, const std::string& path, Step& s, BodyContext& ctx) {
  s.expr = compileExpr(*v.find("match"), childPath(path, "match"), ctx);
  const Value& cases = *v.find("cases");
  if (!cases.isObject() || cases.members().empty())
    fail(ErrorCode::WrongKind, childPath(path, "cases"), "\"cases\" must be a non-empty object");
  for (const Member& m : cases.members())
    s.cases.emplace_back(m.key.str(), compileExpr(m.value, childPath(childPath(path, "cases"), m.key.str()), ctx));
  s.let = bindName(*v.find("let"), childPath(path, "let"));
}

void ifStep(const Value& v, const std::string& path, Step& s, BodyContext& ctx) {
  s.expr = compileExpr(*v.find("if"), childPath(path, "if"), ctx);
  if (const Value* comp = v.find("compensate")) s.compensate = compensations(*comp, childPath(path, "compensate"), ctx);
  s.ifReturn = returnValue(*v.find("return"), childPath(path, "return"), ctx);
}

void returnStep(const Value& v, const std::string& path, Step& s, BodyContext& ctx) {
  s.expr = returnValue(*v.find("return"), childPath(path, "return"), ctx);
}

void forStep(const Value& v, const std::string& path, Step& s, BodyContext& ctx) {
  s.var = bindName(*v.find("for"), childPath(path, "for"));
  s.expr = compileExpr(*v.find("in"), childPath(path, "in"), ctx);
  const Value& body = *v.find("do");
  if (!body.isArray() || body.items().empty())
    fail(ErrorCode::WrongKind, childPath(path, "do"), "\"do\" must be a non-empty list of steps");
  Scope inner = ctx.scope;
  inner.bind(s.var);
  BodyContext loop{ctx.file, ctx.function, inner, ctx.loopDepth + 1};
  s.body = block(body, childPath(path, "do"), loop);
  // Names bound in the body are not visible after the loop (unless bound before it).
  for (const std::string& n : inner.names)
    if (!ctx.scope.has(n)) ctx.scope.leftLoop[n] = path;
  if (const Value* let = v.find("let")) s.let = bindName(*let, childPath(path, "let"));
}

void yieldStep(const Value& v, const std::string& path, Step& s, BodyContext& ctx) {
  if (ctx.loopDepth == 0)
    fail(ErrorCode::NotAllowedHere, path, "'yield' is only allowed in the \"do\" body of a for loop");
  s.expr = compileExpr(*v.find("yield"), childPath(path, "yield"), ctx);
}

Step step(const Value& v, const std::string& path, size_t index, BodyContext& ctx) {
  tickDeadline();  // reading the file counts toward timeoutMs (engine.cpp)
  if (!v.isObject())
    fail(ErrorCode::WrongKind, path,
         "A step must be an object such as {\"let\": ..., \"call\": ...}, got " + std::string(typeName(v)));
  const StepSpec& spec = kindOf(v, path);
  checkStepKeys(v, path, spec);
  Step s;
  s.path = path;
  s.index = index;
  s.kind = spec.kind;
  switch (spec.kind) {
    case Step::Kind::LetExpr: letStep(v, path, s, ctx); break;
    case Step::Kind::Call: callStep(v, path, s, ctx); break;
    case Step::Kind::Match: matchStep(v, path, s, ctx); break;
    case Step::Kind::If: ifStep(v, path, s, ctx); break;
    case Step::Kind::Return: returnStep(v, path, s, ctx); break;
    case Step::Kind::For: forStep(v, path, s, ctx); break;
    case Step::Kind::Yield: yieldStep(v, path, s, ctx); break;
    case Step::Kind::End_: break;  // not a kind: the table has no entry for it
  }
  if (!s.let.empty()) ctx.scope.bind(s.let);
  return s;
}

std::vector<Step> block(const Value& steps, const std::string& path, BodyContext& ctx) {
  std::vector<Step> out;
  for (size_t i = 0; i < steps.items().size(); ++i) out.push_back(step(steps.items()[i], childPath(path, i), i, ctx));
  return out;
}

}  // namespace

Function compileFunction(FileContext& file, const Header& h) {
  Function fn;
  fn.name = h.name;
  fn.path = h.path;
  fn.params = h.params;
  fn.output = h.output;
  Scope scope;
  BodyContext ctx{file, h, scope};
  fn.steps = block(*h.steps, childPath(h.path, "steps"), ctx);
  const Step& last = fn.steps.back();
  fn.endsWithUnboundFor = last.kind == Step::Kind::For && last.let.empty();
  if (!h.output.allowsFallingOffTheEnd() && last.kind != Step::Kind::Return && !fn.endsWithUnboundFor)
    fail(ErrorCode::MissingReturn, childPath(childPath(h.path, "steps"), fn.steps.size() - 1),
         "Missing return: function '" + h.name + "' has output '" + typeText(h.output) +
             "', so its last step must be a {\"return\": ...} (or a for without let, whose list it returns)");
  checkDepsResolve(file, h);
  return fn;
}

}  // namespace ptc::workflow
