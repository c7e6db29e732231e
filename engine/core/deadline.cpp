#include "core/deadline.h"

#include <string>

#include "core/error.h"

namespace ptc {

void Deadline::checkDeadline() const {
  if (Clock::now() >= deadline)
    throw PtcError(ErrorType::Timeout, ErrorCode::Timeout,
                   "Execution exceeded the time limit of " + std::to_string(timeoutMs) +
                       " ms (timeoutMs); reduce the data the program walks, e.g. filter "
                       "before map");
}

}  // namespace ptc
