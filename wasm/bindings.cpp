// Embind bindings: strings and run handles in, strings out. Large texts
// (context data, tool results) arrive as (pointer, length) into a buffer the JS
// side filled with TextEncoder, which is far faster than Embind's std::string
// marshalling for megabytes. No language logic lives here.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "api/engine.h"

namespace {

ptc::Engine& engine() {
  static ptc::Engine instance;
  return instance;
}

std::string_view bytes(uintptr_t ptr, size_t len) { return {reinterpret_cast<const char*>(ptr), len}; }

// Program text and step-function sources arrive as bytes too: the engine
// refuses one over its size limit, and a huge one should cost no more than a
// copy to be refused.
std::string validate(uintptr_t ptr, size_t len, std::string options) {
  return engine().validate(bytes(ptr, len), options);
}
std::string prepare(uintptr_t ptr, size_t len, std::string options) {
  return engine().prepare(bytes(ptr, len), options);
}
// The status of the last ptcRunPrepared call, kept until the next one (or
// ptcReleaseStatus): the JS side reads it from statusSlot, the run's handle
// beside its text (0: the run is done) and, when the status says no more than
// a scalar result (ptc::ScalarDone), that result and the metrics, so that it
// need not decode and parse the text (the engine then writes none: its length
// is 0). Its layout is js/src/engine/engine.ts's.
ptc::RunStatus lastStatus;
struct alignas(8) StatusSlot {
  uint32_t text;    // where the status text is
  uint32_t length;  // its bytes
  uint32_t run;
  uint32_t scalar;  // ptc::ScalarDone::Kind; 0: read the text
  double number;    // the result, when scalar says it is a number
  double memoryBytes;
  double toolCalls;
} statusSlot;
// A resident context's text crosses a piece at a time: `read(buffer, capacity,
// restart)` is a JS function that writes the next UTF-8 bytes of the text into
// wasm memory at `buffer` (at most `capacity`; from the first byte again when
// `restart`) and returns how many, 0 at the end. The engine then never holds
// the whole text, whose copy would stay in the wasm memory's high-water mark.
using TextReader = emscripten::val;
class JsTextSource final : public ptc::TextSource {
 public:
  explicit JsTextSource(TextReader read) : read_(std::move(read)) {}
  size_t read(char* buffer, size_t capacity) override {
    const bool restart = restart_;
    restart_ = false;
    return read_(reinterpret_cast<uintptr_t>(buffer), capacity, restart).as<size_t>();
  }
  void rewind() override { restart_ = true; }

 private:
  TextReader read_;
  bool restart_ = false;
};
// Limits arrive as doubles: JS numbers, exact up to 2^53.
std::string loadResident(TextReader read, double maxBytes, double timeoutMs) {
  JsTextSource source(std::move(read));
  return engine().loadResident(source, static_cast<uint64_t>(maxBytes), static_cast<int64_t>(timeoutMs));
}
void releaseResident(int id) { engine().releaseResident(id); }
double residentBytes() { return static_cast<double>(engine().residentBytes()); }
void release(int prepared) { engine().release(prepared); }
std::string prepareWorkflow(uintptr_t ptr, size_t len, std::string options) {
  return engine().prepareWorkflow(bytes(ptr, len), options);
}
std::string validateWorkflow(uintptr_t ptr, size_t len, std::string options) {
  return engine().validateWorkflow(bytes(ptr, len), options);
}
std::string analyze(uintptr_t ptr, size_t len, std::string options) {
  return engine().analyze(bytes(ptr, len), options);
}
std::string analyzeWorkflow(uintptr_t ptr, size_t len, std::string options) {
  return engine().analyzeWorkflow(bytes(ptr, len), options);
}
// Every binding takes its arguments in the order of the Engine method it calls.
std::string resume(int run, uintptr_t resultPtr, size_t resultLen, int call) {
  return engine().resume(run, bytes(resultPtr, resultLen), call);
}
std::string fail(int run, std::string message, int call) { return engine().fail(run, message, call); }
std::string cancel(int run, std::string reason, std::string detail, int call) {
  return engine().cancel(run, reason, detail, call);
}
std::string formatError(std::string error) { return engine().formatError(error); }
std::string operations() { return engine().operations(); }
std::string workflowLanguage() { return engine().workflowLanguage(); }
size_t liveRuns() { return engine().liveRuns(); }
// Traps on purpose, as an engine bug would: lets the package's tests prove that
// a trapped instance is discarded and replaced.
void debugTrap() { __builtin_trap(); }

}  // namespace

// The call made on every run of a prepared program (or step-function file) is a plain wasm export, not
// an Embind function: Embind's generic invoker (no eval, DYNAMIC_EXECUTION=0)
// and its std::string result (copied into a fresh buffer, then decoded) cost
// about a microsecond per call, a tenth of a tiny run. The context, the memory
// and the row blocks arrive in one buffer, one after another; the status stays
// in wasm memory, where statusSlot says, for the JS side to decode.
extern "C" {
EMSCRIPTEN_KEEPALIVE uintptr_t ptcStatusSlot() { return reinterpret_cast<uintptr_t>(&statusSlot); }
EMSCRIPTEN_KEEPALIVE void ptcRunPrepared(int prepared, uintptr_t ptr, size_t contextLen, size_t memoryLen,
                                         double spentMs, size_t rowsLen, int resident) {
  lastStatus = engine().runPrepared(prepared, bytes(ptr, contextLen), bytes(ptr + contextLen, memoryLen), spentMs,
                                    bytes(ptr + contextLen + memoryLen, rowsLen), resident, /*scalarText=*/false);
  const ptc::ScalarDone& scalar = lastStatus.scalar;
  statusSlot = {static_cast<uint32_t>(reinterpret_cast<uintptr_t>(lastStatus.text.data())),
                static_cast<uint32_t>(lastStatus.text.size()),
                static_cast<uint32_t>(lastStatus.run),
                scalar.kind,
                scalar.number,
                static_cast<double>(scalar.memoryBytes),
                static_cast<double>(scalar.toolCalls)};
}
// A big status is let go once read, rather than held until the next run.
EMSCRIPTEN_KEEPALIVE void ptcReleaseStatus() { std::string().swap(lastStatus.text); }
}

EMSCRIPTEN_BINDINGS(ptc_engine) {
  emscripten::function("validate", &validate);
  emscripten::function("prepare", &prepare);
  emscripten::function("release", &release);
  emscripten::function("loadResident", &loadResident);
  emscripten::function("releaseResident", &releaseResident);
  emscripten::function("residentBytes", &residentBytes);
  emscripten::function("prepareWorkflow", &prepareWorkflow);
  emscripten::function("validateWorkflow", &validateWorkflow);
  emscripten::function("analyze", &analyze);
  emscripten::function("analyzeWorkflow", &analyzeWorkflow);
  emscripten::function("resume", &resume);
  emscripten::function("fail", &fail);
  emscripten::function("cancel", &cancel);
  emscripten::function("formatError", &formatError);
  emscripten::function("operations", &operations);
  emscripten::function("workflowLanguage", &workflowLanguage);
  emscripten::function("liveRuns", &liveRuns);
  emscripten::function("debugTrap", &debugTrap);
}
