// The engine's public C++ API: JSON text in, JSON text out. The wasm bindings
// expose exactly this; the native tests drive it the same way.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "program.h"
#include "protocol.h"
#include "program_run.h"
#include "run.h"
#include "workflow.h"

namespace ptc {

class Engine {
 public:
  // {"ok":true} or {"ok":false,"error":{...}}; runs nothing.
  std::string validate(std::string_view programJson, std::string_view optionsJson);

  // Parses, validates and compiles; on success registers a run and answers
  // {"state":"ready","run":N,"loads":[context keys the program reads]}, so the
  // host sends only those. Otherwise a done status with the error.
  std::string start(std::string_view programJson, std::string_view optionsJson);
  // Step functions: verifies and compiles a file; then like start. begin takes
  // the entry's input as its payload.
  std::string startWorkflow(std::string_view source, std::string_view optionsJson);
  std::string validateWorkflow(std::string_view source, std::string_view optionsJson);

  std::string begin(int run, std::string_view contextJson, std::string_view memoryJson);
  // start and begin in one call, for a host that already knows which context
  // keys the program loads (from an earlier ready status). The status has the
  // run's id as "run". One boundary crossing instead of two for small runs.
  std::string startAndBegin(std::string_view programJson, std::string_view optionsJson,
                            std::string_view contextJson, std::string_view memoryJson);
  std::string resume(int run, std::string_view toolResultJson);
  std::string fail(int run, std::string_view toolErrorMessage);
  // reason: "timeout" (while awaiting a tool) or "abort" (the caller's signal).
  std::string cancel(int run, std::string_view reason, std::string_view detail);

  std::string formatError(std::string_view errorJson);
  std::string operations();
  size_t liveRuns() const { return runs_.size(); }

 private:
  std::shared_ptr<const Program> compile(std::string_view programJson, const EngineOptions& options);
  std::shared_ptr<const workflow::Workflow> compileWorkflow(std::string_view source, const EngineOptions& options);
  std::string registerRun(std::unique_ptr<RunBase> run, const std::vector<std::string>& loads);
  std::string drive(int run, const std::function<std::string(RunBase&)>& step);

  const EngineOptions& options(std::string_view optionsJson);

  std::unordered_map<int, std::unique_ptr<RunBase>> runs_;
  // The options text of the last run and its parse: hosts send the same limits
  // run after run, and parsing them again costs as much as a tiny run.
  std::string lastOptionsJson_;
  EngineOptions lastOptions_;
  int nextRun_ = 1;
  // Compiled programs by (options, text): agents resend the same program often.
  std::unordered_map<std::string, std::shared_ptr<const Program>> cache_;
  std::unordered_map<std::string, std::shared_ptr<const workflow::Workflow>> workflowCache_;
};

}  // namespace ptc
