// Syntax errors in any JSON the engine reads (a program, context given as text,
// a step-function file) name the object or list at fault, where it opened and
// its JSON Pointer. The language-level cases are in
// tests/conformance/json-syntax.json and tests/conformance-workflows/json-syntax.json;
// these cover the other texts and the scan's edges.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"
#include "core/json.h"
#include "core/protocol.h"

namespace {

ptc::Error parseError(const std::string& text, const std::string& what) {
  try {
    ptc::parseJson(text, what);
  } catch (const ptc::PtcError& e) {
    return e.error;
  }
  ADD_FAILURE() << "no parse error for " << text;
  return {};
}

// Found by fuzzing (tests/fuzz/regressions/workflow/ill-formed-utf8-in-a-syntax-error): nlohmann's
// reason quotes the bytes it read last, and a byte that is not UTF-8 made the
// status (JSON text) not JSON. Such a byte shows as \xNN; well-formed text stays.
TEST(JsonSyntaxErrors, IllFormedUtf8InTheTextShowsAsEscapedBytes) {
  ptc::Error e = parseError("{\"o\x89\xff\": 1}", "step-function file");
  EXPECT_NE(e.message.find("last read: '\"o\\x89'"), std::string::npos) << e.message;
  ptc::Value status = ptc::parseJson(ptc::errorJson(e), "status");  // throws if not well-formed
  EXPECT_EQ(status.field("message").str(), e.message);
  e = parseError("{\"caf\u00e9\": tru}", "context");
  EXPECT_NE(e.message.find("\u00e9"), std::string::npos) << e.message;  // a well-formed character is kept
}

TEST(JsonSyntaxErrors, ContextTextNamesTheUnclosedListAndItsPointer) {
  ptc::Error e = parseError(R"({"orders": [{"id": 1}, {"id": 2})", "context");
  EXPECT_EQ(e.type, ptc::ErrorType::Parse);
  EXPECT_EQ(e.position, 32);
  EXPECT_EQ(e.message,
            "Invalid JSON in context at byte 32: the list opened at byte 11 (/orders) is not closed, nor is the one "
            "around it: add \"]}\" at the end to close them all");
}

TEST(JsonSyntaxErrors, ContextTextNamesAMissingComma) {
  ptc::Error e = parseError("{\"orders\": [{\"id\": 1}\n  {\"id\": 2}]}", "context");
  EXPECT_EQ(e.position, 24);
  EXPECT_NE(e.message.find("expected ',' or ']' after item 0 of the list opened at byte 11 (/orders)"),
            std::string::npos)
      << e.message;
}

TEST(JsonSyntaxErrors, DeepUnclosedLetChainNamesTheInnermostUnclosedObject) {
  // The shape the issue reported: a 12-deep let chain missing closing braces.
  std::string text = R"({"program": )";
  std::vector<size_t> starts;  // of each let; let i is at /program followed by i times /in
  for (int i = 0; i < 12; ++i) {
    starts.push_back(text.size());
    text += R"({"op": "let", "name": "v)" + std::to_string(i) + R"(", "value": 1, "in": )";
  }
  text += R"({"op": "var", "name": "v0"})";
  auto pointer = [](int depth) {
    std::string p = "/program";
    for (int i = 0; i < depth; ++i) p += "/in";
    return p;
  };
  ptc::Error e = parseError(text, "program");
  EXPECT_EQ(e.position, static_cast<long long>(text.size()));
  EXPECT_EQ(e.message, "Invalid JSON in program at byte " + std::to_string(text.size()) +
                           ": the object opened at byte " + std::to_string(starts[11]) + " (" + pointer(11) +
                           ") is not closed, nor are the 12 around it: add \"}}}}}}}}}}}}}\" at the end to close "
                           "them all");
  // With 4 of the 13 missing braces written, the innermost unclosed one is let 7.
  e = parseError(text + "}}}}", "program");
  EXPECT_NE(e.message.find("the object opened at byte " + std::to_string(starts[7]) + " (" + pointer(7) +
                           ") is not closed, nor are the 8 around it"),
            std::string::npos)
      << e.message;
}

TEST(JsonSyntaxErrors, KeysWithEscapesAreDecodedAndEscapedInPointers) {
  ptc::Error e = parseError(R"({"a\"b": {"x/y~": [)", "context");
  EXPECT_NE(e.message.find("the list opened at byte 18 (/a\"b/x~1y~0) is not closed"), std::string::npos) << e.message;
}

TEST(JsonSyntaxErrors, OtherErrorsKeepTheParsersReasonAndNameTheirContainer) {
  ptc::Error e = parseError(R"({"rows": [1, 2, "a)"
                            "\x01"
                            R"("]})",
                            "context");
  EXPECT_NE(e.message.find("invalid string"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("(in the list at /rows, opened at byte 9)"), std::string::npos) << e.message;
  e = parseError("  nope", "context");
  EXPECT_EQ(e.position, 2);
  EXPECT_EQ(e.message.find("(in the"), std::string::npos) << e.message;
}

TEST(JsonSyntaxErrors, StepFunctionFilesCountBytesOfTheWholeFile) {
  std::string first = R"({"function": "a", "output": "nil", "steps": [{"return": null}]})";
  try {
    ptc::parseJsonSequence(first + "\n" + R"({"function": "b", "steps": [{"return": null}})", "step-function file");
    FAIL() << "expected a parse error";
  } catch (const ptc::PtcError& e) {
    EXPECT_EQ(e.error.position, static_cast<long long>(first.size() + 45));
    EXPECT_NE(e.error.message.find("'}' cannot close the list opened at byte " + std::to_string(first.size() + 28) +
                                   " (/steps): close it with ']'"),
              std::string::npos)
        << e.error.message;
  }
}

}  // namespace
