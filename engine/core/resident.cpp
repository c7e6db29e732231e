#include "core/resident.h"

#include <functional>

#include "core/deadline.h"
#include "core/error.h"
#include "core/json.h"

namespace ptc {

namespace {

// `parse` reads the text into values (charged to the resident's budget, under its deadline).
template <class Parse>
std::shared_ptr<const Resident> load(uint64_t maxBytes, int64_t timeoutMs, Parse&& parse) {
  auto resident = std::make_shared<Resident>(maxBytes);
  Deadline clock;
  clock.start(timeoutMs);
  DeadlineScope deadline(&clock);
  BudgetScope budget(&resident->budget);
  try {
    Value context = parse([&clock] { clock.checkDeadline(); });
    if (!context.isObject())
      throw PtcError(ErrorType::Parse, ErrorCode::NotAnObject,
                     std::string("The resident context must be a JSON object, got ") + typeName(context));
    // Its key index is sorted now, under this deadline, not by the first run
    // that looks a key up (n log n comparisons charged to that run's timeoutMs).
    context.keyIndex();
    resident->context = std::move(context);
    resident->columns = std::make_unique<ColumnCache>(resident->context, &resident->budget);
  } catch (const PtcError& e) {
    if (e.error.type == ErrorType::MemoryExceeded)
      throw PtcError(ErrorType::MemoryExceeded, ErrorCode::MemoryExceeded,
                     "The resident context needs more than its limit of " + std::to_string(maxBytes) +
                         " bytes in the engine (maxResidentBytes): load fewer keys or rows, or raise "
                         "maxResidentBytes");
    if (e.error.type == ErrorType::Timeout)
      throw PtcError(ErrorType::Timeout, ErrorCode::Timeout,
                     "Loading the resident context took longer than the time limit of " + std::to_string(timeoutMs) +
                         " ms (timeoutMs)");
    throw;
  }
  return resident;
}

}  // namespace

std::shared_ptr<const Resident> loadResident(std::string_view contextJson, uint64_t maxBytes, int64_t timeoutMs) {
  StringSource source(contextJson);  // read as the wasm binding's text is, so both load the same values
  return loadResident(source, maxBytes, timeoutMs);
}

std::shared_ptr<const Resident> loadResident(TextSource& source, uint64_t maxBytes, int64_t timeoutMs,
                                             size_t pieceBytes) {
  return load(maxBytes, timeoutMs, [&](const std::function<void()>& progress) {
    return parseJson(source, "resident context", progress, pieceBytes);
  });
}

std::string residentJson(int id, const Resident& resident) {
  std::string out = "{\"state\":\"resident\",\"id\":" + std::to_string(id) +
                    ",\"bytes\":" + std::to_string(resident.budget.live()) + ",\"keys\":[";
  bool first = true;
  for (MemberRef m : resident.context.members()) {
    if (!first) out += ',';
    first = false;
    out += toJson(m.key);
  }
  return out + "]}";
}

}  // namespace ptc
