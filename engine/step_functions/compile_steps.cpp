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
#include "step_functions/compile.h"
#include "step_functions/step_table.h"
#include "step_functions/text.h"

namespace ptc::step_functions {

namespace {

std::vector<Step> block(const Value& steps, const std::string& path, BodyContext& ctx);
void yieldStep(const Value& v, const std::string& path, Step& s, BodyContext& ctx);
Expr returnValue(const Value& v, const std::string& path, const BodyContext& ctx);

void checkKeys(const Value& v, const std::string& path, const std::vector<std::string>& allowed, const char* shape) {
  for (MemberRef m : v.members()) {
    const std::string& k = m.key.str();
    if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
    const char* why = notInDialect(k);
    fail(ErrorCode::UnknownField, childPath(path, k),
         "Unknown key '" + k + "' in " + shape +
             (why ? ": " + std::string(why)
                  : "." + didYouMean(k, allowed) + " Its keys are: " + listNames(allowed) + "."));
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
  for (MemberRef m : v.members())
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
    for (MemberRef m : args->members()) given.push_back(m.key.str());
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
    for (MemberRef m : args->members())
      if (isOperatorKey(m.key.str()))
        fail(ErrorCode::BadName, childPath(ap, m.key.str()),
             "Argument names cannot be operators or $merge: \"args\" is an object literal");
    c.hasArgs = true;
    c.args = compileObjectLiteral(*args, ap, ctx);
  }
  if (c.function >= 0) checkArgNames(ctx.file, c, path, v.find("args"));
  return c;
}

// A compensation's "let" binds its result (null when it failed) for the
// compensations after it and the handler's return: ctx.scope, the handler's own.
std::vector<Call> compensations(const Value& v, const std::string& path, BodyContext& ctx) {
  if (!v.isArray())
    fail(ErrorCode::WrongKind, path, "\"compensate\" must be a list of calls [{\"call\": ..., \"args\": {...}}]");
  std::vector<Call> out;
  for (size_t i = 0; i < v.items().size(); ++i) {
    const Value& c = v.items()[i];
    std::string p = childPath(path, i);
    if (!c.isObject() || !c.find("call"))
      fail(ErrorCode::WrongKind, p, "A compensation is a call: {\"call\": \"name\", \"args\": {...}, \"let\"?: x}");
    checkKeys(c, p, {"let", "call", "args"}, "a compensation");
    out.push_back(call(c, p, ctx));
    if (const Value* let = c.find("let")) {
      out.back().let = bindName(*let, childPath(p, "let"));
      ctx.scope.bind(out.back().let);
    }
  }
  return out;
}

// on-error (§7): compensations, then the "then" steps, then return, continue
// or break; $error is available throughout. Its "yield" (with "to"?) is the
// last step of "then" (docs/semantics.md): one loop yields its failures.
std::unique_ptr<Handler> onError(const Value& v, const std::string& path, const BodyContext& ctx) {
  if (!v.isObject())
    fail(ErrorCode::WrongKind, path,
         "\"on-error\" must be an object with \"compensate\", \"then\", \"yield\", and/or one of \"return\", "
         "\"continue\", \"break\"");
  checkKeys(v, path, {"compensate", "then", "yield", "to", "return", "continue", "break"}, "on-error");
  if (v.members().empty())
    fail(ErrorCode::MissingField, path,
         "\"on-error\" needs at least one of \"return\", \"compensate\", \"then\", \"yield\", \"continue\", "
         "\"break\"");
  if (v.find("to") && !v.find("yield"))
    fail(ErrorCode::MissingField, childPath(path, "to"),
         "\"to\" in on-error goes with \"yield\": {\"yield\": value, \"to\": \"failed\", \"continue\": true}");
  Scope scope = ctx.scope;  // the compensations' lets, for the handler's return
  BodyContext handler{ctx.file, ctx.function, scope, ctx.loopDepth, true, ctx.loopState};
  auto h = std::make_unique<Handler>();
  if (const Value* comp = v.find("compensate"))
    h->compensate = compensations(*comp, childPath(path, "compensate"), handler);
  Scope thenScope = scope;  // its lets end with the handler
  BodyContext inner{ctx.file, ctx.function, thenScope, ctx.loopDepth, true, ctx.loopState};
  if (const Value* then = v.find("then")) {
    std::string tp = childPath(path, "then");
    if (!then->isArray() || then->items().empty())
      fail(ErrorCode::WrongKind, tp, "\"then\" in on-error must be a non-empty list of steps, run with $error");
    h->then = block(*then, tp, inner);
  }
  if (v.find("yield")) {  // a yield step at the handler's path: its value at /yield, its list at /to
    if (ctx.loopDepth == 0)
      fail(ErrorCode::NotAllowedHere, childPath(path, "yield"),
           "\"yield\" in on-error is only allowed in the \"do\" body of a for loop (it adds to the loop's list)");
    Step y;
    y.path = path;
    y.index = h->then.size();
    y.kind = Step::Kind::Yield;
    yieldStep(v, path, y, inner);
    h->then.push_back(std::move(y));
  }
  const Value* ret = v.find("return");
  const char* exits[] = {"return", "continue", "break"};
  for (size_t a = 0; a < 3; ++a)
    for (size_t b = a + 1; b < 3; ++b)
      if (v.find(exits[a]) && v.find(exits[b]))
        fail(ErrorCode::ConflictingFields, path,
             "\"on-error\" ends one way: it cannot have both \"" + std::string(exits[a]) + "\" and \"" + exits[b] +
                 "\"");
  for (const char* key : {"continue", "break"}) {
    const Value* flag = v.find(key);
    if (!flag) continue;
    if (!(flag->isBool() && flag->asBool()))
      fail(ErrorCode::BadValue, childPath(path, key), "\"" + std::string(key) + "\" must be true");
    if (ctx.loopDepth == 0)
      fail(ErrorCode::NotAllowedHere, childPath(path, key),
           "\"" + std::string(key) + "\" is only allowed inside the \"do\" body of a for loop");
    (std::string_view(key) == "break" ? h->breakLoop : h->continueLoop) = true;
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
  if (!out.isResult() && resultShaped) {
    const std::string& key = v.members()[0].key.str();
    fail(ErrorCode::TypeMismatch, path,
         "The key '" + key +
             "' is reserved: an object whose only key is \"ok\" or \"error\" is a result, and "
             "function '" +
             fn.name + "' has output '" + typeText(out) +
             "', not a result type. Return the value itself, "
             "not {\"" +
             key + "\": ...}; to return such an object, give it another key too (e.g. {\"" + key +
             "\": ..., \"reason\": ...}) or declare the output \"result T E\"");
  }
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

// "retry": {"tries": n, "on"?: [texts], "let"?: name} (a few tries: no clock, no backoff).
constexpr int kMaxTries = 10;

std::unique_ptr<Retry> retry(const Value& v, const std::string& path) {
  if (!v.isObject())
    fail(ErrorCode::WrongKind, path,
         "\"retry\" must be an object: {\"tries\": 3, \"on\"?: [\"texts of the failures to retry\"], \"let\"?: x}");
  checkKeys(v, path, {"tries", "on", "let"}, "a retry");
  auto r = std::make_unique<Retry>();
  const Value* tries = v.find("tries");
  if (!tries) fail(ErrorCode::MissingField, path, "\"retry\" needs \"tries\": how many tries in all (2 to 10)");
  if (!tries->isNumber() || tries->asDouble() != static_cast<int>(tries->asDouble()) || tries->asDouble() < 1 ||
      tries->asDouble() > kMaxTries)
    fail(ErrorCode::BadValue, childPath(path, "tries"),
         "\"tries\" must be a whole number from 1 to " + std::to_string(kMaxTries) + " (the first try included), got " +
             shortJson(*tries));
  r->tries = static_cast<int>(tries->asDouble());
  if (const Value* on = v.find("on")) {
    std::string op = childPath(path, "on");
    if (!on->isArray() || on->items().empty())
      fail(ErrorCode::WrongKind, op,
           "\"on\" must be a non-empty list of texts: a failure is retried when its message contains one");
    for (size_t i = 0; i < on->items().size(); ++i) {
      const Value& t = on->items()[i];
      if (!t.isString() || t.str().empty())
        fail(ErrorCode::WrongKind, childPath(op, i),
             "Each entry of \"on\" must be a non-empty text, got " + shortJson(t));
      r->on.push_back(t.str());
    }
  }
  if (const Value* let = v.find("let")) r->let = bindName(*let, childPath(path, "let"));
  return r;
}

void callStep(const Value& v, const std::string& path, Step& s, BodyContext& ctx) {
  s.call = call(v, path, ctx);
  if (const Value* r = v.find("retry")) {
    s.retry = retry(*r, childPath(path, "retry"));
    if (!s.retry->let.empty()) ctx.scope.bind(s.retry->let);  // also in the step's on-error
  }
  if (const Value* handler = v.find("on-error")) s.onError = onError(*handler, childPath(path, "on-error"), ctx);
  if (const Value* let = v.find("let")) s.let = bindName(*let, childPath(path, "let"));
  if (const Value* undo = v.find("undo")) {
    // Registered when the call succeeds (its args evaluated then, seeing the
    // step's let and the loop's item); run newest first if the function fails later.
    const std::string up = childPath(path, "undo");
    if (!undo->isObject() || !undo->find("call"))
      fail(ErrorCode::WrongKind, up,
           "\"undo\" is one call that undoes this step if the function fails later: {\"call\": \"name\", "
           "\"args\": {...}} (a function of the file for more)");
    checkKeys(*undo, up, {"call", "args"}, "an undo call");
    Scope scope = ctx.scope;
    if (!s.let.empty()) scope.bind(s.let);
    BodyContext registered{ctx.file, ctx.function, scope, ctx.loopDepth, ctx.errorAvailable, ctx.loopState};
    s.compensate.push_back(call(*undo, up, registered));
  }
}

void matchStep(const Value& v, const std::string& path, Step& s, BodyContext& ctx) {
  s.expr = compileExpr(*v.find("match"), childPath(path, "match"), ctx);
  const Value& cases = *v.find("cases");
  if (!cases.isObject() || cases.members().empty())
    fail(ErrorCode::WrongKind, childPath(path, "cases"), "\"cases\" must be a non-empty object");
  for (MemberRef m : cases.members())
    s.cases.emplace_back(m.key.str(), compileExpr(m.value, childPath(childPath(path, "cases"), m.key.str()), ctx));
  s.let = bindName(*v.find("let"), childPath(path, "let"));
}

// A branch of an if: its steps see what was bound before the if.
std::vector<Step> branch(const Value& v, const std::string& path, const char* key, BodyContext& ctx, Scope& scope) {
  if (!v.isArray() || v.items().empty())
    fail(ErrorCode::WrongKind, path, "\"" + std::string(key) + "\" must be a non-empty list of steps");
  BodyContext inner{ctx.file, ctx.function, scope, ctx.loopDepth, ctx.errorAvailable, ctx.loopState};
  return block(v, path, inner);
}

// {if, return, compensate?}: an early exit. {if, break}: the end of the
// innermost loop. {if, then, else?}: a block of steps either way; a name bound
// in both branches stays bound after the if (a name bound before it and bound
// again in a branch holds the branch's value).
void ifStep(const Value& v, const std::string& path, Step& s, BodyContext& ctx) {
  s.expr = compileExpr(*v.find("if"), childPath(path, "if"), ctx);
  const Value* then = v.find("then");
  const Value* otherwise = v.find("else");
  const Value* ret = v.find("return");
  const Value* brk = v.find("break");
  const char* exit = ret ? "return" : brk ? "break" : nullptr;
  if (ret && brk)
    fail(ErrorCode::ConflictingFields, childPath(path, "break"),
         "An 'if' step either returns or breaks, not both: split it into two if steps");
  if (exit && (then || otherwise)) {
    const char* key = then ? "then" : "else";
    fail(ErrorCode::UnknownField, childPath(path, key),
         "An 'if' step with \"" + std::string(exit) + "\" has no \"" + key +
             "\": it ends there when the condition holds, and the steps after it are the else-case. For blocks: "
             "{\"if\": condition, \"then\": [steps], \"else\": [steps]}, with the " +
             exit + " inside a block");
  }
  if (!exit && !then)
    fail(ErrorCode::MissingField, path,
         otherwise ? "An 'if' step with \"else\" needs \"then\": the steps to run when the condition holds"
                   : "An 'if' step needs \"then\": [steps] (with \"else\"?: [steps]), \"return\": value to return "
                     "early, or \"break\": true to end the loop");
  if (v.find("compensate") && !ret)
    fail(ErrorCode::NotAllowedHere, childPath(path, "compensate"),
         "\"compensate\" goes with \"return\" in an 'if' step; in a \"then\" block, call the tools as steps");
  if (brk) {
    if (!(brk->isBool() && brk->asBool()))
      fail(ErrorCode::BadValue, childPath(path, "break"), "\"break\" must be true");
    if (ctx.loopDepth == 0)
      fail(ErrorCode::NotAllowedHere, childPath(path, "break"),
           "\"break\" is only allowed inside the \"do\" body of a for loop");
    s.breaks = true;
    return;
  }
  if (ret) {
    s.hasReturn = true;
    Scope scope = ctx.scope;  // the compensations' lets, for the return
    BodyContext early{ctx.file, ctx.function, scope, ctx.loopDepth, ctx.errorAvailable, ctx.loopState};
    if (const Value* comp = v.find("compensate"))
      s.compensate = compensations(*comp, childPath(path, "compensate"), early);
    s.ifReturn = returnValue(*ret, childPath(path, "return"), early);
    return;
  }
  Scope thenScope = ctx.scope, elseScope = ctx.scope;
  s.body = branch(*then, childPath(path, "then"), "then", ctx, thenScope);
  if (otherwise) s.elseBody = branch(*otherwise, childPath(path, "else"), "else", ctx, elseScope);
  for (const std::string& n : thenScope.names)
    if (!ctx.scope.has(n) && elseScope.has(n)) ctx.scope.bind(n);
  const std::string why = "is bound in only one branch of the 'if' at " + path +
                          " and is not visible after it: bind it in both \"then\" and \"else\", or before the if";
  for (const Scope* branchScope : {&thenScope, &elseScope})
    for (const std::string& n : branchScope->names)
      if (!ctx.scope.has(n)) ctx.scope.leftLoop[n] = why;
}

void returnStep(const Value& v, const std::string& path, Step& s, BodyContext& ctx) {
  s.expr = returnValue(*v.find("return"), childPath(path, "return"), ctx);
}

// Whether a step can end the loop it is in, or its function, rather than only
// its iteration: a return, an if that returns, an on-error that returns or
// breaks, a break (a nested loop's break ends only that loop).
bool leavesIteration(const std::vector<Step>& body, bool nestedLoop) {
  return std::any_of(body.begin(), body.end(), [&](const Step& s) {
    switch (s.kind) {
      case Step::Kind::Return: return true;
      case Step::Kind::If:
        return s.hasReturn || (s.breaks && !nestedLoop) || leavesIteration(s.body, nestedLoop) ||
               leavesIteration(s.elseBody, nestedLoop);
      case Step::Kind::Call:
        return s.onError && (s.onError->hasReturn || (s.onError->breakLoop && !nestedLoop) ||
                             leavesIteration(s.onError->then, nestedLoop));
      case Step::Kind::For: return leavesIteration(s.body, true);
      default: return false;
    }
  });
}

// "parallel": false (in order), true (up to the run's maxConcurrency at once) or a number.
void parallelKey(const Value& v, const std::string& path, Step& s) {
  if (v.isBool()) {
    s.order = v.asBool() ? Step::Order::Parallel : Step::Order::InOrder;
  } else if (v.isNumber() && v.asDouble() == static_cast<double>(static_cast<int64_t>(v.asDouble())) &&
             v.asDouble() >= 1 && v.asDouble() <= 1000) {
    s.order = v.asDouble() == 1 ? Step::Order::InOrder : Step::Order::Parallel;
    s.maxParallel = static_cast<size_t>(v.asDouble());
  } else {
    fail(ErrorCode::BadValue, path,
         "\"parallel\" is true, false, or how many items may run at once (a whole number from 1 to 1000), got " +
             shortJson(v));
  }
  if (s.order == Step::Order::Parallel && !s.state.empty())
    fail(ErrorCode::NotAllowedHere, path,
         "A parallel loop's items cannot carry \"state\" from one item to the next: drop \"parallel\" to run "
         "them in order, or drop \"state\"");
  if (s.order == Step::Order::Parallel && !s.independent)
    fail(ErrorCode::NotAllowedHere, path,
         "A parallel loop's items cannot end the loop or the function: its body has a return, an 'if' with "
         "\"return\", a break, or an on-error that returns or breaks. Drop \"parallel\" to run the items in order");
}

void forStep(const Value& v, const std::string& path, Step& s, BodyContext& ctx) {
  s.var = bindName(*v.find("for"), childPath(path, "for"));
  s.expr = compileExpr(*v.find("in"), childPath(path, "in"), ctx);
  const Value& body = *v.find("do");
  if (!body.isArray() || body.items().empty())
    fail(ErrorCode::WrongKind, childPath(path, "do"), "\"do\" must be a non-empty list of steps");
  std::vector<std::string> loopState = ctx.loopState;
  if (const Value* state = v.find("state")) {
    std::string sp = childPath(path, "state");
    if (!state->isObject() || state->members().empty())
      fail(ErrorCode::WrongKind, sp,
           "\"state\" must be a non-empty object of names to their first values, e.g. {\"total\": 0, \"seen\": []}");
    for (MemberRef m : state->members()) {
      const std::string mp = childPath(sp, m.key.str());
      const std::string name = bindName(m.key, mp);
      if (name == s.var)
        fail(ErrorCode::ConflictingFields, mp,
             "'" + name + "' is both the loop's variable and a state name: give one of them another name");
      s.state.emplace_back(name, compileExpr(m.value, mp, ctx));
      loopState.push_back(name);
    }
    for (const auto& st : s.state) ctx.scope.bind(st.first);  // visible in the body and after the loop
  }
  Scope inner = ctx.scope;
  inner.bind(s.var);
  // A parallel loop's items run on copies of the frame: a yield "to" an outer state would be lost.
  if (v.find("parallel")) loopState = {};
  BodyContext loop{ctx.file, ctx.function, inner, ctx.loopDepth + 1, false, loopState};
  if (const Value* where = v.find("where")) {
    s.hasWhere = true;
    s.where = compileExpr(*where, childPath(path, "where"), loop);
  }
  s.body = block(body, childPath(path, "do"), loop);
  s.independent = !leavesIteration(s.body, false);
  if (const Value* parallel = v.find("parallel")) parallelKey(*parallel, childPath(path, "parallel"), s);
  // Names bound in the body are not visible after the loop (unless bound before it).
  const std::string why = "is bound inside the loop at " + path +
                          " and is not visible after it (bind the loop's list with \"let\" on the for step)";
  for (const std::string& n : inner.names)
    if (!ctx.scope.has(n)) ctx.scope.leftLoop[n] = why;
  if (const Value* let = v.find("let")) s.let = bindName(*let, childPath(path, "let"));
}

void yieldStep(const Value& v, const std::string& path, Step& s, BodyContext& ctx) {
  if (ctx.loopDepth == 0)
    fail(ErrorCode::NotAllowedHere, path, "'yield' is only allowed in the \"do\" body of a for loop");
  s.expr = compileExpr(*v.find("yield"), childPath(path, "yield"), ctx);
  if (const Value* to = v.find("to")) {
    const std::string tp = childPath(path, "to");
    if (!to->isString() || std::find(ctx.loopState.begin(), ctx.loopState.end(), to->str()) == ctx.loopState.end())
      fail(ErrorCode::UnknownVariable, tp,
           "\"to\" names a list in the \"state\" of an enclosing for loop (\"state\": {\"name\": []}), got " +
               shortJson(*to) + "." + (to->isString() ? didYouMean(to->str(), ctx.loopState) : std::string()) +
               (ctx.loopState.empty() ? " No enclosing loop has a \"state\"."
                                      : " State names here: " + listNames(ctx.loopState) + "."));
    s.yieldTo = to->str();
  }
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

}  // namespace ptc::step_functions
