// A run of a PTC-JSON program: its context and memory, the evaluator, and the
// memory contract applied to the final value.
#pragma once

#include <memory>

#include "core/resident.h"
#include "core/run.h"
#include "ptc_json/evaluator.h"
#include "ptc_json/program.h"

namespace ptc {

class ProgramRun final : public RunBase {
 public:
  ProgramRun(std::shared_ptr<const Program> program, const RunLimits& limits);
  ~ProgramRun() override;
  // Lists the package sent as binary row blocks (row_block.h), added to the
  // context when the run begins; the view must stay valid until then.
  void setRowBlocks(std::string_view blocks) { rowBlocks_ = blocks; }
  // A resident context (core/resident.h) whose keys the run loads where its
  // own context has none of that name; the run keeps it alive until it ends.
  void setResident(std::shared_ptr<const Resident> resident) { resident_ = std::move(resident); }

 private:
  std::optional<Value> start(std::string_view contextJson, std::string_view memoryJson) override;
  std::string doneOk(const Value& result) override;
  std::string doneError(const Error& error) override;

  // Before state_: destroyed after the run's values, some of which share its blocks.
  std::shared_ptr<const Resident> resident_;
  ColumnarLists columnar_;  // context keys that crossed as columns (core/row_block.h)
  RunState state_;
  Evaluator evaluator_;
  std::shared_ptr<const Program> program_;
  std::string_view rowBlocks_;
};

}  // namespace ptc
