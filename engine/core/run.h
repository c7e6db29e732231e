// What every run shares, whatever its dialect: a byte budget, a deadline, the
// channel through which it suspends on a tool and is resumed with the host's
// answer, and the protocol — begin, then resume/fail for each tool call the run
// suspends on, until it is done. Every step returns a status as JSON text.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "core/coro.h"
#include "core/deadline.h"
#include "core/value.h"

namespace ptc {

struct RunLimits {
  int64_t timeoutMs = 1000;
  uint64_t maxHeapBytes = 10 * 1024 * 1024;
  int maxDepth = 50;
};

struct Node;

struct ToolRequest {
  std::string tool;
  Value args;
  std::string path;  // JSON Pointer of the calling node or step
};

// A tool's answer as the run sees it: a value, or the failure's message.
struct ToolAnswer {
  bool failed = false;
  Value value;
  std::string message;
};

// The clock and the tool channel of one run.
struct RunCore : Deadline {
  int toolCalls = 0;

  std::optional<ToolRequest> pending;  // the call the run is suspended on
  coro::coroutine_handle<> waiter;
  std::optional<ToolAnswer> answer;
};

// Suspends a run on a tool call until the host answers it.
struct ToolAwaiter {
  RunCore& core;
  ToolRequest request;

  bool await_ready() const noexcept { return false; }
  void await_suspend(coro::coroutine_handle<> h) {
    core.pending = std::move(request);
    core.waiter = h;
    ++core.toolCalls;  // counted when made, so a call that times out still counts
  }
  ToolAnswer await_resume() {
    core.pending.reset();
    ToolAnswer a = std::move(*core.answer);
    core.answer.reset();
    return a;
  }
};

// Why the host ends a run that waits on a tool (Engine::cancel).
enum class CancelReason {
  Timeout,    // the tool had not answered by the deadline
  Abort,      // the caller's signal
  HostFault,  // the tool answered with something that is not JSON data: a
              // fault of the host, which no on-error or compensate may catch
};

class RunBase {
 public:
  explicit RunBase(const RunLimits& limits);
  virtual ~RunBase() = default;
  RunBase(const RunBase&) = delete;
  RunBase& operator=(const RunBase&) = delete;

  // Status texts: {"state":"call","tool":...,"args":...} while suspended on a
  // tool; {"state":"done","ok":true,...} or {"state":"done","ok":false,"error":...}.
  std::string begin(std::string_view payloadJson, std::string_view memoryJson);
  std::string resume(std::string_view toolResultJson);
  std::string fail(std::string_view toolErrorMessage);
  // Ends the run at once, the pending call unanswered: nothing of the program
  // runs any more (no handler, no compensation).
  std::string cancel(CancelReason reason, std::string_view detail);
  bool finished() const { return finished_; }
  // Time the host already spent on this run (turning its data into JSON)
  // counts toward the time limit: moves the deadline earlier.
  void alreadySpent(double ms);

 protected:
  // Starts evaluation: either returns the final value at once (no tool on the
  // way) or sets task_ to the suspended evaluation.
  virtual std::optional<Value> start(std::string_view payloadJson, std::string_view memoryJson) = 0;
  // The done status for a final value / an error (may add dialect fields).
  virtual std::string doneOk(const Value& result) = 0;
  virtual std::string doneError(const Error& error) = 0;
  std::string metricsJson() const;

  Budget budget_;  // first member: every value of the run is charged to it, so it goes last
  RunCore core_;
  std::optional<CancelReason> cancelled_;  // set when the host ended the run
  // Derived destructors must reset task_ first: its frames point into their members.
  std::optional<Task<Value>> task_;

 private:
  template <class F>
  std::string guarded(F&& step);
  std::string answerTool(ToolAnswer answer);
  Error cancelError(CancelReason reason, std::string_view detail) const;
  std::string status();
  std::string finishOk(const Value& result);
  std::string finishError(const Error& error);

  bool finished_ = false;
};

}  // namespace ptc
