// The run limits the engine honours: each one's default and its largest value,
// in one table both sides read. The engine takes its defaults from it
// (core/run.h) and refuses a value past the maximum (api/options.cpp) rather
// than capping it; the package's checks, defaults and README maxima come from
// js/src/types/engine-tables.ts, which `node scripts/gen-tables.cjs` writes from
// this table (tests/source/limits-table.test.cjs fails when the two differ).
#pragma once

#include <cstdint>

namespace ptc {

// X(name, default, maximum, whole): one row per limit; `whole` limits count
// things and take integers. Values are integer literals or products of them
// (the generator reads them).
//   timeoutMs: the longest JavaScript timer (longer ones fire at once).
//   maxHeapBytes: the largest integer a JavaScript number holds exactly.
//   maxDepth: the evaluators recurse once per level; a program 500 deep runs
//     (tests/js/limits-table.test.cjs), deeper ones would risk the wasm stack.
#define PTC_LIMITS(X)                                        \
  X(timeoutMs, 1000, 2147483647, false)                      \
  X(maxHeapBytes, 10 * 1024 * 1024, 9007199254740991, false) \
  X(maxDepth, 50, 500, false)                                \
  X(maxToolCalls, 1000, 1024 * 1024 * 1024, true)            \
  X(maxConcurrency, 8, 1024, true)

// limits::maxDepthDefault, limits::maxDepthMax, ...
namespace limits {
#define PTC_LIMIT_CONSTANTS(name, byDefault, max, whole) \
  inline constexpr int64_t name##Default = byDefault;    \
  inline constexpr int64_t name##Max = max;
PTC_LIMITS(PTC_LIMIT_CONSTANTS)
#undef PTC_LIMIT_CONSTANTS
}  // namespace limits

}  // namespace ptc
