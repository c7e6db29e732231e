// Which fields of a loaded list of rows a program can observe. A program such
// as load → filter(eq category) → sum(amount) reads two fields of each row and
// never lets a row itself reach its result, so the host may send just those
// fields (JSON.stringify with a key list): less to serialise, copy and parse.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ptc_json/program.h"

namespace ptc {

// Context keys whose loaded value the program only reads through the listed
// fields of its items (sorted, distinct). A key is absent when the program may
// observe more: a row in the result, whole-item comparisons, a load outside a
// pipe, or anything this analysis does not follow.
//
// The promise holds for a list whose items are objects (or not objects at
// all, which field reads turn into null) and whose listed fields hold no
// object or list: the host checks that before it projects, and otherwise
// sends the value whole.
std::map<std::string, std::vector<std::string>> projectedLoads(const Node& root);

}  // namespace ptc
