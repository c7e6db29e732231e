#include "core/deadline.h"

#include <algorithm>
#include <string>

#include "core/error.h"

namespace ptc {

namespace {

[[noreturn]] void timedOut(int64_t timeoutMs) {
  throw PtcError(ErrorType::Timeout, ErrorCode::Timeout,
                 "Execution exceeded the time limit of " + std::to_string(timeoutMs) +
                     " ms (timeoutMs); reduce the data the program walks, e.g. filter "
                     "before map");
}

}  // namespace

void Deadline::checkDeadline() const {
  if (Clock::now() >= deadline) timedOut(timeoutMs);
}

void Deadline::checkDeadlineAtStart() const {
  if (started >= deadline) timedOut(timeoutMs);
}

void sortPositions(uint32_t* first, size_t n, PositionLess less, const void* context) {
  std::stable_sort(first, first + n, [less, context](uint32_t a, uint32_t b) {
    tickDeadline();
    return less(context, a, b);
  });
}

}  // namespace ptc
