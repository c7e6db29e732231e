#include "step_functions/run.h"

#include <algorithm>
#include <memory>

#include "core/error.h"
#include "core/json.h"
#include "core/json_pointer.h"
#include "core/protocol.h"
#include "step_functions/compiler.h"
#include "step_functions/eval.h"
#include "step_functions/functions.h"
#include "step_functions/step_table.h"
#include "step_functions/text.h"

namespace ptc::step_functions {

namespace {

constexpr uint64_t kStepLimit = 100000;

[[noreturn]] void fault(ErrorCode code, const std::string& path, std::string message) {
  throw PtcError(ErrorType::Execution, code, std::move(message), path);
}

// §9: every returned value must conform to the function's output type.
void checkReturned(const Function& fn, const Value& v, const std::string& path) {
  if (!conforms(v, fn.output))
    fault(ErrorCode::TypeMismatch, path,
          "Function '" + fn.name + "' returned " + shortJson(v) + ", which is not a " + typeText(fn.output));
}

// Binds a name in a frame for the rest of its block (rebinding shadows).
void bindVar(Frame& frame, const std::string& name, Value v) { frame.vars.emplace_back(&name, std::move(v)); }

// The key of a match subject (§8): its text form for text/number/bool.
std::optional<std::string> matchKey(const Value& v) {
  if (v.isString() || v.isNumber() || v.isBool()) return textForm(v);
  return std::nullopt;
}

// A yield "to" a for's state list: the list's innermost binding grows by one.
void appendToState(Frame& frame, const Step& step, Value v) {
  for (auto it = frame.vars.rbegin(); it != frame.vars.rend(); ++it) {
    if (*it->first != step.yieldTo) continue;
    if (!it->second.isArray())
      fault(ErrorCode::TypeMismatch, step.path + "/to",
            "'yield' with \"to\" adds to a list, but state '" + step.yieldTo + "' holds " + shortJson(it->second) +
                ": start it as [] in the for's \"state\"");
    Array items = it->second.items();
    items.push_back(std::move(v));
    it->second = Value::array(std::move(items));
    return;
  }
}

bool retried(const Retry& retry, const std::string& message) {
  if (retry.on.empty()) return true;
  return std::any_of(retry.on.begin(), retry.on.end(),
                     [&](const std::string& t) { return message.find(t) != std::string::npos; });
}

}  // namespace

FileRun::FileRun(std::shared_ptr<const File> file, const RunLimits& limits) : RunBase(limits), file_(std::move(file)) {}

FileRun::~FileRun() {
  task_.reset();  // suspended frames point into trace_
}

std::optional<Value> FileRun::start(std::string_view inputJson, std::string_view) {
  Value input =
      inputJson.empty() ? Value::object({}) : parseJson(inputJson, "input", [this] { core_.checkDeadline(); });
  checkEntryInput(*file_, input);
  task_.emplace(runEntry(std::move(input)));
  return std::nullopt;
}

Task<Value> FileRun::runEntry(Value input) {
  const Function& entry = file_->functions[static_cast<size_t>(file_->entry)];
  CallResult r = co_await runFunction(entry, std::move(input));
  if (r.failed) {
    // An unhandled failure of a non-result entry is an execution error naming the tool.
    std::string message = r.failure.tool.empty() ? r.failure.message
                                                 : "Tool '" + r.failure.tool + "' failed: " + r.failure.message +
                                                       ". To go on when it fails, handle it in its call step's "
                                                       "\"on-error\" (e.g. \"on-error\": {\"return\": ...})";
    ErrorCode code = r.failure.tool.empty() ? r.failure.code : ErrorCode::ToolFailed;
    throw PtcError(ErrorType::Execution, code, "Unhandled failure in '" + entry.name + "': " + message, r.failure.path);
  }
  co_return r.value;
}

Task<CallResult> FileRun::runFunction(const Function& fn, Value input) {
  Frame frame;
  frame.fn = &fn;
  frame.input = std::move(input);
  Flow flow = co_await runBlock(frame, fn.steps);
  if (!frame.undo.empty() && fails(fn, flow)) co_await runRegistered(frame);
  CallResult out;
  switch (flow.kind) {
    case Flow::Kind::Fail:
      if (!fn.output.isResult()) {
        out.failed = true;
        out.failure = std::move(flow.failure);
        co_return out;
      }
      // A result-typed function turns an unhandled failure into {"error": msg}.
      out.value = Value::object({{Value::string("error"), Value::string(flow.failure.message)}});
      co_return out;
    case Flow::Kind::Return:  // its type was checked where it was returned
      out.value = std::move(flow.value);
      co_return out;
    default:  // the end of steps (§9): nil outputs give null, else an unbound last for's list
      if (fn.endsWithUnboundFor && !fn.output.allowsFallingOffTheEnd()) out.value = frame.lastForList;
      if (fn.output.isResult()) out.value = Value::object({{Value::string("ok"), out.value}});
      checkReturned(fn, out.value, fn.steps.back().path);
      co_return out;
  }
}

Task<Flow> FileRun::runBlock(Frame& frame, const std::vector<Step>& steps) {
  for (const Step& step : steps) {
    Flow flow = co_await runStep(frame, step);
    if (flow.kind != Flow::Kind::Next) co_return flow;
  }
  co_return Flow{};
}

void FileRun::countStep(const std::string& path) {
  core_.checkDeadline();
  if (++steps_ > kStepLimit)
    throw PtcError(ErrorType::Execution, ErrorCode::StepLimit,
                   "step limit: the run would execute more than 100000 steps (loops over long lists multiply)", path);
}

// A timeout or an abort says so; a fault fails the entry, except a call whose
// handler was running its compensations, which stays compensated.
const char* FileRun::interruptedOutcome(const TraceEntry& t, const Error& error) const {
  if (error.type == ErrorType::Timeout) return "timeout";
  if (cancelled_ == CancelReason::Abort) return "abort";
  return std::string_view(t.outcome) == "compensated" ? "compensated" : "failure";
}

// The run error's message, uncharged: a fault ends the run (charging could
// only end it again), and only the steps still open take it, a few per level
// of nesting.
void FileRun::faultTrace(size_t entry, const Error& error) {
  TraceEntry& t = trace_[entry];
  if (t.ended) return;
  if (t.error.empty()) t.error = error.message;
  endTrace(entry, interruptedOutcome(t, error));
}

void FileRun::closeOpenTrace(const Error& error) {
  for (size_t i = 0; i < trace_.size(); ++i) faultTrace(i, error);
}

void FileRun::reserveTraceText(size_t bytes) {
  if (!budget_.fits(bytes))
    throw PtcError(ErrorType::MemoryExceeded, ErrorCode::MemoryExceeded,
                   "Memory limit of " + std::to_string(budget_.limit()) + " bytes exceeded by the run's trace after " +
                       std::to_string(steps_) +
                       " steps: each step's entry repeats its function's name, its path, a call's tool and a failed "
                       "call's error, on top of the values the run holds. Give functions shorter names, loop over "
                       "fewer items (filter or take first), or raise maxHeapBytes");
  traceText_.charge(bytes);
}

// An entry is charged the text it will be written as, but for its values
// (charged as values, and as text when written) and its fixed part (keys,
// numbers, kind, outcome: bounded by the step limit). The names are shared.
size_t FileRun::beginTrace(const Frame& frame, const std::string& path, size_t index, const char* kind,
                           const std::string* tool) {
  reserveTraceText(jsonStringSize(frame.fn->name) + jsonStringSize(path) + (tool ? jsonStringSize(*tool) : 0));
  TraceEntry t;
  t.function = &frame.fn->name;
  t.path = &path;
  t.tool = tool;
  t.step = index;
  t.kind = kind;
  t.started = std::chrono::steady_clock::now();
  trace_.push_back(std::move(t));
  return trace_.size() - 1;
}

void FileRun::endCompensationTrace(size_t entry, const CallResult& r) {
  if (r.failed) {
    traceError(entry, r.failure.message);
    endTrace(entry, "failure");
    return;
  }
  trace_[entry].value = r.value;
  trace_[entry].hasValue = true;
  endTrace(entry, "value");
}

void FileRun::traceError(size_t entry, std::string message) {
  TraceEntry& t = trace_[entry];
  const size_t bytes = jsonStringSize(message);
  reserveTraceText(bytes);
  traceText_.release(t.errorCharged);
  t.errorCharged = bytes;
  t.error = std::move(message);
}

void FileRun::endTrace(size_t entry, const char* outcome) {
  TraceEntry& t = trace_[entry];
  t.outcome = outcome;
  t.ended = true;
  t.durationMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t.started).count();
}

