#include "core/deadline.h"

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

}  // namespace ptc
