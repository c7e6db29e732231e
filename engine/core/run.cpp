#include "core/run.h"

#include <algorithm>

#include "core/error.h"
#include "core/json.h"
#include "host/protocol.h"

namespace ptc {

RunBase::RunBase(const RunLimits& limits) : budget_(limits.maxHeapBytes) { core_.start(limits.timeoutMs); }

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
  try {
    return step();
  } catch (...) {
    return finishError(currentError());
  }
}

std::string RunBase::begin(std::string_view payloadJson, std::string_view memoryJson) {
  return guarded([&] {
    core_.checkDeadline();  // the host may have spent the time turning its data into JSON
    std::optional<Value> done = start(payloadJson, memoryJson);
    return done ? finishOk(*done) : status();
  });
}

std::string RunBase::resume(std::string_view toolResultJson) {
  return guarded([&] {
    std::string tool = core_.pending ? core_.pending->tool : "";
    Value result;
    try {
      result = parseJson(toolResultJson, "the result of tool '" + tool + "'", [this] { core_.checkDeadline(); });
    } catch (const PtcError& e) {
      if (e.error.type != ErrorType::Parse) throw;
      // The host's data, not the program: an execution error naming the tool.
      throw PtcError(ErrorType::Execution, ErrorCode::BadToolResult,
                     "Tool '" + tool + "' returned data the engine cannot read: " + e.error.message,
                     core_.pending ? core_.pending->path : "");
    }
    return answerTool(ToolAnswer{false, std::move(result), ""});
  });
}

std::string RunBase::fail(std::string_view toolErrorMessage) {
  return guarded([&] { return answerTool(ToolAnswer{true, Value(), std::string(toolErrorMessage)}); });
}

std::string RunBase::cancel(CancelReason reason, std::string_view detail) {
  Error error = cancelError(reason, detail);
  if (finished_) return doneError(error);
  cancelled_ = reason;
  BudgetScope scope(&budget_);
  return finishError(error);
}

Error RunBase::cancelError(CancelReason reason, std::string_view detail) const {
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
    case CancelReason::HostFault:
      // Like data the engine cannot read (resume): the host's fault, at the call.
      if (!core_.pending)
        return Error{ErrorType::Execution,
                     ErrorCode::BadToolResult,
                     "A tool returned a value that is not JSON data" + suffix,
                     "",
                     false,
                     -1};
      return Error{ErrorType::Execution,
                   ErrorCode::BadToolResult,
                   "Tool '" + core_.pending->tool + "' returned a value that is not JSON data" + suffix,
                   core_.pending->path,
                   true,
                   -1};
  }
  return Error{};
}

std::string RunBase::answerTool(ToolAnswer answer) {
  if (!core_.waiter) throw PtcError(ErrorType::Execution, ErrorCode::BadHostCall, "The run is not waiting for a tool");
  core_.checkDeadline();
  core_.answer = std::move(answer);
  auto waiter = core_.waiter;
  core_.waiter = {};
  waiter.resume();
  return status();
}

std::string RunBase::status() {
  drainReadyCoroutines();
  if (task_->done()) return finishOk(task_->take());
  return callStatusJson(*core_.pending);
}

std::string RunBase::finishOk(const Value& result) {
  task_.reset();  // what the result does not hold is let go before it is written
  std::string out = doneOk(result);
  finished_ = true;
  return out;
}

std::string RunBase::finishError(const Error& error) {
  finished_ = true;
  task_.reset();
  return doneError(error);
}

std::string RunBase::metricsJson() const {
  return "{\"memoryBytes\":" + std::to_string(budget_.peak()) + ",\"toolCalls\":" + std::to_string(core_.toolCalls) +
         "}";
}

}  // namespace ptc