Task<Flow> FileRun::runStep(Frame& frame, const Step& step) {
  countStep(step.path);
  size_t entry = beginTrace(frame, step.path, step.index, stepSpecOf(step.kind).name,
                            step.kind == Step::Kind::Call ? &step.call.target : nullptr);
  Failure failed;
  try {
    Flow flow;
    switch (step.kind) {
      case Step::Kind::Call: co_return co_await runCallStep(frame, step, entry);
      case Step::Kind::For: co_return co_await runForStep(frame, step, entry);
      case Step::Kind::LetExpr: {
        Value v = evaluate(frame, step.expr);
        trace_[entry].value = v;
        bindVar(frame, step.let, std::move(v));
        break;
      }
      case Step::Kind::Match: {
        Value subject = evaluate(frame, step.expr);
        std::optional<std::string> key = matchKey(subject);
        const Expr* chosen = nullptr;
        for (const auto& [k, value] : step.cases)
          if (key && k == *key) chosen = &value;
        if (!chosen)
          for (const auto& [k, value] : step.cases)
            if (k == "_") chosen = &value;
        if (!chosen)
          fault(ErrorCode::NoMatch, step.path,
                "no case for " + shortJson(subject) + " in this match, and no \"_\" case");
        Value v = evaluate(frame, *chosen);
        trace_[entry].value = v;
        bindVar(frame, step.let, std::move(v));
        break;
      }
      case Step::Kind::If: {
        bool condition = truthValue(evaluate(frame, step.expr), step.path + "/if", "'if'");
        trace_[entry].value = Value::boolean(condition);
        trace_[entry].hasValue = true;
        if (step.breaks) {
          if (condition) flow.kind = Flow::Kind::Break;
        } else if (step.hasReturn) {
          if (!condition) break;
          co_await runCompensations(frame, step.compensate);
          flow.kind = Flow::Kind::Return;
          flow.value = evaluate(frame, step.ifReturn);
          checkReturned(*frame.fn, flow.value, step.path + "/return");
          endTrace(entry, step.compensate.empty() ? "value" : "compensated");
          co_return flow;
        } else if (const std::vector<Step>& branch = condition ? step.body : step.elseBody; !branch.empty()) {
          // Its bindings stay: the compiler lets later steps see those bound in both branches.
          flow = co_await runBlock(frame, branch);
          if (flow.kind == Flow::Kind::Fail) {
            endTrace(entry, "failure");
            co_return flow;
          }
        }
        break;
      }
      case Step::Kind::Return:
        flow.kind = Flow::Kind::Return;
        flow.value = evaluate(frame, step.expr);
        checkReturned(*frame.fn, flow.value, step.path + "/return");
        trace_[entry].value = flow.value;
        break;
      case Step::Kind::Yield: {
        Value v = evaluate(frame, step.expr);
        trace_[entry].value = v;
        if (step.yieldTo.empty()) frame.loops.back()->push_back(std::move(v));
        else appendToState(frame, step, std::move(v));
        break;
      }
      case Step::Kind::End_: break;  // not a kind: the compiler never makes one
    }
    trace_[entry].hasValue = true;
    endTrace(entry, "value");
    co_return flow;
  } catch (const FunctionFailure& f) {
    failed = Failure{f.message, "", f.path, f.code};
  } catch (PtcError& e) {
    locate(e.error, step.path);  // e.g. a loop's list nested too deep
    faultTrace(entry, e.error);  // a fault ends the run; the trace ends with the step that faulted
    throw;
  }
  co_return failedStep(entry, std::move(failed));
}

