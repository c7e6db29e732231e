// Words a JSON syntax error so that one edit repairs it: which object or list
// is unclosed or wrongly closed, the byte where it opened and its JSON Pointer,
// the member or item a comma is missing after or trails. Runs only on errors
// (parsing itself keeps no such bookkeeping): it re-scans the text up to the
// byte where the parser gave up.
#pragma once

#include <string>
#include <string_view>

namespace ptc {

// The reason for a syntax error, in place of the parser's own (`parserReason`)
// where a structural slip explains it: an object or list unclosed or closed by
// the wrong bracket, a comma missing or trailing, a colon missing. Otherwise
// `parserReason`, followed by the innermost object or list it happened in.
// `text` holds one JSON document (and whatever follows it) whose bytes before
// `at` the parser accepted; `at` is where it stopped (the start of the token it
// refused, or text.size() at the end of input). Byte offsets in the reason are
// `base` + offsets into `text`.
std::string explainJsonSyntaxError(std::string_view text, size_t at, size_t base, std::string_view parserReason);

}  // namespace ptc
