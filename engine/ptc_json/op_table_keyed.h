// The op table's column of keyed forms (issue 36, third round): an object
// without "op" whose first key names an op listed here is that op, the key
// holding the field named beside it, the object's other keys its other
// fields: {"call": "charge", "args": {...}}, {"try": <expr>, "catch": <expr>},
// {"if": <cond>, "then": ..., "else": ...}, {"return": <expr>}, {"let": {...},
// "in": <expr>}, {"for_each": <expr>, "as": "x"}, {"retry": <expr>, "max": 3}:
// the shapes agents already write (json-logic, MongoDB), a name and what it
// is applied to. `pipe`'s is the short pipe form {"pipe": [steps]}, its only key.
//
// Only verbs that are rarely a key of data have one: the workflow ops. Not the
// data-pipeline ops (filter, map, sort_by, group_by) nor aggregates (count,
// sum): "filter", "map", "group_by", "count" are common keys of tool arguments
// and of objects a program builds, which the keyed form would turn into
// operations (docs/semantics.md, Short forms, says why). Read by op_table.cpp,
// which puts each field into its op's OpSpec::keyed and checks the column.
#pragma once

#include "ptc_json/op.h"

namespace ptc {

struct KeyedForm {
  Op op;
  const char* field;  // the field the key holds (OpSpec::keyed)
};

inline constexpr KeyedForm kKeyedForms[] = {
    {Op::Let, "bindings"}, {Op::Pipe, "steps"},   {Op::If, "condition"}, {Op::Try, "expr"},
    {Op::Call, "tool"},    {Op::ForEach, "expr"}, {Op::Retry, "expr"},   {Op::Return, "value"},
};

}  // namespace ptc
