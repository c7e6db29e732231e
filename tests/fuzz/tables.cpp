// Prints the engine's op table and step table as JSON (Engine::operations,
// Engine::workflowLanguage), one per line: what tests/fuzz/gen-inputs.mjs
// writes the fuzz targets' dictionaries from.
#include <cstdio>

#include "api/engine.h"

int main() {
  ptc::Engine engine;
  std::printf("%s\n%s\n", engine.operations().c_str(), engine.workflowLanguage().c_str());
  return 0;
}
