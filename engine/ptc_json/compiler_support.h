// What the compiler (compiler.cpp) needs that holds no compiler state: its
// messages (a bare string where a value is computed, a constant condition, the
// names suggested for an unknown op or field), what an op's table entry says of
// its fields and scopes, and (defined here) the check of the {"program": ...}
// envelope.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/value.h"
#include "ptc_json/op_table.h"

namespace ptc {

std::string bareStringMessage(const OpSpec& spec, const FieldSpec& f, const Value& v);
std::string constantConditionMessage(const OpSpec& spec, const FieldSpec& f, const Value& v);
std::vector<std::string> opNames();
std::vector<std::string> fieldNames(const OpSpec& spec);
// Every key of the op's object is one of its fields (or "op"); else unknown_field with a did-you-mean.
void checkFieldNames(const OpSpec& spec, const Value& v, const std::string& path);

// The names an op's declared scopes (OpSpec::scopes) bind for its field
// `field`: what "$name" there reads as a var.
std::vector<std::string> namesBound(const OpSpec& spec, size_t field, const Value& v);
// Whether `field` of the op is a let's `bindings`, each of which sees the earlier ones.
bool sequentialBindings(const OpSpec& spec, const FieldSpec& f);
// Whether any of the space-separated field names is given.
bool anyGiven(const Value& v, std::string_view names);
// No field is given with one it excludes (FieldSpec::excludes); else conflicting_fields at path.
void checkExclusions(const OpSpec& spec, const Value& v, const std::string& path);
// The operation {"op": op, field: value}, for a short form to compile.
Value opWith(std::string_view op, std::string_view field, const Value& value);
// A sort key "-name" (sort_by's `field`, a text of `by`): name, descending (as Django's order_by).
bool descendingKey(const Value& v);
bool bindsBindings(const OpSpec& spec);
const FieldSpec* fieldOfKind(const OpSpec& spec, FieldKind kind);
// Exactly one of the op's one-of fields is given; else a validation error at path.
void checkOneOf(const OpSpec& spec, const Value& v, const std::string& path);

}  // namespace ptc
