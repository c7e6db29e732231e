// Names in messages: "Did you mean ...?" for an unknown name, and the list of
// the names there are.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ptc {

// The closest candidate within a small edit distance, or "" when none is close.
std::string closestName(std::string_view name, const std::vector<std::string>& candidates);
// " Did you mean 'x'?" or "".
std::string didYouMean(std::string_view name, const std::vector<std::string>& candidates);
// "a, b, c" (for "Its fields are: ...", "Available tools: ...").
std::string listNames(const std::vector<std::string>& names);

}  // namespace ptc
