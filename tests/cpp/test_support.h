// Shared by the conformance suites: loading case files and answering tool
// calls from a case's mock tools, through the engine's JSON-text protocol.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "host/engine.h"
#include "core/value.h"

namespace ptc::testing {

struct Case {
  std::string id;  // file/name
  Value data;
};

std::string readFile(const std::string& path);
std::vector<Case> loadCases(const std::string& dir);
std::string testName(const Case& c, size_t index);

// Drives a started run to its final status, answering each tool call from the
// case's "tools" mocks and recording the calls as {"tool", "args"}.
Value driveWithMocks(Engine& engine, int run, Value status, const Value& mocks, Array& calls);

// Checks a final status against a case's "expect"; extra checks for dialect keys.
void checkExpectation(const Value& status, const Value& expect, const Array& calls);

}  // namespace ptc::testing