// A function in one of the step's expressions failed (functions.h):
// the step fails as a call does, and the failure goes on (§7).
Flow FileRun::failedStep(size_t entry, Failure failure) {
  traceError(entry, failure.message);
  endTrace(entry, "failure");
  Flow flow;
  flow.kind = Flow::Kind::Fail;
  flow.failure = std::move(failure);
  return flow;
}

Task<Flow> FileRun::runCallStep(Frame& frame, const Step& step, size_t entry) {
  CallResult r;
  bool argsFailed = false;  // then the failure keeps the path of the function that failed
  try {
    Value args = step.call.hasArgs ? evaluate(frame, step.call.args) : Value::object({});
    trace_[entry].args = args;
    trace_[entry].hasArgs = true;
    r = co_await runTries(frame, step, entry, args);
  } catch (const FunctionFailure& f) {  // a function in the args failed: the call's failure, for on-error
    r.failed = argsFailed = true;
    r.failure = Failure{f.message, "", f.path, f.code};
  }
  if (step.retry && !step.retry->let.empty()) bindVar(frame, step.retry->let, Value::integer(trace_[entry].attempts));
  Flow flow;
  if (!r.failed) {
    trace_[entry].value = r.value;
    trace_[entry].hasValue = true;
    if (!step.let.empty()) bindVar(frame, step.let, std::move(r.value));
    try {
      registerCompensations(frame, step);
    } catch (const FunctionFailure& f) {  // a function in a compensation's args failed: the step's failure
      co_return failedStep(entry, Failure{f.message, "", f.path, f.code});
    }
    endTrace(entry, "value");
    co_return flow;
  }
  traceError(entry, r.failure.message);
  if (!argsFailed) r.failure.path = step.path;  // a failure is this step's failure from here on
  const Handler* handler = step.onError.get();
  if (!handler) {
    endTrace(entry, "failure");
    flow.kind = Flow::Kind::Fail;
    flow.failure = std::move(r.failure);
    co_return flow;
  }
  // on-error: $error is the failure's message; compensations run in written
  // order, then the "then" steps; then return, continue, or let the failure
  // propagate (§7). A handler inside "then" has its own $error, and gives
  // this one back when it ends.
  const std::optional<Value> outerError = frame.error;
  frame.error = Value::string(r.failure.message);
  if (!handler->compensate.empty()) trace_[entry].outcome = "compensated";
  co_await runCompensations(frame, handler->compensate);
  if (!handler->then.empty()) {
    Flow inner = co_await runBlock(frame, handler->then);
    if (inner.kind != Flow::Kind::Next) {
      frame.error = outerError;
      endTrace(entry, inner.kind == Flow::Kind::Fail ? "failure"
                      : handler->compensate.empty()  ? "failure"
                                                     : "compensated");
      co_return inner;
    }
  }
  if (handler->hasReturn) {
    try {
      flow.kind = Flow::Kind::Return;
      flow.value = evaluate(frame, handler->returnValue);
      checkReturned(*frame.fn, flow.value, step.path + "/on-error/return");
    } catch (const FunctionFailure& f) {
      frame.error = outerError;
      co_return failedStep(entry, Failure{f.message, "", f.path, f.code});
    }
  } else if (!handler->then.empty() && !handler->continueLoop && !handler->breakLoop) {
    // Handled by its "then": the steps after the call run, its let holding null.
    if (!step.let.empty()) bindVar(frame, step.let, Value());
  } else if (handler->continueLoop) {
    flow.kind = Flow::Kind::Continue;
  } else if (handler->breakLoop) {
    flow.kind = Flow::Kind::Break;
  } else {
    flow.kind = Flow::Kind::Fail;
    flow.failure = std::move(r.failure);
  }
  frame.error = outerError;
  endTrace(entry, handler->compensate.empty() ? "failure" : "compensated");
  co_return flow;
}

