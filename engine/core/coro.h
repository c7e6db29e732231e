// A minimal eager coroutine task for the resumable evaluator.
//
// Why this shape: Emscripten 3.1.6 ships only <experimental/coroutine> and wasm
// has no tail calls there, so symmetric transfer is unavailable. A finished
// child therefore does not resume its parent directly; it queues the parent on a
// ready list that the run's driver drains (a trampoline). Stack depth stays
// bounded and no frame is destroyed while its own code is still on the stack.
#pragma once

#if defined(__clang__) && __has_include(<experimental/coroutine>)
#include <experimental/coroutine>
namespace ptc::coro {
using std::experimental::coroutine_handle;
using std::experimental::suspend_always;
using std::experimental::suspend_never;
}  // namespace ptc::coro
#else
#include <coroutine>
namespace ptc::coro {
using std::coroutine_handle;
using std::suspend_always;
using std::suspend_never;
}  // namespace ptc::coro
#endif

#include <new>
#include <optional>
#include <utility>
#include <vector>

#include "core/error.h"

namespace ptc {

// Parents whose awaited child finished after a suspension, waiting to continue.
inline std::vector<coro::coroutine_handle<>>& readyCoroutines() {
  thread_local std::vector<coro::coroutine_handle<>> ready;
  return ready;
}

// Resumes queued parents until none is left (the trampoline).
inline void drainReadyCoroutines() {
  auto& ready = readyCoroutines();
  while (!ready.empty()) {
    auto h = ready.back();
    ready.pop_back();
    h.resume();
  }
}

template <class T>
class Task {
 public:
  struct promise_type {
    std::optional<T> value;
    std::optional<Error> error;
    coro::coroutine_handle<> continuation;

    Task get_return_object() { return Task(coro::coroutine_handle<promise_type>::from_promise(*this)); }
    coro::suspend_never initial_suspend() noexcept { return {}; }
    struct FinalAwaiter {
      bool await_ready() noexcept { return false; }
      void await_suspend(coro::coroutine_handle<promise_type> h) noexcept {
        if (h.promise().continuation) readyCoroutines().push_back(h.promise().continuation);
      }
      void await_resume() noexcept {}
    };
    FinalAwaiter final_suspend() noexcept { return {}; }
    template <class U>
    void return_value(U&& v) {
      value.emplace(std::forward<U>(v));
    }
    void unhandled_exception() { error = currentError(); }
  };

  explicit Task(coro::coroutine_handle<promise_type> h) : handle_(h) {}
  Task(Task&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() {
    if (handle_) handle_.destroy();
  }

  bool done() const { return handle_.done(); }
  bool await_ready() const noexcept { return handle_.done(); }
  void await_suspend(coro::coroutine_handle<> parent) noexcept { handle_.promise().continuation = parent; }
  T await_resume() { return take(); }

  // The result of a finished task; rethrows its error.
  T take() {
    auto& p = handle_.promise();
    if (p.error) throw PtcError(std::move(*p.error));
    return std::move(*p.value);
  }

 private:
  coro::coroutine_handle<promise_type> handle_;
};

}  // namespace ptc
