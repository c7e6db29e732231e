#include "core/suggest.h"

#include <algorithm>
#include <cctype>

namespace ptc {

namespace {

// Optimal string alignment distance (Levenshtein plus adjacent transpositions),
// case-insensitive so "Filter" finds "filter".
size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::string closestName(std::string_view name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t bestDistance = SIZE_MAX;
  size_t limit = std::max<size_t>(2, name.size() / 3);
  for (const std::string& c : candidates) {
    size_t d = editDistance(name, c);
    bool prefix = name.size() >= 3 && c.rfind(std::string(name), 0) == 0;  // "sort" -> "sort_by"
    if (prefix) d = std::min(d, limit);
    if (d <= limit && d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

std::string didYouMean(std::string_view name, const std::vector<std::string>& candidates) {
  std::string best = closestName(name, candidates);
  return best.empty() ? "" : " Did you mean '" + best + "'?";
}

std::string listNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace ptc
