// A call step's "compensate" (issue 36): registered when the call succeeds,
// with its args evaluated then (they may read the step's let and the loop's
// item, gone by the time it runs); when the function later fails, its
// registered compensations run newest first, each awaited, a failing one
// recorded in the trace and ignored, as on-error's compensations are (§7).
#include "core/error.h"
#include "step_functions/eval.h"
#include "step_functions/functions.h"
#include "step_functions/run.h"

namespace ptc::step_functions {

void FileRun::registerCompensations(Frame& frame, const Step& step) {
  for (const Call& c : step.compensate)
    frame.undo.push_back(Registered{&c, c.hasArgs ? evaluate(frame, c.args) : Value::object({})});
}

// A function fails when a failure leaves it unhandled, or when a result
// function returns {"error": ...}: both undo what its steps did.
bool FileRun::fails(const Function& fn, const Flow& flow) {
  if (flow.kind == Flow::Kind::Fail) return true;
  return flow.kind == Flow::Kind::Return && fn.output.isResult() && flow.value.isObject() &&
         flow.value.find("error") != nullptr;
}

Task<bool> FileRun::runRegistered(Frame& frame) {
  std::vector<Registered> undo;
  undo.swap(frame.undo);
  for (size_t i = undo.size(); i-- > 0;) {
    const Call& c = *undo[i].call;
    countStep(c.path);
    size_t entry = beginTrace(frame, c.path, i, "compensate", &c.target);
    trace_[entry].args = undo[i].args;
    trace_[entry].hasArgs = true;
    CallResult r;
    try {
      r = co_await runCall(frame, c, undo[i].args);
    } catch (const PtcError& e) {
      faultTrace(entry, e.error);
      throw;
    }
    endCompensationTrace(entry, r);  // a failure is recorded, then ignored: the rest still run
  }
  co_return true;
}

}  // namespace ptc::step_functions