Task<CallResult> FileRun::runTries(Frame& frame, const Step& step, size_t entry, const Value& args) {
  const Retry* retry = step.retry.get();
  for (int tries = 1;; ++tries) {
    if (tries > 1) countStep(step.path);  // each try again is a step, against the step limit
    if (retry) trace_[entry].attempts = tries;
    CallResult r = co_await runCall(frame, step.call, args);
    if (!r.failed || !retry || tries >= retry->tries || !retried(*retry, r.failure.message)) co_return r;
  }
}

Task<bool> FileRun::runCompensations(Frame& frame, const std::vector<Call>& calls) {
  for (size_t i = 0; i < calls.size(); ++i) {
    const Call& c = calls[i];
    countStep(c.path);
    size_t entry = beginTrace(frame, c.path, i, "compensate", &c.target);
    CallResult r;
    try {
      Value args = c.hasArgs ? evaluate(frame, c.args) : Value::object({});
      trace_[entry].args = args;
      trace_[entry].hasArgs = true;
      r = co_await runCall(frame, c, args);
    } catch (const FunctionFailure& f) {  // a compensation that fails, as a failing call does
      r.failed = true;
      r.failure = Failure{f.message, "", f.path, f.code};
    } catch (const PtcError& e) {
      faultTrace(entry, e.error);
      throw;
    }
    endCompensationTrace(entry, r);  // a failure is recorded, then ignored: the rest still run
    // Its "let" holds its result, or null when it failed, for the rest of the handler.
    if (!c.let.empty()) bindVar(frame, c.let, r.failed ? Value() : std::move(r.value));
  }
  co_return true;
}

