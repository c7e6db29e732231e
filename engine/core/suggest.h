// Names in messages: "Did you mean ...?" for an unknown name, and the list of
// the names there are.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptc {

// The closest candidate within a small edit distance, or "" when none is close.
std::string closestName(std::string_view name, const std::vector<std::string>& candidates);
// " Did you mean 'x'?" or "".
std::string didYouMean(std::string_view name, const std::vector<std::string>& candidates);
// "a, b, c" (for "Its fields are: ...", "Available tools: ...").
std::string listNames(const std::vector<std::string>& names);
// Sorts names (byte order) and keeps each once, through the engine's one sort
// (sortPositions): a std::sort of strings is 6 KB of wasm.
void sortUnique(std::vector<std::string>& names);
// "1,089,078": a count in a message.
std::string groupedCount(size_t n);

// The names nearest an unknown one among any number of candidates, offered
// one at a time (a resident context may have a million keys): it keeps every
// name while there are at most kListed, then only the kNearest nearest, and
// how many were offered. Scoring is bounded per candidate (an edit distance
// past the kept ones' stops early) and ticks the deadline of the work under
// way (core/deadline.h), so a long list of names cannot outrun timeoutMs.
class NameScorer;

class NearestNames {
 public:
  static constexpr size_t kListed = 30;  // at most this many: all are listed
  static constexpr size_t kNearest = 5;  // more: only the nearest this many

  explicit NearestNames(std::string_view name);
  ~NearestNames();
  NearestNames(const NearestNames&) = delete;
  NearestNames& operator=(const NearestNames&) = delete;
  // A candidate; the caller offers each name once.
  void offer(std::string_view candidate);
  const std::string& name() const { return name_; }
  size_t count() const { return count_; }
  // When count() <= kListed, all of them (in the order offered).
  const std::vector<std::string>& all() const { return all_; }
  // The nearest, nearest first (ties in name order), at most kNearest.
  std::vector<std::string> nearest() const;
  // The nearest within a small edit distance (as closestName), or "".
  std::string closest() const;

 private:
  std::string name_;
  size_t limit_;  // the edit distance within which a name is "close"
  size_t count_ = 0;
  std::vector<std::string> all_;
  std::vector<std::pair<size_t, std::string>> kept_;  // (distance, name), sorted, at most kNearest
  std::unique_ptr<NameScorer> scorer_;                // the name lowered, and scratch
};

}  // namespace ptc
