// Projected rows in binary: when a program reads only some fields of a loaded
// list of objects (projection.h), the package sends that list as columns
// instead of JSON text: no JSON.stringify in JavaScript, no number or string
// parsing here, and a fold over a field reads its column without building the
// rows (core/columns.h). The package writes it in js/src/engine/rows.ts; both sides
// follow this layout (little-endian; u32 = 4 bytes, f64 = 8 bytes):
//
//   block    = u32 keyLength, key (UTF-8)     the context key
//              u32 itemCount, u32 fieldCount
//              fieldCount × (u32 length, name)
//              zero bytes up to a multiple of 8 from the start of the blocks
//              cells: fieldCount × itemCount × f64, column after column
//              tags:  fieldCount × itemCount × u8, column after column
//              u32 stringCount, stringCount × (u32 length, UTF-8)
//   tag      = Null | False | True | Number | String | Absent   (RowTag, core/columns.h)
//
// A Number cell holds the number (finite), a String cell the position of its
// text in the block's strings; the other cells hold nothing that is read. An
// Absent field is one the item does not have. A Number that is an integer
// below 2^63 in magnitude becomes an integer value, as its JSON text would.
// Any number of blocks follow one another.
#pragma once

#include <functional>
#include <string_view>

#include "core/columns.h"

namespace ptc {

// Decodes the blocks into `lists`, one per block. Throws
// PtcError(parse_error, bad_row_block) on a malformed block (a host bug), and
// memory_exceeded when the columns do not fit the current budget; `progress`
// is called every 4096 items.
void readRowBlocks(std::string_view blocks, ColumnarLists& lists, const std::function<void()>& progress);

}  // namespace ptc
