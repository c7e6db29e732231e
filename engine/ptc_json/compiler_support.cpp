// See compiler_support.h.
#include "ptc_json/compiler_support.h"

#include <algorithm>

#include "core/error.h"
#include "core/json_pointer.h"
#include "core/suggest.h"
#include "ptc_json/program.h"
#include "ptc_json/reference.h"

namespace ptc {

// The names an op's declared scopes (OpSpec::scopes) bind for its field
// `field`: what "$name" there reads as a var. A let's bindings see the
// earlier ones as they compile (objectFields).
std::vector<std::string> namesBound(const OpSpec& spec, size_t field, const Value& v) {
  std::vector<std::string> names;
  for (const ScopeSpec& s : spec.scopes) {
    if (!s.seenByField(field)) continue;
    switch (s.binds) {
      case Binds::As:
        if (const Value* as = v.find("as"); as && as->isString()) names.push_back(as->str());
        break;
      case Binds::Literal: names.push_back(s.name); break;
      case Binds::Bindings:
        if (const Value* name = v.find("name"); name && name->isString()) names.push_back(name->str());
        if (const Value* bindings = v.find("bindings"); bindings && bindings->isObject())
          for (MemberRef m : bindings->members()) names.push_back(m.key.str());
        break;
    }
  }
  return names;
}

// Whether `field` of the op is a let's `bindings`, each of which sees the earlier ones.
bool sequentialBindings(const OpSpec& spec, const FieldSpec& f) {
  return std::any_of(spec.scopes.begin(), spec.scopes.end(), [&](const ScopeSpec& s) {
    return s.binds == Binds::Bindings && std::string_view(f.name) == "bindings";
  });
}

// Whether any of the space-separated field names is given.
bool anyGiven(const Value& v, std::string_view names) {
  while (!names.empty()) {
    const size_t space = names.find(' ');
    if (v.find(names.substr(0, space))) return true;
    names = space == std::string_view::npos ? std::string_view() : names.substr(space + 1);
  }
  return false;
}

void checkFieldNames(const OpSpec& spec, const Value& v, const std::string& path) {
  for (MemberRef m : v.members()) {
    const std::string& key = m.key.str();
    if (key == "op" || findField(spec, key)) continue;
    std::vector<std::string> names = fieldNames(spec);
    std::string hint = didYouMean(key, names);
    if (hint.empty()) hint = names.empty() ? " It takes no fields." : " Its fields are: " + listNames(names) + ".";
    fail(ErrorCode::UnknownField, childPath(path, key),
         "Unknown field '" + key + "' for operation '" + spec.name + "'." + hint + " Shape: " + opShape(spec));
  }
}

void checkExclusions(const OpSpec& spec, const Value& v, const std::string& path) {
  for (const FieldSpec& f : spec.fields)
    if (f.excludes && v.find(f.name) && anyGiven(v, f.excludes))
      fail(ErrorCode::ConflictingFields, path,
           "'" + std::string(spec.name) + "' " + f.conflict + ". Shape: " + opShape(spec));
}

Value opWith(std::string_view op, std::string_view field, const Value& value) {
  ObjectBuilder out;
  out.put(Value::string("op"), Value::string(std::string(op)));
  out.put(Value::string(std::string(field)), value);
  return out.build();
}

bool descendingKey(const Value& v) { return v.isString() && v.str().size() > 1 && v.str()[0] == '-'; }

bool bindsBindings(const OpSpec& spec) {
  return std::any_of(spec.scopes.begin(), spec.scopes.end(),
                     [](const ScopeSpec& s) { return s.binds == Binds::Bindings; });
}

const FieldSpec* fieldOfKind(const OpSpec& spec, FieldKind kind) {
  for (const FieldSpec& f : spec.fields)
    if (f.kind == kind) return &f;
  return nullptr;
}

void checkOneOf(const OpSpec& spec, const Value& v, const std::string& path) {
  std::vector<std::string> group, present;
  for (const FieldSpec& f : spec.fields) {
    if (f.presence != Presence::OneOf) continue;
    group.push_back(f.name);
    if (v.find(f.name)) present.push_back(f.name);
  }
  if (group.empty() || present.size() == 1) return;
  std::string names = "'" + group[0] + "' or '" + group[1] + "'";
  fail(present.empty() ? ErrorCode::MissingField : ErrorCode::ConflictingFields, path,
       "Operation '" + std::string(spec.name) + "' requires exactly one of " + names +
           (present.empty() ? ", got neither" : ", got both") + ". Shape: " + opShape(spec));
}

std::string bareStringMessage(const OpSpec& spec, const FieldSpec& f, const Value& v) {
  std::string text = shortJson(v, 40);
  return "'" + std::string(f.name) + "' of '" + spec.name + "' is the bare text " + text +
         ", which is not read from the data. For a field of the current value write {\"op\": \"get\", \"field\": " +
         text + "}; for the text itself write {\"op\": \"literal\", \"value\": " + text +
         "}. The field's short form is " + shortJson(Value::string("$_." + v.str()), 44);
}

std::string constantConditionMessage(const OpSpec& spec, const FieldSpec& f, const Value& v) {
  const char* outcome = v.truthy() ? "always true" : "always false";
  return "'" + std::string(f.name) + "' of '" + spec.name + "' is the constant " + shortJson(v, 40) + ", so it is " +
         outcome +
         ". Write a condition that reads the data, e.g. {\"op\": \"eq\", \"field\": \"status\", "
         "\"value\": \"active\"} or {\"op\": \"get\", \"field\": \"active\"}" +
         (v.isObject() && !v.members().empty()
              ? std::string(". An equality map {\"status\": \"active\", ...} compares fields with texts, numbers, "
                            "booleans, null or references; compute other values with {\"op\": \"eq\", ...}")
              : std::string());
}

std::vector<std::string> opNames() {
  std::vector<std::string> names;
  for (const OpSpec& s : opTable()) names.push_back(s.name);
  return names;
}

std::vector<std::string> fieldNames(const OpSpec& spec) {
  std::vector<std::string> names;
  for (const FieldSpec& f : spec.fields) names.push_back(f.name);
  return names;
}

const Value& programOfEnvelope(const Value& document) {
  if (!document.isObject())
    throw PtcError(
        ErrorType::Parse, ErrorCode::NotAnObject,
        "Expected a JSON object of the form {\"program\": {\"op\": ...}}, got " + std::string(typeName(document)));
  const Value* program = document.find("program");
  if (!program) {
    std::vector<std::string> names;
    for (MemberRef m : document.members()) names.push_back(m.key.str());
    std::string keys = listNames(names);
    throw PtcError(ErrorType::Parse, ErrorCode::MissingProgram,
                   "Expected a JSON object of the form {\"program\": {\"op\": ...}}: the key "
                   "'program' is missing" +
                       (keys.empty() ? std::string() : " (found: " + keys + ")"));
  }
  if (!program->isObject() && !looksLikeReference(*program))  // {"program": "$orders"} reads a name
    throw PtcError(ErrorType::Parse, ErrorCode::NotAnObject,
                   "The value of 'program' must be an operation object such as {\"op\": "
                   "\"pipe\", \"steps\": [...]}, got " +
                       std::string(typeName(*program)));
  return *program;
}

}  // namespace ptc
