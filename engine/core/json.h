// JSON text <-> Value. Parsing streams nlohmann/json's SAX events straight into
// Values (no intermediate DOM), interning object keys so a million rows share
// their key strings. This is the only translation unit that includes nlohmann.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/value.h"

namespace ptc {

constexpr int kMaxJsonNesting = kMaxNesting;  // JSON deeper than values may nest is refused

// Parses one JSON document. Throws PtcError(parse_error) with the byte offset of
// the first problem. `what` names the text in messages ("program", "context", ...).
// `progress`, when given, is called every few thousand values (a run checks its
// deadline there, so loading a huge input cannot overrun the time limit).
Value parseJson(std::string_view text, std::string_view what, const std::function<void()>& progress = {});
// The same through nlohmann/json alone (parseJson tries a fast path first and
// falls back to this); the differential test holds the two together.
Value parseJsonReference(std::string_view text, std::string_view what, const std::function<void()>& progress = {});

// Parses JSON values written one after another, separated by optional
// whitespace (the step-function file format). Positions in errors are offsets
// into the whole text.
std::vector<Value> parseJsonSequence(std::string_view text, std::string_view what);

// Compact JSON text (no spaces). Integers print without a fraction; floats print
// as the shortest text that reads back as the same double.
std::string toJson(const Value& v);
void appendJson(std::string& out, const Value& v);
void appendJsonString(std::string& out, std::string_view s);
// Shortest round-trip decimal of a double ("2.5", "3.0", "1e+100").
void appendNumber(std::string& out, double d);

}  // namespace ptc
