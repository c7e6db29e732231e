// Runs every case of tests/conformance/*.json against the native engine, through
// the same JSON-text protocol the wasm bindings use (start, begin, resume/fail).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine.h"
#include "json.h"

namespace {

using ptc::Value;

struct Case {
  std::string id;  // file/name
  Value data;
};

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<Case> loadCases() {
  std::vector<Case> cases;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(PTC_CONFORMANCE_DIR))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    Value doc = ptc::parseJson(readFile(file), file.filename().string());
    for (const Value& c : doc.field("cases").items())
      cases.push_back(Case{file.stem().string() + "/" + c.field("name").str(), c});
  }
  return cases;
}

std::string testName(const Case& c, size_t index) {
  std::string out;
  for (char ch : c.id) out.push_back(std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_');
  return out + "_" + std::to_string(index);
}

std::string optionsFor(const Value& c) {
  ptc::Members members;
  for (const ptc::Member& m : c.field("options").members()) members.push_back(m);
  if (!c.field("validateOnly").truthy()) {
    ptc::Array names;
    for (const ptc::Member& m : c.field("tools").members()) names.push_back(m.key);
    members.push_back(ptc::Member{Value::string("tools"), Value::array(std::move(names))});
  }
  return ptc::toJson(Value::object(std::move(members)));
}

std::string textOr(const Value& v, const char* fallback) { return v.isNull() ? fallback : ptc::toJson(v); }

// Runs a case to its final status, answering tool calls from the case's mocks.
Value runCase(ptc::Engine& engine, const Value& c, ptc::Array& calls) {
  std::string program = c.find("source") ? c.field("source").str() : ptc::toJson(c.field("program"));
  if (c.field("validateOnly").truthy()) return ptc::parseJson(engine.validate(program, optionsFor(c)), "status");
  Value status = ptc::parseJson(engine.start(program, optionsFor(c)), "status");
  if (status.field("state").str() != "ready") return status;
  int run = static_cast<int>(status.field("run").asInt());
  status = ptc::parseJson(engine.begin(run, textOr(c.field("context"), "{}"), textOr(c.field("memory"), "{}")),
                          "status");
  while (status.field("state").str() == "call") {
    std::string tool = status.field("tool").str();
    Value args = status.field("args");
    calls.push_back(Value::object({{Value::string("tool"), Value::string(tool)}, {Value::string("args"), args}}));
    Value mock = c.field("tools").field(tool);
    std::string next;
    if (mock.find("throws")) next = engine.fail(run, mock.field("throws").str());
    else if (mock.field("echo").truthy()) next = engine.resume(run, ptc::toJson(args));
    else next = engine.resume(run, ptc::toJson(mock.field("returns")));
    status = ptc::parseJson(next, "status");
  }
  return status;
}

class Conformance : public ::testing::TestWithParam<Case> {};

TEST_P(Conformance, Case) {
  const Value& c = GetParam().data;
  ptc::Engine engine;
  ptc::Array calls;
  Value status = runCase(engine, c, calls);
  const Value& expect = c.field("expect");
  SCOPED_TRACE("status: " + ptc::toJson(status));
  if (const Value* want = expect.find("toolCalls"))
    EXPECT_TRUE(ptc::equals(Value::array(calls), *want))
        << "toolCalls: want " << ptc::toJson(*want) << " got " << ptc::toJson(Value::array(calls));

  if (const Value* err = expect.find("error")) {
    ASSERT_FALSE(status.field("ok").truthy()) << "expected an error";
    const Value& got = status.field("error");
    EXPECT_EQ(got.field("type").str(), err->field("type").str());
    if (const Value* path = err->find("path")) {
      if (path->isNull()) EXPECT_EQ(got.find("path"), nullptr);
      else EXPECT_EQ(got.field("path").str(), path->str());
    }
    if (const Value* pos = err->find("position")) EXPECT_TRUE(ptc::equals(got.field("position"), *pos));
    if (const Value* msg = err->find("message"))
      EXPECT_NE(got.field("message").str().find(msg->str()), std::string::npos)
          << "message should contain: " << msg->str();
    return;
  }
  ASSERT_TRUE(status.field("ok").truthy()) << "expected success";
  for (const char* key : {"result", "memoryDelta", "memory"})
    if (const Value* want = expect.find(key))
      EXPECT_TRUE(ptc::equals(status.field(key), *want))
          << key << ": want " << ptc::toJson(*want) << " got " << ptc::toJson(status.field(key));
}

std::vector<Case> allCases() {
  static std::vector<Case> cases = loadCases();
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, Conformance, ::testing::ValuesIn(allCases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return testName(info.param, info.index); });

TEST(ConformanceFiles, ThereAreCases) { EXPECT_GT(allCases().size(), 100u); }

}  // namespace
