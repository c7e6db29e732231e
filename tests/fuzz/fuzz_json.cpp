// libFuzzer target: the JSON parsers on the same bytes. The fast path
// (core/json_fast.*) must accept only what nlohmann/json (the reference)
// accepts, and read the same value; a value read must write (toJson) as text
// that reads back as the same value. The one deliberate difference: a lone
// surrogate escape, which the fast path reads as U+FFFD. Read a piece at a
// time (a TextSource), the fast path must decide and read as from the whole text.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <string>

#include "core/json.h"
#include "core/json_fast.h"
#include "fuzz_support.h"

namespace {

using ptc::Value;

// The same kind and value, bit for bit for doubles (0.0 is not -0.0), with
// members in the same order.
bool identical(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case ptc::Kind::Int: return a.asInt() == b.asInt();
    case ptc::Kind::Double: {
      double x = a.asDouble(), y = b.asDouble();
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    case ptc::Kind::Array:
      if (a.items().size() != b.items().size()) return false;
      for (size_t i = 0; i < a.items().size(); ++i)
        if (!identical(a.items()[i], b.items()[i])) return false;
      return true;
    case ptc::Kind::Object:
      if (a.members().size() != b.members().size()) return false;
      for (size_t i = 0; i < a.members().size(); ++i)
        if (a.members()[i].key.str() != b.members()[i].key.str() ||
            !identical(a.members()[i].value, b.members()[i].value))
          return false;
      return true;
    default: return ptc::equals(a, b);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using ptc::fuzz::finding;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Value fast, ref;
  const bool fastOk = ptc::parseJsonFast(text, fast, {});
  std::string refError;
  bool refOk = true;
  try {
    ref = ptc::parseJsonReference(text, "fuzz");
  } catch (const ptc::PtcError& e) {
    refOk = false;
    refError = e.error.message;
  }
  if (fastOk && !refOk) {
    if (refError.find("surrogate") != std::string::npos) return 0;
    finding("the fast path accepted what nlohmann/json rejects", refError + "\n" + std::string(text));
  }
  if (fastOk && !identical(fast, ref))
    finding("the parsers read different values",
            std::string(text) + "\nfast: " + ptc::toJson(fast) + "\nref:  " + ptc::toJson(ref));
  // Read a piece at a time (a resident context's load), cut where the input's
  // first byte says: the fast path decides and reads as from the whole text.
  const size_t piece = size > 0 ? data[0] % 17 + 1 : 1;
  ptc::StringSource source(text, piece);
  Value pieces;
  const bool piecesOk = ptc::parseJsonFast(source, piece, pieces, {});
  if (piecesOk != fastOk)
    finding("read in pieces the fast path decided otherwise",
            std::to_string(piece) + "-byte pieces\n" + std::string(text));
  if (piecesOk && fastOk && !identical(pieces, fast))
    finding("read in pieces the fast path read another value",
            std::to_string(piece) + "-byte pieces\n" + std::string(text) + "\nwhole:  " + ptc::toJson(fast) +
                "\npieces: " + ptc::toJson(pieces));
  if (!refOk) return 0;
  const std::string written = ptc::toJson(ref);
  Value again;
  try {
    again = ptc::parseJsonReference(written, "written");
  } catch (const ptc::PtcError& e) {
    finding("a value read wrote text that does not read back", e.error.message + "\n" + written);
  }
  if (!identical(again, ref))
    finding("a value read wrote text that reads back as another value", std::string(text) + "\nwrote: " + written);
  return 0;
}
