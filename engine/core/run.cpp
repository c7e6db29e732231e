#include "core/run.h"

#include <algorithm>
#include <charconv>

#include "core/error.h"
#include "core/json.h"
#include "core/protocol.h"

namespace ptc {

RunBase::RunBase(const RunLimits& limits) : budget_(limits.maxHeapBytes) {
  core_.start(limits.timeoutMs);
  core_.maxToolCalls = limits.maxToolCalls;
  core_.maxConcurrency = std::max(1, limits.maxConcurrency);
}

int RunCore::makeCall(ToolRequest request, coro::coroutine_handle<> waiter) {
  int id = nextCallId++;
  // Counted when made, so a call that times out still counts. One past the
  // limit ends the run (see `stopped`): no try or on-error may catch it, or a
  // program could call on forever.
  if (++toolCalls > maxToolCalls && !stopped)
    stopped = Error{ErrorType::Execution,
                    ErrorCode::ToolCallLimit,
                    "Tool '" + request.tool + "' was not called: the run reached its limit of " +
                        std::to_string(maxToolCalls) +
                        " tool calls (maxToolCalls). Call tools fewer times (e.g. one call for many items) or raise "
                        "the limit",
                    request.path,
                    true,
                    -1};
  calls.emplace(id, PendingCall{std::move(request), waiter, std::nullopt, false});
  if (!stopped) queued.push_back(id);
  issueQueued();
  return id;
}

void RunCore::issueQueued() {
  while (issued < maxConcurrency && !queued.empty()) {
    int id = queued.front();
    queued.pop_front();
    calls.at(id).issued = true;
    ++issued;
    fresh.push_back(id);
  }
}

PendingCall* RunCore::find(int id) {
  if (id == 0) {
    PendingCall* only = nullptr;
    for (auto& [_, call] : calls)
      if (call.issued && !call.answer) {
        if (only) return nullptr;
        only = &call;
      }
    return only;
  }
  auto it = calls.find(id);
  return it == calls.end() || !it->second.issued || it->second.answer ? nullptr : &it->second;
}

void RunBase::alreadySpent(double ms) {
  if (ms > 0) core_.deadline -= std::chrono::microseconds(static_cast<int64_t>(std::min(ms, 1e12) * 1000));
}

template <class F>
std::string RunBase::guarded(F&& step) {
  if (finished_)
    return doneError(
        Error{ErrorType::Execution, ErrorCode::BadHostCall, "This run has already finished", "", false, -1});
  BudgetScope scope(&budget_);
  DeadlineScope clock(&core_);
  WarningsScope warnings(&core_.warnings);
  try {
    return step();
  } catch (...) {
    return finishError(currentError());
  }
}

std::string RunBase::begin(std::string_view payloadJson, std::string_view memoryJson, bool scalarText) {
  return guarded([&] {
    // The host may have spent the time turning its data into JSON: the clock
    // started a moment ago, so the deadline moved before it is that time, and
    // no second read of the clock (a call out of wasm) is needed to tell.
    core_.checkDeadlineAtStart();
    std::optional<Value> done = start(payloadJson, memoryJson);
    return done ? finishOk(*done, scalarText) : status(scalarText);
  });
}

std::string RunBase::resume(std::string_view toolResultJson, int callId) {
  return guarded([&] {
    PendingCall* call = core_.find(callId);
    std::string tool = call ? call->request.tool : "";
    Value result;
    try {
      result = parseJson(toolResultJson, "the result of tool '" + tool + "'", [this] { core_.checkDeadline(); });
    } catch (const PtcError& e) {
      if (e.error.type != ErrorType::Parse) throw;
      // The host's data, not the program: an execution error naming the tool.
      throw PtcError(ErrorType::Execution, ErrorCode::BadToolResult,
                     "Tool '" + tool + "' returned data the engine cannot read: " + e.error.message,
                     call ? call->request.path : "");
    }
    return answerTool(callId, ToolAnswer{false, std::move(result), ""});
  });
}

std::string RunBase::fail(std::string_view toolErrorMessage, int callId) {
  return guarded([&] { return answerTool(callId, ToolAnswer{true, Value(), std::string(toolErrorMessage)}); });
}

std::string RunBase::cancel(CancelReason reason, std::string_view detail, int callId) {
  Error error = cancelError(reason, detail, callId);
  if (finished_) return doneError(error);
  cancelled_ = reason;
  BudgetScope scope(&budget_);
  return finishError(error);
}

Error RunBase::cancelError(CancelReason reason, std::string_view detail, int callId) {
  std::string suffix = detail.empty() ? "" : ": " + std::string(detail);
  switch (reason) {
    case CancelReason::Timeout:
      return Error{ErrorType::Timeout,
                   ErrorCode::Timeout,
                   "Execution exceeded the time limit (timeoutMs)" + suffix,
                   "",
                   false,
                   -1};
    case CancelReason::Abort:
      return Error{
          ErrorType::Execution, ErrorCode::Aborted, "The run was aborted by the caller" + suffix, "", false, -1};
    case CancelReason::HostFault: {
      // Like data the engine cannot read (resume): the host's fault, at the call.
      const PendingCall* call = core_.find(callId);
      if (!call)
        return Error{ErrorType::Execution,
                     ErrorCode::BadToolResult,
                     "A tool returned a value that is not JSON data" + suffix,
                     "",
                     false,
                     -1};
      return Error{ErrorType::Execution,
                   ErrorCode::BadToolResult,
                   "Tool '" + call->request.tool + "' returned a value that is not JSON data" + suffix,
                   call->request.path,
                   true,
                   -1};
    }
  }
  return Error{};
}

std::string RunBase::answerTool(int callId, ToolAnswer answer) {
  PendingCall* call = core_.find(callId);
  if (!call)
    throw PtcError(ErrorType::Execution, ErrorCode::BadHostCall,
                   callId == 0 ? "The run is not waiting for exactly one tool call"
                               : "The run is not waiting for tool call " + std::to_string(callId));
  core_.checkDeadline();
  call->answer = std::move(answer);
  --core_.issued;
  call->waiter.resume();
  return status();
}

// The calls issued since the last status, the run's end, or its stop.
std::string RunBase::status(bool scalarText) {
  drainReadyCoroutines();
  if (core_.stopped) return finishError(*core_.stopped);
  if (task_->done()) return finishOk(task_->take(), scalarText);
  core_.issueQueued();
  std::vector<const ToolRequest*> fresh;
  for (int id : core_.fresh) fresh.push_back(&core_.calls.at(id).request);
  std::string out = callStatusJson(core_.fresh, fresh);
  core_.fresh.clear();
  return out;
}

std::string RunBase::finishOk(const Value& result, bool scalarText) {
  task_.reset();  // what the result does not hold is let go before it is written
  finalWarnings();
  // Warnings make the status say more than a scalar: its text is written.
  OmitScalarText omit(!scalarText && core_.warnings.empty());
  std::string out = withWarnings(doneOk(result));
  if (!core_.warnings.empty()) scalar_ = ScalarDone{};  // the status says more than a scalar
  finished_ = true;
  return out;
}

std::string RunBase::finishError(const Error& error) {
  finished_ = true;
  task_.reset();
  finalWarnings();
  return withWarnings(doneError(error));
}

// The done status with "warnings" as its last member, when there are any.
std::string RunBase::withWarnings(std::string status) const {
  if (core_.warnings.empty() || status.empty() || status.back() != '}') return status;
  status.pop_back();
  return status + ",\"warnings\":" + warningsJson(core_.warnings.list()) + "}";
}

std::string RunBase::metricsJson() const {
  std::string out;
  appendMetrics(out);
  return out;
}

void RunBase::noteScalar(const Value& result) {
  ScalarDone done;
  switch (result.kind()) {
    case Kind::Int:
      done.kind = ScalarDone::Number;
      done.number = static_cast<double>(result.asInt());  // rounded as JSON.parse rounds its digits
      break;
    case Kind::Double:
      done.kind = ScalarDone::Number;
      done.number = result.asDouble();
      break;
    case Kind::Null: done.kind = ScalarDone::Null; break;
    case Kind::Bool: done.kind = result.asBool() ? ScalarDone::True : ScalarDone::False; break;
    default: return;  // text, lists and objects: the host reads the status text
  }
  done.memoryBytes = budget_.peak();
  done.toolCalls = std::max(0, core_.toolCalls);
  scalar_ = done;
}

// Written into a buffer and appended once: in wasm each append is a call into
// the library (five of them were a twentieth of a tiny run).
void RunBase::appendMetrics(std::string& out) const {
  constexpr std::string_view kBytes = "{\"memoryBytes\":";
  constexpr std::string_view kCalls = ",\"toolCalls\":";
  char buf[kBytes.size() + kCalls.size() + 2 * 20 + 1];
  char* const end = buf + sizeof buf;
  char* at = std::copy(kBytes.begin(), kBytes.end(), buf);
  at = std::to_chars(at, end, budget_.peak()).ptr;
  at = std::copy(kCalls.begin(), kCalls.end(), at);
  at = std::to_chars(at, end, static_cast<uint64_t>(std::max(0, core_.toolCalls))).ptr;
  *at++ = '}';
  out.append(buf, at);
}

}  // namespace ptc
