// Projected rows in binary: when a program reads only some fields of a loaded
// list (projection.h), the package sends that list as a compact block instead
// of JSON text: no JSON.stringify in JavaScript, no number or string parsing
// here. The package writes it in js/src/rows.ts; both sides follow this layout
// (little-endian; u32 = 4 bytes, f64 = 8 bytes, no alignment):
//
//   block    = u32 keyLength, key (UTF-8)   the context key
//              u32 itemCount, u32 fieldCount
//              fieldCount × (u32 length, name)
//              itemCount × item
//   item     = value | Object (fieldCount × (value | Absent))
//   value    = Null | False | True | Number f64 | NewString (u32 length, UTF-8)
//              | StringRef u32 | PlainString (u32 length, UTF-8)
//
// NewString strings are numbered in order of appearance; StringRef repeats
// one. A Number that is an integer below 2^63 in magnitude becomes an integer
// value, as its JSON text would. Any number of blocks follow one another.
#pragma once

#include <functional>
#include <string_view>

#include "core/value.h"

namespace ptc {

enum class RowTag : uint8_t { Null, False, True, Number, NewString, StringRef, Object, Absent, PlainString };

// Decodes the blocks and appends one member per block (key → list) to
// `context`. Throws PtcError(parse_error) on a malformed block (a host bug);
// `progress` is called every 4096 items.
void appendRowBlocks(std::string_view blocks, Members& context, const std::function<void()>& progress);

}  // namespace ptc
