// One run of a compiled program: its budget, limits and evaluation state, and
// the protocol that drives it — begin, then resume/fail for each tool call the
// run suspends on, until it is done. Every step returns a status as JSON text.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "evaluator.h"
#include "program.h"

namespace ptc {

struct RunLimits {
  int64_t timeoutMs = 1000;
  uint64_t maxHeapBytes = 10 * 1024 * 1024;
  int maxDepth = 50;
};

class Run {
 public:
  Run(std::shared_ptr<const Program> program, const RunLimits& limits);
  ~Run();
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  // Status texts: {"state":"call","tool":...,"args":...} while suspended on a
  // tool; {"state":"done","ok":true,"result":...,"memoryDelta":...,"memory":...,
  // "metrics":...} or {"state":"done","ok":false,"error":{...},"metrics":...}.
  std::string begin(std::string_view contextJson, std::string_view memoryJson);
  std::string resume(std::string_view toolResultJson);
  std::string fail(std::string_view toolErrorMessage);
  std::string cancel(const Error& error);
  bool finished() const { return finished_; }

 private:
  template <class F>
  std::string guarded(F&& step);
  std::string continueAfterTool();
  std::string status();
  std::string finish(const Value& result);
  std::string finishWithError(const Error& error);
  std::string metricsJson() const;

  Budget budget_;  // declared first: every value below is charged to it
  RunState state_;
  Evaluator evaluator_;
  std::shared_ptr<const Program> program_;
  std::optional<Task<Value>> task_;
  bool finished_ = false;
};

}  // namespace ptc
