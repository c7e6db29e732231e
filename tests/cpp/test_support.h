// Shared by the conformance suites: loading case files and answering tool
// calls from a case's mock tools, through the engine's JSON-text protocol.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "api/engine.h"
#include "core/deadline.h"
#include "core/value.h"

namespace ptc::testing {

// A clock for the engine's deadlines that moves only when told (advance), and
// by `step` at every reading: a time limit then counts the engine's work
// (every reading is a check of the deadline, one per 1024 ticks), never the
// machine's speed, so a test's outcome is the same on a loaded machine.
class FakeClock {
 public:
  explicit FakeClock(std::chrono::milliseconds step = std::chrono::milliseconds(0)) : step_(step) {
    active_ = this;
    Clock::fake_ = &read;
  }
  ~FakeClock() {
    Clock::fake_ = nullptr;
    active_ = nullptr;
  }
  FakeClock(const FakeClock&) = delete;
  FakeClock& operator=(const FakeClock&) = delete;
  void advance(std::chrono::milliseconds by) { now_ += by; }
  int64_t readings() const { return readings_; }

 private:
  static Clock::time_point read() {
    Clock::time_point t = active_->now_;
    active_->now_ += active_->step_;
    ++active_->readings_;
    return t;
  }
  static inline FakeClock* active_ = nullptr;
  Clock::time_point now_{};
  std::chrono::milliseconds step_;
  int64_t readings_ = 0;
};

// One conformance case. Its test name stays the same when cases are added
// elsewhere: "<file>_json__<case name>", non-alphanumerics as "_" (and "__2", "__3"
// after names that only differ in punctuation), e.g. aggregation_json__sum_of_an_empty_list_is_0.
struct Case {
  std::string id;  // file/name
  Value data;
  std::string testName;
  std::string file;  // relative to the repository, e.g. tests/conformance/aggregation.json
  int line = 0;      // of the case's opening brace; 0 when not found
};

// How GoogleTest shows a case (in --gtest_list_tests and failures): file:line "name".
void PrintTo(const Case& c, std::ostream* out);

std::string readFile(const std::string& path);
std::vector<Case> loadCases(const std::string& dir);
// The 1-based lines where the elements of the top-level "cases" array start.
std::vector<int> caseLines(std::string_view text);

// Shows the case's file:line and name with every failure inside the scope.
class CaseTrace {
 public:
  explicit CaseTrace(const Case& c);

 private:
  ::testing::ScopedTrace trace_;
};

// A case's "options", with "maxConcurrency": 1 unless it gives one: the corpus
// runs its calls one at a time, in both runners (tests/js/helpers.cjs,
// corpusOptions); a case about concurrency sets it. The engine's default is
// the limits table's (8), under which some cases' expectations (a trace's
// order, the calls made before the run ends) would not hold.
Members caseOptions(const Value& c);

// Prepares a step-function file and runs it on `input` (JSON text), as the
// package does: the run's first status, or the error that preparing gave.
RunStatus startStepFunctionRun(Engine& engine, std::string_view source, std::string_view options,
                               std::string_view input);

// Drives a started run to its final status, answering each tool call from the
// case's "tools" mocks and recording the calls as {"tool", "args"}.
Value driveWithMocks(Engine& engine, int run, Value status, const Value& mocks, Array& calls);

// Checks a final status against a case's "expect"; extra checks for dialect keys.
void checkExpectation(const Value& status, const Value& expect, const Array& calls);

}  // namespace ptc::testing
