// Reference strings: the short spellings of the most frequent reads, so a
// program says "$_.amount" where it would say {"op": "get", "field": "amount"}.
//   "$_"            the current value           {"op": "get", "path": []}
//   "$_.a.b"        a path of it                {"op": "get", "path": ["a", "b"]}
//   "$name"         a let or `as` binding in scope, else a memory key, else a
//                   context key (the compiler decides binding vs. the others)
//   "$name.a.b"     a path inside that value
// Only a text that starts with "$" and a letter or "_" is a reference: "$",
// "$5" or "US$" stay literal text. A literal text that does start so is
// written {"op": "literal", "value": "$USD"}.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/value.h"

namespace ptc {

struct Reference {
  std::string name;               // "_" for the current value
  std::vector<std::string> path;  // object keys read inside it, in order
  bool current() const { return name == "_"; }
};

// Whether v is a text spelled as a reference (it may still be malformed).
bool looksLikeReference(const Value& v);

// The reference v spells, or nullopt when v is not one. Throws
// PtcError(validation_error, bad_value) at `path` for a malformed one
// ("$x..y", "$x." : an empty key), naming the literal form.
std::optional<Reference> parseReference(const Value& v, const std::string& path);

}  // namespace ptc