Task<CallResult> FileRun::runCall(Frame& frame, const Call& call, const Value& args) {
  (void)frame;
  CallResult out;
  if (call.function >= 0) {
    const Function& callee = file_->functions[static_cast<size_t>(call.function)];
    for (const auto& [name, type] : callee.params)
      if (!conforms(args.field(name), type))
        fault(ErrorCode::TypeMismatch, call.path,
              "Argument '" + name + "' of '" + callee.name + "' must be " + typeText(type) + ", got " +
                  shortJson(args.field(name)));
    CallResult r = co_await runFunction(callee, args);
    if (r.failed || !callee.output.isResult()) co_return r;
    // A result-typed callee: {"ok": v} yields v; {"error": m} is a failure of this call.
    MemberRef m = r.value.members()[0];
    if (m.key.str() == "ok") {
      out.value = m.value;
    } else {
      out.failed = true;
      out.failure.message = textForm(m.value);
    }
    co_return out;
  }
  core_.checkDeadline();
  // A named awaiter, not a braced temporary: g++ 12 destroys those twice in co_await.
  ToolAwaiter awaiter{core_, ToolRequest{call.target, args, call.path}};
  ToolAnswer answer = co_await awaiter;
  if (answer.failed) {
    out.failed = true;
    out.failure = Failure{std::move(answer.message), call.target, call.path};
  } else {
    out.value = std::move(answer.value);
  }
  co_return out;
}

// The values' text counts toward maxHeapBytes here (`charged`): one list,
// bound again and again, is written out at every step. The rest of an entry
// does not: its names' and error's text was charged as the entry was made
// (beginTrace), the rest is bounded by the step limit. Writing checks the
// deadline in force at every entry, as at every value.
void FileRun::appendTrace(std::string& out, bool withValues, ChargedText* charged) const {
  out += "[";
  for (size_t i = 0; i < trace_.size(); ++i) {
    tickDeadline();
    const TraceEntry& t = trace_[i];
    const size_t start = out.size();
    size_t valueBytes = 0;
    auto appendValue = [&](const char* key, const Value& v) {
      out += key;
      const size_t before = out.size();
      appendJson(out, v);
      valueBytes += out.size() - before;
    };
    if (i) out += ",";
    out += "{\"function\":";
    appendJsonString(out, *t.function);
    out += ",\"path\":";
    appendJsonString(out, *t.path);
    out += ",\"step\":" + std::to_string(t.step) + ",\"kind\":\"" + t.kind + "\"";
    if (t.tool) {
      out += ",\"tool\":";
      appendJsonString(out, *t.tool);
    }
    if (t.hasArgs && withValues) appendValue(",\"args\":", t.args);
    if (t.attempts > 0) out += ",\"attempts\":" + std::to_string(t.attempts);
    out += ",\"durationMs\":";
    appendNumber(out, t.durationMs);
    out += ",\"outcome\":\"" + std::string(t.outcome) + "\"";
    if (t.hasValue && withValues && std::string_view(t.outcome) == "value") appendValue(",\"value\":", t.value);
    if (!t.error.empty()) {
      out += ",\"error\":";
      appendJsonString(out, t.error);
    }
    out += "}";
    if (charged) charged->discount(out.size() - start - valueBytes);
  }
  out += "]";
}

// The result and the trace hold values by reference, written out in full:
// the text counts toward maxHeapBytes and writing it toward timeoutMs.
std::string FileRun::doneOk(const Value& result) {
  std::string out = "{\"state\":\"done\",\"ok\":true,\"result\":";
  {
    ChargedText charged(out, "the result and trace");
    appendJson(out, result);
    out += ",\"trace\":";
    appendTrace(out, true, &charged);
    charged.settle();
  }
  return out + ",\"metrics\":" + metricsJson() + "}";
}

// A failed run's trace is written within the run's memory limit, in what is
// left of it. After a timeout the values are still written (what happened
// before the limit is what a caller needs), charged to the budget, which bounds
// the time writing takes; after memory_exceeded nothing is left. When the
// values do not fit, the steps come without their values and args, which the
// error's message says. The rest of the trace was charged as it grew (its
// names and errors) or is bounded by the step limit, so it fits in
// maxHeapBytes and that much again.
std::string FileRun::doneError(const Error& error) {
  closeOpenTrace(error);
  DeadlineScope clock(&core_);  // (a cancel comes without one)
  auto head = [](const Error& e) {
    return "{\"state\":\"done\",\"ok\":false,\"error\":" + errorJson(e) + ",\"trace\":";
  };
  std::string out;
  bool written = false;
  if (error.type != ErrorType::MemoryExceeded) {
    DeadlineScope pastDeadline(error.type == ErrorType::Timeout ? nullptr : &core_);
    try {
      out = head(error);
      ChargedText charged(out, "the trace");
      appendTrace(out, true, &charged);
      written = true;
    } catch (...) {
    }
  }
  if (!written) {
    Error told = error;
    told.message += " (the trace leaves out the steps' values and args, which would not fit within the run's limits)";
    out = head(told);
    DeadlineScope noDeadline(nullptr);
    appendTrace(out, false, nullptr);
  }
  return out + ",\"metrics\":" + metricsJson() + "}";
}

}  // namespace ptc::step_functions
