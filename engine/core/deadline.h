// The time limit of the work under way: a run's, or a program's compilation.
// Deadline::current() is reachable from loops that have no run at hand —
// comparing, hashing and sorting values, writing JSON, parsing — so a single
// huge value (or one used in many places) cannot outrun timeoutMs: they call
// tickDeadline(), which reads the clock every 1024 calls.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace ptc {

// The time deadlines read: the steady clock, unless a test sets a fake one
// (FakeClock), so that no test depends on how fast the machine is.
struct Clock {
  using time_point = std::chrono::steady_clock::time_point;
  static time_point now() { return fake_ ? fake_() : std::chrono::steady_clock::now(); }
  using Source = time_point (*)();
  static inline Source fake_ = nullptr;
};

struct Deadline {
  std::chrono::steady_clock::time_point deadline;
  std::chrono::steady_clock::time_point started;  // when start() read the clock
  int64_t timeoutMs = 1000;
  uint32_t ticks = 0;

  // Throws PtcError(timeout) once the deadline has passed.
  void checkDeadline() const;
  // The same as of the moment the clock started, without reading it: whether
  // the time the host already spent (alreadySpent) used up the limit.
  void checkDeadlineAtStart() const;
  // Every 1024 calls, checks the deadline: cheap enough for the hot path.
  void tick() {
    if ((++ticks & 1023) == 0) checkDeadline();
  }
  // Starts the clock: timeoutMs from now.
  void start(int64_t ms) {
    timeoutMs = ms;
    started = Clock::now();
    deadline = started + std::chrono::milliseconds(ms);
  }

  // The deadline of the work being done, or none (nothing to check).
  static Deadline*& current() { return current_; }

 private:
  // Inline so that tickDeadline() in per-item loops is a load, not a call.
  static inline thread_local Deadline* current_ = nullptr;
};

// Sets Deadline::current() for a scope and restores the previous one.
class DeadlineScope {
 public:
  explicit DeadlineScope(Deadline* d) : saved_(Deadline::current()) { Deadline::current() = d; }
  ~DeadlineScope() { Deadline::current() = saved_; }
  DeadlineScope(const DeadlineScope&) = delete;
  DeadlineScope& operator=(const DeadlineScope&) = delete;

 private:
  Deadline* saved_;
};

// For loops whose length the program does not bound (see above).
inline void tickDeadline() {
  if (Deadline* d = Deadline::current()) d->tick();
}

// The engine's one sort: positions first..first+n reordered, stably, by
// less(context, a, b), ticking the deadline (a sort of n items makes n log n
// comparisons, which no loop around it would count). The engine's sorts go through
// this one instantiation of std::stable_sort rather than one std::sort per type and
// comparison (kilobytes of wasm each); sort_by and median keep their own, 25% and 13%
// faster on 20k items. It allocates nothing up to 128 positions.
using PositionLess = bool (*)(const void* context, uint32_t a, uint32_t b);
void sortPositions(uint32_t* first, size_t n, PositionLess less, const void* context);

// The same with a comparison of two positions (a lambda): `less` is called
// through a pointer, so each caller adds a thunk, not a sort.
template <class Less>
void sortPositions(uint32_t* first, size_t n, const Less& less) {
  sortPositions(
      first, n, [](const void* context, uint32_t a, uint32_t b) { return (*static_cast<const Less*>(context))(a, b); },
      &less);
}

}  // namespace ptc
