// The step-function dialect in this build (step_functions.h): every function
// passes to engine/step_functions/.
#include "api/step_functions.h"

#include "step_functions/analysis.h"
#include "step_functions/run.h"
#include "step_functions/step_table.h"

namespace ptc::stepfn {

bool available() { return true; }
std::shared_ptr<const step_functions::File> compile(const std::vector<Value>& functions,
                                                    const step_functions::CompileOptions& options) {
  return step_functions::compileFile(functions, options);
}
void checkEntryInput(const step_functions::File& file, const Value& input) {
  step_functions::checkEntryInput(file, input);
}
std::string analyze(const step_functions::File& file) { return step_functions::analyzeFile(file); }
std::string languageJson() { return step_functions::stepTableJson(); }
std::unique_ptr<RunBase> newRun(std::shared_ptr<const step_functions::File> file, const RunLimits& limits) {
  return std::make_unique<step_functions::FileRun>(std::move(file), limits);
}

}  // namespace ptc::stepfn
