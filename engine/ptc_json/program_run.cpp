#include "ptc_json/program_run.h"

#include "core/error.h"
#include "core/json.h"
#include "core/protocol.h"
#include "core/row_block.h"
#include "core/suggest.h"

namespace ptc {

namespace {

Value parseObject(std::string_view text, std::string_view what, const std::function<void()>& progress) {
  if (text.empty() || text == "{}") return Value::object({});
  Value v = parseJson(text, what, progress);
  if (!v.isObject())
    throw PtcError(ErrorType::Parse, ErrorCode::NotAnObject,
                   "The " + std::string(what) + " must be a JSON object, got " + typeName(v));
  return v;
}

}  // namespace

ProgramRun::ProgramRun(std::shared_ptr<const Program> program, const RunLimits& limits)
    : RunBase(limits),
      state_(core_),
      evaluator_(state_),
      program_(std::move(program)),
      singleTurn_(limits.singleTurn) {}

// A one-shot run that returned {"result": ..., "other": ...}: the other keys
// went to memory, which nothing reads after it (the memory contract, spec 5.11).
void ProgramRun::warnStored(const Members& stored) {
  std::vector<std::string> keys;
  for (const Member& m : stored) keys.push_back(m.key.str());
  core_.warnings.add(ErrorCode::ResultStored, "/program",
                     "Only 'result' is returned: the final object's other keys (" + listNames(keys) +
                         ") were stored in memory, which no later program of this run reads. To return them, put "
                         "them inside 'result': {\"result\": {...}}");
}

ProgramRun::~ProgramRun() {
  task_.reset();  // suspended frames hold bindings into state_
}

std::optional<Value> ProgramRun::start(std::string_view contextJson, std::string_view memoryJson) {
  auto checkDeadline = [this] { core_.checkDeadline(); };
  state_.context = parseObject(contextJson, "context", checkDeadline);
  if (!rowBlocks_.empty()) {
    readRowBlocks(rowBlocks_, columnar_, checkDeadline);
    state_.columnar = &columnar_;
    rowBlocks_ = {};
  }
  if (resident_) {
    // Read where it is, below the run's own keys (Evaluator::loadContext): the
    // run is charged for what it reads and builds, not for the size of its index.
    state_.resident = &resident_->context;
    state_.columns = resident_->columns.get();
  }
  state_.memory = parseObject(memoryJson, "memory", checkDeadline);
  core_.warnings.slots(program_->reads.size());
  for (const Warning& w : program_->warnings) core_.warnings.add(w);
  if (!program_->hasCall) return evaluator_.evalSync(*program_->root, Value::none());
  task_.emplace(evaluator_.evalAsync(*program_->root, Value::none()));
  return std::nullopt;
}

std::string ProgramRun::doneOk(const Value& result) {
  state_.context = Value();  // what the result does not hold is let go before it is written
  state_.resident = nullptr;
  state_.columnar = nullptr;
  columnar_ = ColumnarLists();
  state_.joins.clear();
  // The memory contract (spec 5.11) applies to the final value however it was built.
  Value returned = result;
  Members delta;
  if (result.isObject()) {
    const Value* r = result.find("result");
    for (MemberRef m : result.members())
      if (!r || m.key.str() != "result") delta.push_back(Member{m.key, m.value});
    if (r) returned = *r;
    if (r && singleTurn_ && !delta.empty()) warnStored(delta);
  }
  // Nothing stored (most runs): the memory is the one the run read, and an
  // empty one doubles as the empty delta, so nothing is built.
  if (delta.empty() && state_.memory.members().empty()) {
    std::string status =
        doneOkJson(returned, state_.memory, state_.memory, [this](std::string& out) { appendMetrics(out); });
    noteScalar(returned);
    return status;
  }
  // Stored values are members of the result object, so they nest at most
  // kMaxNesting - 1 levels: the memory object holding them (what the next
  // program reads) nests no deeper than the parser accepts. A program that
  // would store more fails when it builds that object, and stores nothing.
  ObjectBuilder memory;
  for (MemberRef m : state_.memory.members()) memory.put(m.key, m.value);
  for (const Member& d : delta) memory.put(d.key, d.value);
  return doneOkJson(returned, Value::object(std::move(delta)), memory.build(),
                    [this](std::string& out) { appendMetrics(out); });
}

void ProgramRun::finalWarnings() { fieldReadWarnings(*program_, core_.warnings); }

// A tool failure that ends the run says how the program could have gone on
// (what a try's catch sees keeps the tool's own message).
// A `return` unwinds as an execution error (RunState::returned): the run ends
// with its value, as if the program had given it.
std::string ProgramRun::doneError(const Error& error) {
  if (state_.returned && error.type == ErrorType::Execution) return doneOk(*state_.returned);
  if (error.code != ErrorCode::ToolFailed) return doneErrorJson(error, metricsJson());
  Error told = error;
  told.message +=
      ". To go on when a tool fails, wrap the call in a try: {\"op\": \"try\", \"expr\": {\"op\": \"call\", ...}, "
      "\"catch\": <the value to use instead>}";
  return doneErrorJson(told, metricsJson());
}

}  // namespace ptc
