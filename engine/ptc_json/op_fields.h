// A field of an op, by name, checked while compiling: what the evaluators, the
// compiler, the analysis, the check of declared results and the projection
// read of a control op's Node (Node::kid, Node::kidsOf) instead of a position
// in its kids. `fieldRef(Op::Loop, "while")` with a name the entry does not
// have does not compile.
#pragma once

#include <string_view>

#include "ptc_json/op_table.h"
#include "ptc_json/op_table_entries.h"
#include "ptc_json/program.h"

namespace ptc {

consteval FieldRef fieldRef(Op op, std::string_view name) {
  const OpSpec& spec = op_entry::kEntries[static_cast<size_t>(op)].spec();
  for (size_t i = 0; i < spec.fields.size(); ++i)
    if (spec.fields[i].name == name) return FieldRef{op, static_cast<uint8_t>(i)};
  throw "fieldRef: the op's entry has no field of that name";
}

// The expression of n's field named `name` (looked up while running: for
// code that reads a field several ops share, such as every comparison's
// `value`), or nullptr when absent.
inline const Node* kidNamed(const Node& n, std::string_view name) {
  const int index = fieldIndex(specOf(n.op), name);
  return index < 0 ? nullptr : n.kid(FieldRef{n.op, static_cast<uint8_t>(index)});
}

}  // namespace ptc
