// What every run shares, whatever its dialect: a byte budget, a deadline, the
// channel through which it suspends on a tool and is resumed with the host's
// answer, and the protocol — begin, then resume/fail for each tool call the run
// suspends on, until it is done. Every step returns a status as JSON text.
#pragma once

#include <chrono>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/coro.h"
#include "core/deadline.h"
#include "core/limits.h"
#include "core/value.h"
#include "core/warnings.h"

namespace ptc {

// Defaults from the limits table (core/limits.h).
struct RunLimits {
  int64_t timeoutMs = limits::timeoutMsDefault;
  uint64_t maxHeapBytes = limits::maxHeapBytesDefault;
  int maxDepth = limits::maxDepthDefault;
  int maxToolCalls = limits::maxToolCallsDefault;      // calls one run may make; the next one ends the run
  int maxConcurrency = limits::maxConcurrencyDefault;  // tool calls issued to the host at once
  bool singleTurn = false;                             // no later program reads this run's memory (a one-shot run)
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

// One tool call of a run, from the moment it is made until its answer is taken.
struct PendingCall {
  ToolRequest request;
  coro::coroutine_handle<> waiter;
  std::optional<ToolAnswer> answer;
  bool issued = false;  // told to the host (else queued behind maxConcurrency)
};

// The clock and the tool channel of one run. Several calls may be outstanding
// (independent items of a map, a list...): each has an id, the host answers
// them in any order, and at most maxConcurrency are issued to it at once; the
// others wait in the order they were made.
struct RunCore : Deadline {
  int toolCalls = 0;
  int maxToolCalls = limits::maxToolCallsDefault;
  int maxConcurrency = limits::maxConcurrencyDefault;

  std::map<int, PendingCall> calls;  // made and not yet answered, by id
  std::deque<int> queued;            // made, not issued yet (oldest first)
  std::vector<int> fresh;            // issued since the host last heard
  int issued = 0;                    // issued and not answered
  int nextCallId = 1;
  // Set when the run must end at once, whatever handlers enclose the point
  // where it happened (maxToolCalls): the run's status is then this error.
  std::optional<Error> stopped;
  // What the run's status reports beside its result (core/warnings.h).
  Warnings warnings;

  // Registers a call made by the coroutine `waiter`; returns its id.
  int makeCall(ToolRequest request, coro::coroutine_handle<> waiter);
  // Issues queued calls while fewer than maxConcurrency are outstanding.
  void issueQueued();
  // The call `id` (0: the only outstanding one), or nullptr.
  PendingCall* find(int id);
};

// Suspends a coroutine on a tool call until the host answers it.
struct ToolAwaiter {
  RunCore& core;
  ToolRequest request;
  int id = 0;

  bool await_ready() const noexcept { return false; }
  void await_suspend(coro::coroutine_handle<> h) { id = core.makeCall(std::move(request), h); }
  ToolAnswer await_resume() {
    auto it = core.calls.find(id);
    ToolAnswer a = std::move(*it->second.answer);
    core.calls.erase(it);
    return a;
  }
};

// A done status that says no more than a scalar result and the metrics:
// {"state":"done","ok":true,"result":R,"memoryDelta":{},"memory":{},"metrics":
// {"memoryBytes":B,"toolCalls":C}} with R a number, true, false or null (no
// memory stored, no warnings). A host may read these fields instead (the wasm
// binding's status slot), which spares a tiny run decoding and parsing its
// text; begin() with scalarText false then does not even write it.
struct ScalarDone {
  enum Kind : uint8_t { None, Number, Null, True, False };
  Kind kind = None;  // None: the status is not of that shape; read its text
  double number = 0;
  uint64_t memoryBytes = 0;
  int toolCalls = 0;
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

  // Status texts: {"state":"call","calls":[{"id":..,"tool":..,"path":..,"args":..}]}
  // while waiting on tools (the calls issued since the last status, maybe
  // none); {"state":"done","ok":true,...} or {"state":"done","ok":false,"error":...}.
  // callId 0 names the only outstanding call.
  // scalarText false: a status of ScalarDone's shape at once (no tool) is
  // not written, its text left empty; the host reads scalarDone() instead.
  std::string begin(std::string_view payloadJson, std::string_view memoryJson, bool scalarText = true);
  std::string resume(std::string_view toolResultJson, int callId = 0);
  std::string fail(std::string_view toolErrorMessage, int callId = 0);
  // Ends the run at once, its calls unanswered: nothing of the program runs any
  // more (no handler, no compensation). callId: the call a fault is about.
  std::string cancel(CancelReason reason, std::string_view detail, int callId = 0);
  bool finished() const { return finished_; }
  // The done status as a scalar, when it is one (ScalarDone): set once finished.
  const ScalarDone& scalarDone() const { return scalar_; }
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
  // Adds the warnings only the run's end can decide (before doneOk/doneError).
  virtual void finalWarnings() {}
  std::string metricsJson() const;
  void appendMetrics(std::string& out) const;  // metricsJson(), written at the end of `out`
  // Called by doneOk once it wrote a status of ScalarDone's shape for `result`
  // (anything else is left None): the metrics as appendMetrics wrote them.
  void noteScalar(const Value& result);

  Budget budget_;  // first member: every value of the run is charged to it, so it goes last
  RunCore core_;
  std::optional<CancelReason> cancelled_;  // set when the host ended the run
  // Derived destructors must reset task_ first: its frames point into their members.
  std::optional<Task<Value>> task_;

 private:
  template <class F>
  std::string guarded(F&& step);
  std::string answerTool(int callId, ToolAnswer answer);
  Error cancelError(CancelReason reason, std::string_view detail, int callId);
  std::string status(bool scalarText = true);
  std::string finishOk(const Value& result, bool scalarText = true);
  std::string finishError(const Error& error);
  std::string withWarnings(std::string status) const;

  bool finished_ = false;
  ScalarDone scalar_;
};

}  // namespace ptc
