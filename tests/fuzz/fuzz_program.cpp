// libFuzzer target: a PTC-JSON program run the way the package runs it
// (prepare, runPrepared, tool calls answered), and analysed. The input's parts
// (fuzz_support.h, separated by a line "---"):
//   program text / context (JSON, "{}" when empty) / memory (likewise) / tool answers...
// Every run must end with a status within its limits (checkEnd); a crash, a
// sanitizer report or a limit not held is a finding.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ptc::fuzz;
  const std::vector<std::string_view> parts = splitParts({reinterpret_cast<const char*>(data), size});
  const std::string_view program = parts[0];
  const std::string options = limitsJson();
  ptc::Engine engine;
  engine.analyze(program, options);
  const auto started = Clock::now();
  std::string status = engine.prepare(program, options);
  ptc::Value prepared = parseStatus(status);
  if (prepared.field("state").str() != "prepared") return 0;  // refused: a done status with the error
  const int id = static_cast<int>(prepared.field("id").asInt());
  const ptc::RunStatus begun = engine.runPrepared(id, partOr(parts, 1, "{}"), partOr(parts, 2, "{}"));
  const std::vector<std::string_view> answers(parts.begin() + std::min<size_t>(3, parts.size()), parts.end());
  status = driveRun(engine, begun, answers);
  checkEnd(status, started);
  if (engine.liveRuns() != 0) finding("a finished run is still live", status);
  return 0;
}
