// Resident context: context data loaded into the engine once, which any number
// of runs then load by name without it crossing the boundary again (an agent
// session's data stays while its programs come and go). Its values are charged
// to a budget of its own, bounded by the limit given when it was loaded, not
// to the runs that read them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/columns.h"
#include "core/json.h"
#include "core/value.h"

namespace ptc {

struct Resident {
  explicit Resident(uint64_t limit) : budget(limit) {}
  Budget budget;  // first: the values below are charged to it, so it is destroyed after them
  Value context;  // an object
  // Columns of its lists, built as runs scan them (columns.h): a cache, so
  // runs holding a const Resident may fill it; charged to `budget`.
  mutable std::unique_ptr<ColumnCache> columns;
};

// Parses a context object under its own budget of `maxBytes` and deadline of
// `timeoutMs`. Throws PtcError: parse_error, memory_exceeded (saying the
// resident limit was reached) or timeout.
std::shared_ptr<const Resident> loadResident(std::string_view contextJson, uint64_t maxBytes, int64_t timeoutMs);
// The same reading the text from `source` a piece at a time (json.h's
// TextSource): the engine never holds the whole text, only the values and a
// piece. Limits and errors (their byte offsets too) are those of the whole text.
std::shared_ptr<const Resident> loadResident(TextSource& source, uint64_t maxBytes, int64_t timeoutMs,
                                             size_t pieceBytes = kTextPieceBytes);

// {"state":"resident","id":N,"bytes":B,"keys":[...]}
std::string residentJson(int id, const Resident& resident);

}  // namespace ptc
