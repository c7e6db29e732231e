// The engine's public C++ API: JSON text in, JSON text out. The wasm bindings
// expose exactly this; the native tests drive it the same way.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "api/options.h"
#include "core/protocol.h"
#include "core/resident.h"
#include "core/run.h"
#include "ptc_json/program.h"
#include "ptc_json/program_run.h"
#include "step_functions/file.h"

namespace ptc {

// Program text (and step-function source) is code, not data: it is refused
// past this size, with a validation_error that says to pass data in the
// context (or the input) instead.
constexpr size_t kMaxProgramBytes = 1024 * 1024;

// What starting a run gives: its first status text (its "state" first, as
// every status), and beside it the run's handle while the run waits on tools,
// for resume, fail and cancel; 0 when the run is already done.
struct RunStatus {
  int run = 0;
  std::string text;
  // The done status as a scalar, when it is one (core/run.h): what the wasm
  // binding hands the host beside the text, so a tiny run is not parsed.
  ScalarDone scalar;
};

class Engine {
 public:
  // {"ok":true} or {"ok":false,"error":{...}}; runs nothing.
  std::string validate(std::string_view programJson, std::string_view optionsJson);

  // Parses, validates and compiles a program once, for any number of runs:
  // answers {"state":"prepared","id":N,"loads":[context keys the program
  // reads]}, so the host sends only those, or a done status with the error.
  // The options' limits are kept with it. Compiling is cached by text, so a
  // program prepared again with other limits is not compiled again.
  std::string prepare(std::string_view programJson, std::string_view optionsJson);
  // The same for a step-function file (the options name its entry): verified
  // and compiled once, then run by its handle like a program. Its "loads" are
  // always empty: the entry's input is the whole payload.
  std::string prepareWorkflow(std::string_view source, std::string_view optionsJson);
  // Starts a run of a prepared program or step-function file and begins it
  // at once: one boundary crossing per small run. Beside the status text,
  // never in it, the run's handle while the run waits on a tool (RunStatus:
  // 0 once it is done). contextJson: the
  // program's context, or the entry's input. spentMs: what the host already
  // spent on the run (serialising the context), deducted from its time limit.
  // rowBlocks: more context keys, lists in the binary form of row_block.h.
  // resident: a context loaded by loadResident (0: none), whose keys the run
  // loads where contextJson has no key of that name. A step-function run
  // takes neither.
  // scalarText false: a done status that RunStatus::scalar says in full (a
  // scalar result, nothing stored, no warnings) is not written; its text is
  // empty (the wasm binding, whose host reads the scalar). memoryBytes is the
  // same either way.
  RunStatus runPrepared(int prepared, std::string_view contextJson, std::string_view memoryJson, double spentMs = 0,
                        std::string_view rowBlocks = {}, int resident = 0, bool scalarText = true);
  // Keeps a context object in the engine for runs to load (resident.h):
  // {"state":"resident","id":N,"bytes":B,"keys":[...]}, or a done status with
  // the error (memory_exceeded past maxBytes). Runs still reading it when it
  // is released keep it until they end.
  std::string loadResident(std::string_view contextJson, uint64_t maxBytes, int64_t timeoutMs);
  // The same with the text read from `source` a piece at a time (the wasm
  // binding's: the text never crosses into the engine whole).
  std::string loadResident(TextSource& source, uint64_t maxBytes, int64_t timeoutMs);
  void releaseResident(int id) { residents_.erase(id); }
  // Bytes of the resident contexts loaded and not released.
  uint64_t residentBytes() const;
  // The host forgets a prepared program or file (it keeps a bounded set of them).
  void release(int prepared) { prepared_.erase(prepared); }
  std::string validateWorkflow(std::string_view source, std::string_view optionsJson);
  // Preflight analysis without running (ptc_json/analysis.h, step_functions/analysis.h):
  // {"ok":true,"analysis":{...}}, or the error validate would give.
  std::string analyze(std::string_view programJson, std::string_view optionsJson);
  std::string analyzeWorkflow(std::string_view source, std::string_view optionsJson);

  // Answer one tool call a run (of either kind) waits on, by the id its call
  // status gave (0: the only outstanding call): its result as JSON text, or
  // the message of its failure. Calls may be answered in any order.
  std::string resume(int run, std::string_view toolResultJson, int callId = 0);
  std::string fail(int run, std::string_view toolErrorMessage, int callId = 0);
  // Ends a run waiting on tools. reason: "timeout" (a tool had not answered
  // in time), "abort" (the caller's signal) or "fault" (the result of call
  // `callId` is not JSON data, e.g. a BigInt: an execution error naming the
  // tool, at the call, that no on-error catches). detail: appended to the message.
  std::string cancel(int run, std::string_view reason, std::string_view detail, int callId = 0);

  std::string formatError(std::string_view errorJson);
  std::string operations();
  // The step-function language as JSON: step kinds, operators, functions.
  std::string workflowLanguage();
  size_t liveRuns() const { return runs_.size(); }
  size_t preparedPrograms() const { return prepared_.size(); }
  // Bytes of text the caches of compiled programs and step-function files
  // keep (their keys: options and text); each is bounded (engine.cpp).
  size_t cachedTextBytes() const { return cacheBytes_ + fileCacheBytes_; }

 private:
  // Both refuse text over kMaxProgramBytes and read it within the options'
  // timeoutMs; `spentMs`, when given, receives the time that took (0 when the
  // text was compiled before).
  std::shared_ptr<const Program> compile(std::string_view programJson, const EngineOptions& options,
                                         double* spentMs = nullptr);
  std::shared_ptr<const step_functions::File> compileFile(std::string_view source, const EngineOptions& options,
                                                          double* spentMs = nullptr);
  // validateWorkflow's checks (the entry's input too, when the options carry one).
  std::shared_ptr<const step_functions::File> verifyFile(std::string_view source, std::string_view optionsJson);
  // A fresh run of a prepared entry, or a done status saying why there is none.
  std::unique_ptr<RunBase> newRun(int prepared, std::string_view rowBlocks, int resident, std::string& refused);
  std::string drive(int run, const std::function<std::string(RunBase&)>& step);
  // A loaded resident context kept under a new id: its status text.
  std::string kept(std::shared_ptr<const Resident> resident);

  const EngineOptions& options(std::string_view optionsJson);

  // One of program and file is set: the dialect the entry was prepared in.
  struct Prepared {
    std::shared_ptr<const Program> program;
    std::shared_ptr<const step_functions::File> file;
    RunLimits limits;
    double compileMs = 0;  // the time preparing took, counted toward the next run's timeoutMs
  };

  std::unordered_map<int, std::unique_ptr<RunBase>> runs_;
  std::unordered_map<int, Prepared> prepared_;
  int nextPrepared_ = 1;
  std::unordered_map<int, std::shared_ptr<const Resident>> residents_;
  int nextResident_ = 1;
  // The options text of the last run and its parse: hosts send the same limits
  // run after run, and parsing them again costs as much as a tiny run.
  std::string lastOptionsJson_;
  EngineOptions lastOptions_;
  int nextRun_ = 1;
  // Compiled programs by (options, text): agents resend the same program often.
  std::unordered_map<std::string, std::shared_ptr<const Program>> cache_;
  std::unordered_map<std::string, std::shared_ptr<const step_functions::File>> fileCache_;
  size_t cacheBytes_ = 0;
  size_t fileCacheBytes_ = 0;
};

}  // namespace ptc
