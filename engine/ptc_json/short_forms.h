// Operations written without "op" (docs/semantics.md, Short forms): the pipe
// form {"pipe": [steps]} and the keyed forms, an object whose first key names
// an op with a keyed form (op_table_keyed.h): {"call": "charge", "args":
// {...}} is {"op": "call", "tool": "charge", "args": {...}}. The compiler
// (compiler.cpp) compiles such an object as the operation it stands for, its
// key's value at the key's own JSON Pointer.
#pragma once

#include <string>

#include "core/value.h"

namespace ptc {

// Whether v is an operation written as a short form: an object without "op"
// with a "pipe" key, or whose first key names an op with a keyed form.
bool isShortFormOp(const Value& v);

// The operation a short form stands for: {"op": name, <field>: the key's
// value, ...the other keys}, and where its key's value is (path + "/" + key).
struct ExpandedForm {
  Value op;
  const char* field;  // the field the key holds
  std::string fieldPath;
};

// A validation_error (unknown_field, wrong_kind) naming the form and
// `literal` when v has keys that are not its op's fields, or a pipe form's
// "pipe" holds no list.
ExpandedForm expandShortForm(const Value& v, const std::string& path);

// An object without "op" that is not a short form but would be one with its
// keys in another order ({"args": {...}, "call": "x"}: data, silently) is a
// validation_error (unknown_field at its first key) saying to write the op's
// key first, or `literal` for data; one whose first key is one typing slip
// from a keyed op's name (4 letters or more, not its plural) and whose other
// keys are that op's fields ({"retyr": ..., "max": 3}) is unknown_op there,
// with the name.
void checkKeyedOrder(const Value& v, const std::string& path);

}  // namespace ptc
