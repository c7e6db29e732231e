#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "json.h"

namespace ptc::testing {

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<Case> loadCases(const std::string& dir) {
  std::vector<Case> cases;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    Value doc = parseJson(readFile(file.string()), file.filename().string());
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

namespace {

// One answer of a mock: {"returns": v}, {"throws": msg}, {"echo": true}.
std::string answer(Engine& engine, int run, const Value& mock, const Value& args) {
  if (mock.find("throws")) return engine.fail(run, mock.field("throws").str());
  if (mock.field("echo").truthy()) return engine.resume(run, toJson(args));
  return engine.resume(run, toJson(mock.field("returns")));
}

}  // namespace

Value driveWithMocks(Engine& engine, int run, Value status, const Value& mocks, Array& calls) {
  std::map<std::string, size_t> callsOf;  // for "sequence" mocks
  while (status.field("state").str() == "call") {
    std::string tool = status.field("tool").str();
    Value args = status.field("args");
    calls.push_back(Value::object({{Value::string("tool"), Value::string(tool)}, {Value::string("args"), args}}));
    Value mock = mocks.field(tool);
    if (const Value* seq = mock.find("sequence")) {
      size_t n = callsOf[tool]++;
      const Array& steps = seq->items();
      mock = steps.empty() ? Value() : steps[std::min(n, steps.size() - 1)];
    }
    status = parseJson(answer(engine, run, mock, args), "status");
  }
  return status;
}

void checkExpectation(const Value& status, const Value& expect, const Array& calls) {
  if (const Value* want = expect.find("toolCalls")) {
    EXPECT_TRUE(equals(Value::array(calls), *want))
        << "toolCalls: want " << toJson(*want) << " got " << toJson(Value::array(calls));
  }
  if (const Value* err = expect.find("error")) {
    ASSERT_FALSE(status.field("ok").truthy()) << "expected an error";
    const Value& got = status.field("error");
    EXPECT_EQ(got.field("type").str(), err->field("type").str());
    if (const Value* path = err->find("path")) {
      if (path->isNull()) EXPECT_EQ(got.find("path"), nullptr);
      else EXPECT_EQ(got.field("path").str(), path->str());
    }
    if (const Value* pos = err->find("position")) {
      EXPECT_TRUE(equals(got.field("position"), *pos));
    }
    if (const Value* msg = err->find("message")) {
      EXPECT_NE(got.field("message").str().find(msg->str()), std::string::npos) << "message should contain: " << msg->str();
    }
  } else {
    ASSERT_TRUE(status.field("ok").truthy()) << "expected success";
  }
  for (const char* key : {"result", "memoryDelta", "memory"}) {
    if (const Value* want = expect.find(key)) {
      EXPECT_TRUE(equals(status.field(key), *want)) << key << ": want " << toJson(*want) << " got " << toJson(status.field(key));
    }
  }
  if (const Value* want = expect.find("trace")) {
    const Array& got = status.field("trace").items();
    ASSERT_EQ(got.size(), want->items().size()) << "trace length; got " << toJson(status.field("trace"));
    for (size_t i = 0; i < got.size(); ++i)
      for (const Member& m : want->items()[i].members())
        EXPECT_TRUE(equals(got[i].field(m.key.str()), m.value))
            << "trace[" << i << "]." << m.key.str() << ": want " << toJson(m.value) << " got " << toJson(got[i].field(m.key.str()));
  }
}

}  // namespace ptc::testing
