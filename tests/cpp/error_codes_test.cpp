// Error codes (core/error.h): each has a snake_case name of its own, every error
// case of the conformance corpora gives one, and every code is reached by a case
// or, when no program can reach it, is listed with the test that covers it.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "api/engine.h"
#include "core/error.h"
#include "core/json.h"
#include "test_support.h"

namespace {

using ptc::ErrorCode;
using ptc::Value;

std::vector<std::string> codeNames() {
  std::vector<std::string> names;
  for (int c = 0; c < static_cast<int>(ErrorCode::Count_); ++c)
    names.push_back(ptc::errorCodeName(static_cast<ErrorCode>(c)));
  return names;
}

std::vector<ptc::testing::Case> allCases() {
  std::vector<ptc::testing::Case> cases = ptc::testing::loadCases(PTC_CONFORMANCE_DIR);
  for (auto& c : ptc::testing::loadCases(PTC_WORKFLOW_CONFORMANCE_DIR)) cases.push_back(std::move(c));
  return cases;
}

// Codes no conformance case can reach, and why (each is checked where it says).
const std::map<std::string, std::string> kNotFromACase = {
    {"bad_option", "the package checks options itself first: HostOnlyCodes below"},
    {"too_large", "a program text over 1 MiB: HostOnlyCodes below"},
    {"bad_host_call", "a host using a handle it does not hold: HostOnlyCodes below"},
    {"bad_row_block", "a malformed row block from the host: row_block_test.cpp"},
    {"internal", "a bug in the engine, never a program's doing"},
};

TEST(ErrorCodes, NamesAreSnakeCaseAndDistinct) {
  std::set<std::string> seen;
  for (const std::string& name : codeNames()) {
    EXPECT_TRUE(seen.insert(name).second) << name << " names two codes";
    EXPECT_FALSE(name.empty());
    for (char ch : name) EXPECT_TRUE((ch >= 'a' && ch <= 'z') || ch == '_') << name;
  }
}

TEST(ErrorCodes, EveryErrorCaseGivesAKnownCode) {
  std::vector<std::string> names = codeNames();
  for (const auto& c : allCases()) {
    const Value* error = c.data.field("expect").find("error");
    if (!error) continue;
    const Value* code = error->find("code");
    ASSERT_NE(code, nullptr) << c.file << ":" << c.line << " \"" << c.id << "\" expects an error without its code";
    EXPECT_NE(std::find(names.begin(), names.end(), code->str()), names.end())
        << c.file << ":" << c.line << ": unknown code " << code->str();
  }
}

TEST(ErrorCodes, EveryCodeIsReachedByACaseOrListedWhyNot) {
  std::set<std::string> reached;
  for (const auto& c : allCases())
    if (const Value* error = c.data.field("expect").find("error")) reached.insert(error->field("code").str());
  for (const std::string& name : codeNames()) {
    bool listed = kNotFromACase.count(name) > 0;
    EXPECT_TRUE(reached.count(name) || listed) << "no conformance case expects the code " << name;
    EXPECT_FALSE(reached.count(name) && listed) << name << " has a case now: drop it from kNotFromACase";
  }
}

std::string codeOf(const std::string& statusText) {
  return ptc::parseJson(statusText, "status").field("error").field("code").str();
}

TEST(ErrorCodes, HostOnlyCodes) {
  ptc::Engine engine;
  const std::string program = R"({"program":{"op":"literal","value":1}})";
  EXPECT_EQ(codeOf(engine.validate(program, R"({"maxDepth":0})")), "bad_option");
  std::string huge = R"({"program":{"op":"literal","value":")" + std::string(ptc::kMaxProgramBytes, 'x') + "\"}}";
  EXPECT_EQ(codeOf(engine.validate(huge, "{}")), "too_large");
  EXPECT_EQ(codeOf(engine.resume(999, "1")), "bad_host_call");
}

}  // namespace
