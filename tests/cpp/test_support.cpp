#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/json.h"

namespace ptc::testing {

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

namespace {

bool isAlnum(char ch) { return std::isalnum(static_cast<unsigned char>(ch)); }

// Letters and digits kept, other runs as one "_", a minus sign as "minus"
// ("round -2.5" and "round 2.5" are two cases).
std::string sanitized(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    bool minus = ch == '-' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])) &&
                 (i == 0 || !isAlnum(text[i - 1]));
    if (minus) out += out.empty() || out.back() == '_' ? "minus_" : "_minus_";
    else if (isAlnum(ch)) out.push_back(ch);
    else if (!out.empty() && out.back() != '_') out.push_back('_');
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

}  // namespace

std::vector<int> caseLines(std::string_view text) {
  std::vector<int> lines;
  int line = 1;
  int depth = 0;
  int elementDepth = -1;  // the depth of the "cases" array's elements while inside it
  bool inString = false;
  size_t stringStart = 0;
  std::string_view lastTopLevelString;  // before a '[' at depth 1: its key
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') ++line;
    if (inString) {
      if (c == '\\') {
        ++i;  // an escaped character; JSON strings hold no raw newline
      } else if (c == '"') {
        inString = false;
        if (depth == 1) lastTopLevelString = text.substr(stringStart, i - stringStart);
      }
      continue;
    }
    switch (c) {
      case '"':
        inString = true;
        stringStart = i + 1;
        break;
      case '{':
      case '[':
        if (depth == elementDepth) lines.push_back(line);
        if (c == '[' && depth == 1 && lastTopLevelString == "cases") elementDepth = 2;
        ++depth;
        break;
      case '}':
      case ']':
        --depth;
        if (depth < elementDepth) elementDepth = -1;
        break;
      default: break;
    }
  }
  return lines;
}

std::vector<Case> loadCases(const std::string& dir) {
  std::vector<Case> cases;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::string text = readFile(file.string());
    Value doc = parseJson(text, file.filename().string());
    std::vector<int> lines = caseLines(text);
    const Array& items = doc.field("cases").items();
    std::string prefix = sanitized(file.filename().string()) + "__";
    std::map<std::string, int> seen;  // names that differ only in punctuation get "__2", "__3", ...
    for (size_t i = 0; i < items.size(); ++i) {
      const Value& c = items[i];
      std::string name = prefix + sanitized(c.field("name").str());
      if (int n = ++seen[name]; n > 1) name += "__" + std::to_string(n);
      cases.push_back(Case{file.stem().string() + "/" + c.field("name").str(), c, name,
                           file.lexically_relative(PTC_REPO_DIR).string(),
                           lines.size() == items.size() ? lines[i] : 0});
    }
  }
  return cases;
}

void PrintTo(const Case& c, std::ostream* out) {
  *out << c.file << ":" << c.line << " \"" << c.data.field("name").str() << "\"";
}

CaseTrace::CaseTrace(const Case& c)
    : trace_(c.file.c_str(), c.line, "conformance case \"" + c.data.field("name").str() + "\"") {}

namespace {

// One answer of a mock: {"returns": v}, {"throws": msg}, {"echo": true}, or
// what the package's host does for a JS tool: {"returnsNonJson": kind} (the
// result cannot become JSON), {"hangs": true} (still pending at the time
// limit), {"aborts": reason} (the caller's signal fires meanwhile).
std::string answer(Engine& engine, int run, int id, const Value& mock, const Value& args) {
  if (mock.find("throws")) return engine.fail(run, mock.field("throws").str(), id);
  if (mock.field("echo").truthy()) return engine.resume(run, toJson(args), id);
  if (const Value* kind = mock.find("returnsNonJson")) return engine.cancel(run, "fault", "a " + kind->str(), id);
  if (mock.field("hangs").truthy()) return engine.cancel(run, "timeout", "the tool had not answered", id);
  if (const Value* reason = mock.find("aborts")) return engine.cancel(run, "abort", reason->str(), id);
  return engine.resume(run, toJson(mock.field("returns")), id);
}

}  // namespace

RunStatus startStepFunctionRun(Engine& engine, std::string_view source, std::string_view options,
                               std::string_view input) {
  std::string prepared = engine.prepareWorkflow(source, options);
  Value status = parseJson(prepared, "status");
  if (status.field("state").str() != "prepared") return {0, prepared, {}};
  return engine.runPrepared(static_cast<int>(status.field("id").asInt()), input, "");
}

