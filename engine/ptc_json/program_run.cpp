#include "ptc_json/program_run.h"

#include <algorithm>

#include "core/error.h"
#include "core/json.h"
#include "core/protocol.h"
#include "core/row_block.h"

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

// The resident context's keys the run's own context does not have (nor sent
// as columns): shared, not copied (a resident list is one reference more).
void addResident(Members& members, const ColumnarLists& columnar, const Value& resident) {
  size_t own = members.size();
  for (const Member& r : resident.members()) {
    bool shadowed = std::any_of(members.begin(), members.begin() + static_cast<std::ptrdiff_t>(own),
                                [&](const Member& m) { return m.key.str() == r.key.str(); });
    if (!shadowed && !columnar.find(r.key.str())) members.push_back(r);
  }
}

}  // namespace

ProgramRun::ProgramRun(std::shared_ptr<const Program> program, const RunLimits& limits)
    : RunBase(limits), state_(core_), evaluator_(state_), program_(std::move(program)) {}

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
    MemberSpan known = state_.context.members();
    Members members(known.begin(), known.end());
    addResident(members, columnar_, resident_->context);
    state_.columns = resident_->columns.get();
    state_.context = Value::object(std::move(members));
  }
  state_.memory = parseObject(memoryJson, "memory", checkDeadline);
  if (!program_->hasCall) return evaluator_.evalSync(*program_->root, Value::none());
  task_.emplace(evaluator_.evalAsync(*program_->root, Value::none()));
  return std::nullopt;
}

std::string ProgramRun::doneOk(const Value& result) {
  state_.context = Value();  // what the result does not hold is let go before it is written
  state_.columnar = nullptr;
  columnar_ = ColumnarLists();
  state_.joins.clear();
  // The memory contract (spec 5.11) applies to the final value however it was built.
  Value returned = result;
  Members delta;
  if (result.isObject()) {
    const Value* r = result.find("result");
    for (const Member& m : result.members())
      if (!r || m.key.str() != "result") delta.push_back(m);
    if (r) returned = *r;
  }
  // Stored values are members of the result object, so they nest at most
  // kMaxNesting - 1 levels: the memory object holding them (what the next
  // program reads) nests no deeper than the parser accepts. A program that
  // would store more fails when it builds that object, and stores nothing.
  ObjectBuilder memory;
  for (const Member& m : state_.memory.members()) memory.put(m.key, m.value);
  for (const Member& d : delta) memory.put(d.key, d.value);
  return doneOkJson(returned, Value::object(std::move(delta)), memory.build(), [this] { return metricsJson(); });
}

std::string ProgramRun::doneError(const Error& error) { return doneErrorJson(error, metricsJson()); }

}  // namespace ptc
