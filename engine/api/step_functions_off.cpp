// A build without the step-function dialect (step_functions.h): PTC-JSON only,
// the module a page needs before its first PTC-JSON run. A host that loads it
// sends step-function files to the module with both dialects (ptc.wasm), so
// reaching any of these is a bug in the host, and each says where the dialect is.
#include "api/step_functions.h"

#include "core/error.h"

namespace ptc::stepfn {

namespace {
[[noreturn]] void absent() {
  throw PtcError(ErrorType::Execution, ErrorCode::BadHostCall,
                 "This engine module has PTC-JSON only (ptc-json.wasm, createRuntime({ stepFunctions: false })): "
                 "step-function files need the module with both dialects, ptc.wasm (the default)");
}
}  // namespace

bool available() { return false; }
std::shared_ptr<const step_functions::File> compile(const std::vector<Value>&, const step_functions::CompileOptions&) {
  absent();
}
void checkEntryInput(const step_functions::File&, const Value&) { absent(); }
std::string analyze(const step_functions::File&) { absent(); }
std::string languageJson() { absent(); }
std::unique_ptr<RunBase> newRun(std::shared_ptr<const step_functions::File>, const RunLimits&) { absent(); }

}  // namespace ptc::stepfn