namespace {

// A call the mock host has started: the mock's answer is chosen as it starts
// (a "sequence" counts calls as they start, as the package's tools do).
struct Started {
  int id;
  Value args;
  Value mock;
};

Started start(const Value& call, const Value& mocks, std::map<std::string, size_t>& callsOf, Array& calls) {
  std::string tool = call.field("tool").str();
  Value args = call.field("args");
  calls.push_back(Value::object({{Value::string("tool"), Value::string(tool)}, {Value::string("args"), args}}));
  Value mock = mocks.field(tool);
  if (const Value* seq = mock.find("sequence")) {
    size_t n = callsOf[tool]++;
    const Array& steps = seq->items();
    mock = steps.empty() ? Value() : steps[std::min(n, steps.size() - 1)];
  }
  return Started{static_cast<int>(call.field("id").asInt()), std::move(args), std::move(mock)};
}

}  // namespace

// Answers as the package's host does (js/src/run/driver.ts, answerCalls) with
// tools that answer at once: every call a status issues starts at once, and
// the answers reach the engine in the order their calls started, so a call
// issued meanwhile is answered after those already out. A call that hangs is
// answered (timeout) only once nothing else is out: the other calls answer
// before the deadline passes. One that aborts aborts the run as it starts: the
// calls after it are not made.
Value driveWithMocks(Engine& engine, int run, Value status, const Value& mocks, Array& calls) {
  std::map<std::string, size_t> callsOf;  // for "sequence" mocks
  std::deque<Started> out;
  while (status.field("state").str() == "call") {
    for (const Value& c : status.field("calls").items()) {
      out.push_back(start(c, mocks, callsOf, calls));
      if (const Value* reason = out.back().mock.find("aborts"))
        return parseJson(engine.cancel(run, "abort", reason->str(), out.back().id), "status");
    }
    if (out.empty()) break;  // a run waiting with nothing to answer: a bug the test shows
    auto next = std::find_if(out.begin(), out.end(), [](const Started& s) { return !s.mock.field("hangs").truthy(); });
    if (next == out.end()) next = out.begin();  // only hanging calls are out: the deadline passes
    Started call = std::move(*next);
    out.erase(next);
    status = parseJson(answer(engine, run, call.id, call.mock, call.args), "status");
  }
  return status;
}

Members caseOptions(const Value& c) {
  Members members;
  for (MemberRef m : c.field("options").members()) members.push_back(Member{m.key, m.value});
  if (!c.field("options").find("maxConcurrency"))
    members.push_back(Member{Value::string("maxConcurrency"), Value::integer(1)});
  return members;
}

// expect.warnings: the status's warnings, in order, each with its code and
// path (exact) and a message containing the expected one.
void checkWarnings(const Value& got, const Value& want) {
  const size_t count = got.isArray() ? got.items().size() : 0;
  ASSERT_EQ(count, want.items().size()) << "warnings: want " << toJson(want) << " got " << toJson(got);
  for (size_t i = 0; i < count; ++i) {
    const Value& g = got.items()[i];
    const Value& w = want.items()[i];
    EXPECT_EQ(g.field("code").str(), w.field("code").str()) << "warnings[" << i << "]";
    EXPECT_EQ(g.field("path").str(), w.field("path").str()) << "warnings[" << i << "]";
    if (const Value* msg = w.find("message")) {
      EXPECT_NE(g.field("message").str().find(msg->str()), std::string::npos)
          << "warnings[" << i << "] message should contain: " << msg->str() << "; got " << g.field("message").str();
    }
  }
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
    if (const Value* code = err->find("code")) {
      EXPECT_EQ(got.field("code").str(), code->str());
    }
    if (const Value* path = err->find("path")) {
      if (path->isNull()) EXPECT_EQ(got.find("path"), nullptr);
      else EXPECT_EQ(got.field("path").str(), path->str());
    }
    if (const Value* pos = err->find("position")) {
      EXPECT_TRUE(equals(got.field("position"), *pos));
    }
    if (const Value* msg = err->find("message")) {
      EXPECT_NE(got.field("message").str().find(msg->str()), std::string::npos)
          << "message should contain: " << msg->str();
    }
  } else {
    ASSERT_TRUE(status.field("ok").truthy()) << "expected success";
  }
  for (const char* key : {"result", "memoryDelta", "memory"}) {
    if (const Value* want = expect.find(key)) {
      EXPECT_TRUE(equals(status.field(key), *want))
          << key << ": want " << toJson(*want) << " got " << toJson(status.field(key));
    }
  }
  if (const Value* want = expect.find("warnings")) checkWarnings(status.field("warnings"), *want);
  if (const Value* want = expect.find("trace")) {
    const Array& got = status.field("trace").items();
    ASSERT_EQ(got.size(), want->items().size()) << "trace length; got " << toJson(status.field("trace"));
    for (size_t i = 0; i < got.size(); ++i)
      for (MemberRef m : want->items()[i].members())
        EXPECT_TRUE(equals(got[i].field(m.key.str()), m.value))
            << "trace[" << i << "]." << m.key.str() << ": want " << toJson(m.value) << " got "
            << toJson(got[i].field(m.key.str()));
  }
}

}  // namespace ptc::testing
