// Warnings: what a run, validate or analyze reports beside its result when a
// program reads a name that is not there or has a shape that is almost right
// (a misspelt field, a context key that does not exist, a doubled envelope).
// The program still runs as the spec says; the warning names the fix.
//
// A run collects them in its Warnings, reachable from op code that has no run
// at hand through Warnings::current() (set for the run's steps, as the
// deadline is). Field reads are tallied per reading node (a slot the compiler
// gives it): one store per read, and a warning only when no object that node
// read had the field, decided when the run ends.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/suggest.h"
#include "core/value.h"

namespace ptc {

struct Warning {
  ErrorCode code = ErrorCode::Internal;
  std::string path;  // JSON Pointer of the node or step
  std::string message;
};

class Warnings {
 public:
  // At most this many reach the result: a program that warns on every node
  // would bury its result.
  static constexpr size_t kMax = 20;

  // Adds a warning unless one of the same code at the same path is there.
  void add(ErrorCode code, const std::string& path, std::string message);
  void add(const Warning& w) { add(w.code, w.path, w.message); }
  bool has(ErrorCode code, const std::string& path) const;
  const std::vector<Warning>& list() const { return list_; }
  bool empty() const { return list_.empty(); }

  // Field reads: slot i was read `found` (a hit), or missed on `object`.
  void slots(size_t n) { reads_.assign(n, Read{}); }
  void noteRead(int32_t slot, bool found, const Value& object) {
    if (slot < 0 || static_cast<size_t>(slot) >= reads_.size()) return;
    Read& r = reads_[static_cast<size_t>(slot)];
    if (found) r.found = true;
    else if (!r.found && r.missedIn.isNone() && object.isObject()) r.missedIn = object;
  }
  // The object a slot missed on when no object it read had the field, else null.
  const Value* missedOnly(size_t slot) const {
    const Read& r = reads_[slot];
    return !r.found && !r.missedIn.isNone() ? &r.missedIn : nullptr;
  }
  size_t slotCount() const { return reads_.size(); }
  void forgetReads() { reads_.clear(); }

  static Warnings*& current() { return current_; }

 private:
  struct Read {
    bool found = false;
    Value missedIn = Value::none();
  };
  std::vector<Warning> list_;
  std::vector<Read> reads_;
  static inline thread_local Warnings* current_ = nullptr;
};

// Sets Warnings::current() for a scope and restores the previous one.
class WarningsScope {
 public:
  explicit WarningsScope(Warnings* w) : saved_(Warnings::current()) { Warnings::current() = w; }
  ~WarningsScope() { Warnings::current() = saved_; }
  WarningsScope(const WarningsScope&) = delete;
  WarningsScope& operator=(const WarningsScope&) = delete;

 private:
  Warnings* saved_;
};

// A warning for the run under way, if any.
inline void warn(ErrorCode code, const std::string& path, std::string message) {
  if (Warnings* w = Warnings::current()) w->add(code, path, std::move(message));
}

// " Did you mean 'x'? The <what> are: a, b, c." (or "There are no <what>.").
// Past NearestNames::kListed names, only the nearest few and how many more:
// " Did you mean 'x'? The <what> nearest 'y' are: x, ... and 99,996 more."
std::string namesHint(const std::string& name, const std::vector<std::string>& names, const std::string& what);
// The same from names offered one at a time (each once), however many.
std::string namesHint(const NearestNames& names, const std::string& what);
// The names of an object's keys offered to `names`.
void offerKeys(NearestNames& names, const Value& object);
// ["customer", "tier"] for "customer.tier": the path a dotted name meant.
std::string pathLiteral(const std::string& dotted);
// [{"code":..,"path":..,"message":..}, ...]
std::string warningsJson(const std::vector<Warning>& warnings);

}  // namespace ptc
