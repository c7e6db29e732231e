// The step-function dialect in this build (step_functions.h): every function
// passes to engine/step_functions/.
#include "api/step_functions.h"

#include "step_functions/analysis.h"
#include "step_functions/run.h"
#include "step_functions/step_table.h"

namespace ptc::stepfn {

bool available() { return true; }
std::shared_ptr<const workflow::Workflow> compile(const std::vector<Value>& functions,
                                                  const workflow::CompileOptions& options) {
  return workflow::compileWorkflow(functions, options);
}
void checkEntryInput(const workflow::Workflow& workflow, const Value& input) {
  workflow::checkEntryInput(workflow, input);
}
std::string analyze(const workflow::Workflow& workflow) { return workflow::analyzeWorkflow(workflow); }
std::string languageJson() { return workflow::workflowTableJson(); }
std::unique_ptr<RunBase> newRun(std::shared_ptr<const workflow::Workflow> workflow, const RunLimits& limits) {
  return std::make_unique<workflow::WorkflowRun>(std::move(workflow), limits);
}

}  // namespace ptc::stepfn
