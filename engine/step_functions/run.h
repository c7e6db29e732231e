// A run of a step-function file (§7-§10): steps execute in order as
// coroutines that suspend at each tool call. Failures (a tool that fails, a
// called function that fails) are values that on-error can catch; faults
// (program bugs) are exceptions that end the run. Every executed step leaves a
// trace entry (docs/step-functions.md).
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/fan_out.h"
#include "core/run.h"
#include "step_functions/file.h"

namespace ptc {
class ChargedText;
}

namespace ptc::step_functions {

// A domain failure: catchable by on-error, $error is its message.
struct Failure {
  std::string message;
  std::string tool;                              // the host tool it came from, for the entry's error message
  std::string path;                              // the call step where it surfaced in the current function
  ErrorCode code = ErrorCode::UnhandledFailure;  // a function's own code; a tool's is tool_failed
};

// How a block of steps ended.
struct Flow {
  enum class Kind { Next, Return, Continue, Break, Fail };
  Kind kind = Kind::Next;
  Value value;      // Return
  Failure failure;  // Fail
};

// What a call produced: a value, or a failure.
struct CallResult {
  bool failed = false;
  Value value;
  Failure failure;
};

// One executed step. Its function's name, its path and a call's tool live in
// the file, which the run keeps: an entry points at them rather than
// copying them (a long name times 100,000 steps was gigabytes of copies). The
// text of those and of its error, written out once per entry, is charged to
// the run's budget as the entry is made (FileRun::reserveTraceText).
struct TraceEntry {
  const std::string* function = nullptr;
  const std::string* path = nullptr;
  const std::string* tool = nullptr;  // a call's target; none for other steps
  size_t step = 0;
  const char* kind = "";
  Value args;
  bool hasArgs = false;
  int attempts = 0;  // a call step with "retry": the tries made (0: no retry, not written)
  std::chrono::steady_clock::time_point started;
  double durationMs = 0;
  const char* outcome = "value";
  bool ended = false;
  Value value;
  bool hasValue = false;
  std::string error;
  size_t errorCharged = 0;  // bytes of the budget the error's text holds
};

// A call step's "compensate", registered when the call succeeded: its args
// were evaluated then; it runs if the function fails later.
struct Registered {
  const Call* call = nullptr;
  Value args;
};

// One function activation: its input, its bindings and its loops.
struct Frame {
  const Function* fn = nullptr;
  Value input;
  std::vector<std::pair<const std::string*, Value>> vars;  // innermost last; rebinding pushes
  std::vector<ListBuilder*> loops;  // lists being yielded to (charged as they grow), innermost last
  std::optional<Value> error;       // $error inside a handler
  Value lastForList;                // §9: an unbound for as the last step
  std::vector<Registered> undo;     // registered compensations, oldest first
};

class FileRun final : public RunBase {
 public:
  FileRun(std::shared_ptr<const File> file, const RunLimits& limits);
  ~FileRun() override;

 private:
  std::optional<Value> start(std::string_view inputJson, std::string_view unused) override;
  std::string doneOk(const Value& result) override;
  std::string doneError(const Error& error) override;
  // Appends the trace as JSON; without each step's value and args when
  // `withValues` is false. The values' text counts toward `charged`.
  void appendTrace(std::string& out, bool withValues, ChargedText* charged) const;

  Task<Value> runEntry(Value input);
  Task<CallResult> runFunction(const Function& fn, Value input);
  Task<Flow> runBlock(Frame& frame, const std::vector<Step>& steps);
  Task<Flow> runStep(Frame& frame, const Step& step);
  Task<Flow> runCallStep(Frame& frame, const Step& step, size_t entry);
  Task<Flow> runForStep(Frame& frame, const Step& step, size_t entry);
  // Iterations that call tools, run concurrently (see runForStep).
  struct Iteration;
  Task<bool> runIteration(Iteration& it, const Step& step, Branches& fan, size_t index);
  Task<Flow> runIterationsConcurrently(Frame& frame, const Step& step, size_t entry, const Array& items,
                                       ListBuilder& collected);
  Task<CallResult> runCall(Frame& frame, const Call& call, const Value& args);
  // A call step's call, tried again as its "retry" says; `tries` counts them.
  Task<CallResult> runTries(Frame& frame, const Step& step, size_t entry, const Value& args);
  // A for step's items, without those its "where" rejects.
  Array itemsWhere(Frame& frame, const Step& step, const Array& items);
  Task<bool> runCompensations(Frame& frame, const std::vector<Call>& calls);
  // A successful call step's "compensate": registered with its args evaluated now.
  void registerCompensations(Frame& frame, const Step& step);
  // When a function fails: its registered compensations, newest first (run_compensate.cpp).
  Task<bool> runRegistered(Frame& frame);
  // Whether a function's outcome is a failure that runs its registered compensations.
  static bool fails(const Function& fn, const Flow& flow);
  Flow failedStep(size_t entry, Failure failure);

  // A new entry; `tool` names a call's target. Charges the entry's text.
  size_t beginTrace(const Frame& frame, const std::string& path, size_t index, const char* kind,
                    const std::string* tool = nullptr);
  // A failed step's error (its text charged, as the entry's other texts are).
  void traceError(size_t entry, std::string message);
  // Charges `bytes` of the trace's text, or ends the run with memory_exceeded.
  void reserveTraceText(size_t bytes);
  void endTrace(size_t entry, const char* outcome);
  // A compensation's entry: its value, or its failure, recorded and then ignored.
  void endCompensationTrace(size_t entry, const CallResult& r);
  // A fault ends the run: the entries it interrupts end with interruptedOutcome.
  void faultTrace(size_t entry, const Error& error);
  const char* interruptedOutcome(const TraceEntry& t, const Error& error) const;
  // Entries still open when the run ends without unwinding its steps (the host
  // cancelled the pending call, or the deadline passed as a tool answered).
  void closeOpenTrace(const Error& error);
  void countStep(const std::string& path);

  std::shared_ptr<const File> file_;
  std::vector<TraceEntry> trace_;
  Scratch traceText_{&budget_};  // what the entries' texts hold of the budget
  uint64_t steps_ = 0;
};

}  // namespace ptc::step_functions
