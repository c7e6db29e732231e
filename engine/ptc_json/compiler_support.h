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

// The names an op's declared scopes (OpSpec::scopes) bind for its field
// `field`: what "$name" there reads as a var.
std::vector<std::string> namesBound(const OpSpec& spec, size_t field, const Value& v);
// Whether `field` of the op is a let's `bindings`, each of which sees the earlier ones.
bool sequentialBindings(const OpSpec& spec, const FieldSpec& f);
// Whether any of the space-separated field names is given.
bool anyGiven(const Value& v, std::string_view names);
bool bindsBindings(const OpSpec& spec);
const FieldSpec* fieldOfKind(const OpSpec& spec, FieldKind kind);
// Exactly one of the op's one-of fields is given; else a validation error at path.
void checkOneOf(const OpSpec& spec, const Value& v, const std::string& path);

}  // namespace ptc
