// Concurrent branches of one fan-out (independent items that call tools, in
// either dialect): at most `window` unfinished at once, none started after a
// branch failed, and the fan-out resumes as each one finishes. What a branch
// computes and how its results are combined (in item order) is the caller's.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/coro.h"

namespace ptc {

struct Branches {
  size_t finished = 0;
  size_t firstFailed = SIZE_MAX;  // the lowest index of a branch that failed
  bool fatal = false;             // a branch hit what ends the run: stop at once
  coro::coroutine_handle<> waiter;

  // Called by branch `index` as it ends.
  void ended(size_t index, bool failed, bool endsRun) {
    if (failed) firstFailed = std::min(firstFailed, index);
    if (endsRun) fatal = true;
    ++finished;
    if (auto w = std::exchange(waiter, {})) readyCoroutines().push_back(w);
  }
};

// Resumes the fan-out once a branch has finished since it last looked.
struct BranchFinished {
  Branches& fan;
  size_t seen;
  bool await_ready() const noexcept { return fan.finished > seen; }
  void await_suspend(coro::coroutine_handle<> h) noexcept { fan.waiter = h; }
  void await_resume() const noexcept {}
};

// Starts branches 0..count-1 with start(i) (a branch calls fan.ended when it
// ends) and waits until every started one has finished, or until one is
// fatal. Returns how many started.
template <class Start>
Task<size_t> runBranches(Branches& fan, size_t count, size_t window, Start start) {
  size_t next = 0;
  for (;;) {
    while (next < count && next - fan.finished < window && next < fan.firstFailed && !fan.fatal) start(next++);
    if (fan.fatal || fan.finished == next) co_return next;
    BranchFinished wait{fan, fan.finished};
    co_await wait;
  }
}

}  // namespace ptc
