#include "core/suggest.h"

#include <algorithm>
#include <cctype>

#include "core/deadline.h"

namespace ptc {

namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// Optimal string alignment distance (Levenshtein plus adjacent transpositions),
// case-insensitive so "Filter" finds "filter"; past `bound` it stops and
// answers bound + 1. Three rows of scratch, reused from call to call.
size_t editDistance(std::string_view a, std::string_view b, size_t bound, std::vector<size_t>& rows) {
  const size_t la = a.size(), lb = b.size();
  const size_t width = lb + 1;
  rows.assign(3 * width, 0);
  size_t* before = rows.data();   // row i - 2
  size_t* prev = before + width;  // row i - 1
  size_t* cur = prev + width;     // row i
  for (size_t j = 0; j <= lb; ++j) prev[j] = j;
  size_t prevMin = 0;
  for (size_t i = 1; i <= la; ++i) {
    cur[0] = i;
    size_t rowMin = i;
    for (size_t j = 1; j <= lb; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      size_t d = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d = std::min(d, before[j - 2] + 1);
      cur[j] = d;
      rowMin = std::min(rowMin, d);
    }
    // No later cell can come back under the bound from two rows past it.
    if (rowMin > bound && prevMin > bound) return bound + 1;
    prevMin = rowMin;
    size_t* spare = before;
    before = prev;
    prev = cur;
    cur = spare;
  }
  return std::min(prev[lb], bound + 1);
}

}  // namespace

// Distances from one name, lowered once, to candidates one after another.
// Before the edit distance, two bounds below it that cost a pass over the
// candidate: the difference of the lengths, and of the letters as multisets
// (an insertion, deletion or substitution changes each side by at most one,
// a transposition not at all).
class NameScorer {
 public:
  explicit NameScorer(std::string_view name) : name_(lowered(name)) {
    for (char c : name_) ++counts_[static_cast<unsigned char>(c)];
  }

  size_t distance(std::string_view candidate, size_t bound) {
    const size_t la = name_.size(), lb = candidate.size();
    if ((la > lb ? la - lb : lb - la) > bound) return bound + 1;
    buf_.assign(candidate);
    for (char& c : buf_) c = lower(c);
    size_t extra = 0;  // letters of the candidate the name lacks
    for (char c : buf_)
      if (counts_[static_cast<unsigned char>(c)]-- <= 0) ++extra;
    for (char c : buf_) ++counts_[static_cast<unsigned char>(c)];
    const size_t missing = la - (lb - extra);  // letters of the name the candidate lacks
    if (std::max(extra, missing) > bound) return bound + 1;
    return editDistance(name_, buf_, bound, rows_);
  }

 private:
  static std::string lowered(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = lower(c);
    return out;
  }
  std::string name_;
  int counts_[256] = {};
  std::string buf_;
  std::vector<size_t> rows_;
};

namespace {

size_t closeLimit(std::string_view name) { return std::max<size_t>(2, name.size() / 3); }

bool isPrefix(std::string_view name, std::string_view candidate) {
  return name.size() >= 3 && candidate.substr(0, name.size()) == name;  // "sort" -> "sort_by"
}

}  // namespace

std::string closestName(std::string_view name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t bestDistance = SIZE_MAX;
  const size_t limit = closeLimit(name);
  NameScorer scorer(name);
  for (const std::string& c : candidates) {
    size_t d = scorer.distance(c, limit);
    if (isPrefix(name, c)) d = std::min(d, limit);
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

std::string groupedCount(size_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

NearestNames::NearestNames(std::string_view name)
    : name_(name), limit_(closeLimit(name)), scorer_(std::make_unique<NameScorer>(name)) {}

NearestNames::~NearestNames() = default;

void NearestNames::offer(std::string_view candidate) {
  tickDeadline();
  ++count_;
  if (count_ <= kListed) all_.emplace_back(candidate);
  else if (!all_.empty()) all_ = {};
  // Past the farthest kept name nothing enters; at its distance a name that sorts first does.
  const bool full = kept_.size() >= kNearest;
  const size_t bound = full ? kept_.back().first : SIZE_MAX - 1;
  size_t d = scorer_->distance(candidate, bound);
  if (isPrefix(name_, candidate)) d = std::min(d, limit_);
  if (d > bound) return;
  std::pair<size_t, std::string> entry(d, std::string(candidate));
  if (full && entry >= kept_.back()) return;
  kept_.insert(std::upper_bound(kept_.begin(), kept_.end(), entry), std::move(entry));
  if (kept_.size() > kNearest) kept_.pop_back();
}

std::vector<std::string> NearestNames::nearest() const {
  std::vector<std::string> out;
  for (const auto& [distance, name] : kept_) out.push_back(name);
  return out;
}

std::string NearestNames::closest() const {
  return !kept_.empty() && kept_.front().first <= limit_ ? kept_.front().second : "";
}

void sortUnique(std::vector<std::string>& names) {
  std::vector<uint32_t> order(names.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  sortPositions(order.data(), order.size(), [&](uint32_t a, uint32_t b) { return names[a] < names[b]; });
  std::vector<std::string> sorted;
  sorted.reserve(names.size());
  for (uint32_t i : order)
    if (sorted.empty() || sorted.back() != names[i]) sorted.push_back(std::move(names[i]));
  names = std::move(sorted);
}

}  // namespace ptc
