#include "api/engine.h"

#include <chrono>
#include <functional>
#include <utility>

#include "api/step_functions.h"
#include "core/deadline.h"
#include "core/error.h"
#include "core/json.h"
#include "ptc_json/analysis.h"
#include "ptc_json/op_table.h"

namespace ptc {

namespace {

constexpr size_t kProgramCacheSize = 64;
// Each cached entry keeps its key, the program's text (up to kMaxProgramBytes):
// 64 texts of 1 MiB would hold 64 MiB of wasm memory for good (it never
// shrinks). Past this many bytes of keys the cache starts over, as it does
// past kProgramCacheSize entries.
constexpr size_t kProgramCacheBytes = 4 * 1024 * 1024;

std::string cacheKey(std::string_view programJson, const EngineOptions& o) {
  std::string key = std::to_string(o.compile.maxDepth) + "|" + o.entry + (o.compile.toolsKnown ? "|t:" : "|-:");
  for (const std::string& t : o.compile.tools) key += t + ",";
  key += "|" + o.returnsJson + "|";
  key += programJson;
  return key;
}

const char* kNoMetrics = "{\"memoryBytes\":0,\"toolCalls\":0}";

void checkProgramSize(std::string_view text, const std::string& what, const char* instead) {
  if (text.size() <= kMaxProgramBytes) return;
  throw PtcError(ErrorType::Validation, ErrorCode::TooLarge,
                 "The " + what + " is " + std::to_string(text.size()) + " bytes of text, over the limit of " +
                     std::to_string(kMaxProgramBytes) + " bytes (1 MiB). " + instead +
                     " rather than writing it into the " + what + ".");
}

// Reads and compiles a text under its own deadline, timeoutMs from now (no
// run has started yet), so a huge or slow text is a timeout, and reports how
// long that took so that the run which needed it can be charged.
template <class Compile>
auto withinTimeLimit(int64_t timeoutMs, const std::string& what, double* spentMs, Compile&& compile) {
  const auto started = Clock::now();
  Deadline clock;
  clock.start(timeoutMs);
  DeadlineScope scope(&clock);
  BudgetScope noBudget(nullptr);  // compiled texts belong to no run
  try {
    auto compiled = compile([&clock] { clock.checkDeadline(); });
    if (spentMs) *spentMs = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
    return compiled;
  } catch (const PtcError& e) {
    if (e.error.type != ErrorType::Timeout) throw;
    throw PtcError(ErrorType::Timeout, ErrorCode::Timeout,
                   "Reading the " + what + " took longer than the time limit of " + std::to_string(timeoutMs) +
                       " ms (timeoutMs): shorten the " + what + ".");
  }
}

// A call the host should not have made (a bug in the host, never in a program).
std::string badHostCall(const std::string& message) {
  return doneErrorJson(Error{ErrorType::Execution, ErrorCode::BadHostCall, message, "", false, -1}, kNoMetrics);
}

// A handle the host does not hold.
std::string unknownHandle(const char* what, int id) {
  return badHostCall(std::string("Unknown ") + what + " " + std::to_string(id));
}

}  // namespace

const EngineOptions& Engine::options(std::string_view optionsJson) {
  if (optionsJson != lastOptionsJson_) {
    lastOptions_ = parseEngineOptions(optionsJson);
    lastOptionsJson_ = std::string(optionsJson);
  }
  return lastOptions_;
}

std::shared_ptr<const Program> Engine::compile(std::string_view programJson, const EngineOptions& options,
                                               double* spentMs) {
  checkProgramSize(programJson, "program", "Pass data in the context and load it");
  std::string key = cacheKey(programJson, options);
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  auto program =
      withinTimeLimit(options.limits.timeoutMs, "program", spentMs, [&](const std::function<void()>& progress) {
        Value document = parseJson(programJson, "program", progress);
        return compileProgram(programOfEnvelope(document), options.compile);
      });
  if (cache_.size() >= kProgramCacheSize || cacheBytes_ + key.size() > kProgramCacheBytes) {
    cache_.clear();
    cacheBytes_ = 0;
  }
  cacheBytes_ += key.size();
  cache_.emplace(std::move(key), program);
  return program;
}

namespace {

std::vector<Warning> warningsBeforeRun(const Program& program, const EngineOptions& options) {
  return staticWarnings(program, options.contextKeysKnown ? &options.contextKeys : nullptr);
}

}  // namespace

std::string Engine::validate(std::string_view programJson, std::string_view optionsJson) {
  try {
    EngineOptions options = parseEngineOptions(optionsJson);
    return validOkJson(warningsBeforeRun(*compile(programJson, options), options));
  } catch (...) {
    return validErrorJson(currentError());
  }
}

std::string Engine::analyze(std::string_view programJson, std::string_view optionsJson) {
  try {
    EngineOptions options = parseEngineOptions(optionsJson);
    auto program = compile(programJson, options);
    std::vector<Warning> warnings = warningsBeforeRun(*program, options);
    return "{\"ok\":true,\"analysis\":" + analyzeProgram(*program) +
           (warnings.empty() ? "" : ",\"warnings\":" + warningsJson(warnings)) + "}";
  } catch (...) {
    return validErrorJson(currentError());
  }
}

std::string Engine::prepare(std::string_view programJson, std::string_view optionsJson) {
  try {
    const EngineOptions& opts = options(optionsJson);
    double compileMs = 0;
    auto program = compile(programJson, opts, &compileMs);
    int id = nextPrepared_++;
    prepared_.emplace(id, Prepared{program, nullptr, opts.limits, compileMs});
    return preparedJson(id, *program);
  } catch (...) {
    return doneErrorJson(currentError(), kNoMetrics);
  }
}

std::string Engine::prepareWorkflow(std::string_view source, std::string_view optionsJson) {
  try {
    const EngineOptions& opts = options(optionsJson);
    double compileMs = 0;
    auto wf = compileFile(source, opts, &compileMs);
    int id = nextPrepared_++;
    prepared_.emplace(id, Prepared{nullptr, wf, opts.limits, compileMs});
    return withLoads("{\"state\":\"prepared\",\"id\":" + std::to_string(id), {});  // the input is all it reads
  } catch (...) {
    return doneErrorJson(currentError(), kNoMetrics);
  }
}

std::unique_ptr<RunBase> Engine::newRun(int prepared, std::string_view rowBlocks, int resident, std::string& refused) {
  auto it = prepared_.find(prepared);
  if (it == prepared_.end()) {
    refused = unknownHandle("prepared program", prepared);
    return nullptr;
  }
  Prepared& entry = it->second;
  std::unique_ptr<RunBase> run;
  if (entry.file) {
    if (!rowBlocks.empty() || resident != 0) {
      refused = badHostCall("A step-function run takes its input only: no row blocks, no resident context");
      return nullptr;
    }
    run = stepfn::newRun(entry.file, entry.limits);
  } else {
    std::shared_ptr<const Resident> residentContext;
    if (resident != 0) {
      auto r = residents_.find(resident);
      if (r == residents_.end()) {
        refused = unknownHandle("resident context", resident);
        return nullptr;
      }
      residentContext = r->second;
    }
    auto programRun = std::make_unique<ProgramRun>(entry.program, entry.limits);
    programRun->setRowBlocks(rowBlocks);
    programRun->setResident(std::move(residentContext));
    run = std::move(programRun);
  }
  // Reading the text counts toward the first run started after it was
  // prepared (a text prepared again, or run again, is not read again; a
  // refused run started nothing).
  run->alreadySpent(std::exchange(entry.compileMs, 0));
  return run;
}

RunStatus Engine::runPrepared(int prepared, std::string_view contextJson, std::string_view memoryJson, double spentMs,
                              std::string_view rowBlocks, int resident, bool scalarText) {
  std::string refused;
  std::unique_ptr<RunBase> fresh = newRun(prepared, rowBlocks, resident, refused);
  if (!fresh) return {0, std::move(refused), {}};
  fresh->alreadySpent(spentMs);
  std::string status = fresh->begin(contextJson, memoryJson, scalarText);
  // Only a run that waits on tools gets a handle (and a place among the runs).
  if (fresh->finished()) return {0, std::move(status), fresh->scalarDone()};
  int run = nextRun_++;
  runs_.emplace(run, std::move(fresh));
  return {run, std::move(status), {}};
}

std::string Engine::loadResident(std::string_view contextJson, uint64_t maxBytes, int64_t timeoutMs) {
  try {
    return kept(ptc::loadResident(contextJson, maxBytes, timeoutMs));
  } catch (...) {
    return doneErrorJson(currentError(), kNoMetrics);
  }
}

std::string Engine::loadResident(TextSource& source, uint64_t maxBytes, int64_t timeoutMs) {
  try {
    return kept(ptc::loadResident(source, maxBytes, timeoutMs));
  } catch (...) {
    return doneErrorJson(currentError(), kNoMetrics);
  }
}

std::string Engine::kept(std::shared_ptr<const Resident> resident) {
  int id = nextResident_++;
  residents_.emplace(id, resident);
  return residentJson(id, *resident);
}

uint64_t Engine::residentBytes() const {
  uint64_t bytes = 0;
  for (const auto& [id, r] : residents_) bytes += r->budget.live();
  return bytes;
}

std::shared_ptr<const step_functions::File> Engine::compileFile(std::string_view source, const EngineOptions& options,
                                                                double* spentMs) {
  checkProgramSize(source, "step-function file", "Pass data as the entry's input");
  std::string key = cacheKey(source, options);
  if (auto it = fileCache_.find(key); it != fileCache_.end()) return it->second;
  step_functions::CompileOptions co{options.entry, options.compile.toolsKnown, options.compile.tools};
  auto wf = withinTimeLimit(options.limits.timeoutMs, "step-function file", spentMs,
                            [&](const std::function<void()>& progress) {
                              auto functions = parseJsonSequence(source, "step-function file", progress);
                              return stepfn::compile(functions, co);
                            });
  if (fileCache_.size() >= kProgramCacheSize || fileCacheBytes_ + key.size() > kProgramCacheBytes) {
    fileCache_.clear();
    fileCacheBytes_ = 0;
  }
  fileCacheBytes_ += key.size();
  fileCache_.emplace(std::move(key), wf);
  return wf;
}

std::shared_ptr<const step_functions::File> Engine::verifyFile(std::string_view source, std::string_view optionsJson) {
  EngineOptions options = parseEngineOptions(optionsJson);
  auto wf = compileFile(source, options);
  if (!options.inputJson.empty()) {
    BudgetScope noBudget(nullptr);
    stepfn::checkEntryInput(*wf, parseJson(options.inputJson, "input"));
  }
  return wf;
}

std::string Engine::validateWorkflow(std::string_view source, std::string_view optionsJson) {
  try {
    verifyFile(source, optionsJson);
    return validOkJson();
  } catch (...) {
    return validErrorJson(currentError());
  }
}

std::string Engine::analyzeWorkflow(std::string_view source, std::string_view optionsJson) {
  try {
    return "{\"ok\":true,\"analysis\":" + stepfn::analyze(*verifyFile(source, optionsJson)) + "}";
  } catch (...) {
    return validErrorJson(currentError());
  }
}

std::string Engine::drive(int run, const std::function<std::string(RunBase&)>& step) {
  auto it = runs_.find(run);
  if (it == runs_.end()) return unknownHandle("run", run);
  std::string status = step(*it->second);
  if (it->second->finished()) runs_.erase(it);
  return status;
}

std::string Engine::resume(int run, std::string_view toolResultJson, int callId) {
  return drive(run, [&](RunBase& r) { return r.resume(toolResultJson, callId); });
}

std::string Engine::fail(int run, std::string_view toolErrorMessage, int callId) {
  return drive(run, [&](RunBase& r) { return r.fail(toolErrorMessage, callId); });
}

std::string Engine::cancel(int run, std::string_view reason, std::string_view detail, int callId) {
  CancelReason why = reason == "timeout" ? CancelReason::Timeout
                     : reason == "fault" ? CancelReason::HostFault
                                         : CancelReason::Abort;
  return drive(run, [&](RunBase& r) { return r.cancel(why, detail, callId); });
}

std::string Engine::formatError(std::string_view errorJson) {
  try {
    return formatErrorLine(errorFromJson(errorJson));
  } catch (...) {
    return formatErrorLine(currentError());
  }
}

std::string Engine::operations() { return opTableJson(); }
std::string Engine::workflowLanguage() {
  try {
    return stepfn::languageJson();
  } catch (...) {  // a build without the dialect (api/step_functions.h)
    return validErrorJson(currentError());
  }
}

}  // namespace ptc
