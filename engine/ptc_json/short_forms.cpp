// See short_forms.h.
#include "ptc_json/short_forms.h"

#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/json_pointer.h"
#include "core/suggest.h"
#include "ptc_json/op_table.h"

namespace ptc {

namespace {

// The op whose keyed form a key names, or null.
const OpSpec* keyedOp(std::string_view key) {
  const OpSpec* spec = findOp(key);
  return spec && spec->keyed ? spec : nullptr;
}

bool isPipeForm(const Value& v) { return v.find("pipe") != nullptr; }

// What a message says of data shaped like a short form: how to keep it data.
std::string asData(const std::string& key) {
  return " For data whose key is \"" + key +
         "\" write {\"op\": \"literal\", \"value\": ...} (or {\"op\": \"object\", \"fields\": ...} to compute its "
         "values)";
}

// The other keys of a keyed form are fields of its op, other than the one its key holds.
void checkKeys(const OpSpec& spec, const Value& v, const std::string& path) {
  const std::string name = spec.name;
  const std::string form = "An object whose first key is \"" + name + "\" is the operation " + name + ": " +
                           keyedShape(spec) + ", its other keys " + name + "'s fields.";
  for (size_t i = 1; i < v.members().size(); ++i) {
    const std::string& key = v.members()[i].key.str();
    if (key == spec.keyed)
      fail(ErrorCode::ConflictingFields, childPath(path, key),
           form + " Its '" + key + "' is the value of \"" + name + "\": give it once." + asData(name));
    if (findField(spec, key)) continue;
    std::vector<std::string> names;
    for (const FieldSpec& f : spec.fields)
      if (f.name != std::string_view(spec.keyed)) names.push_back(f.name);
    std::string hint = didYouMean(key, names);
    if (hint.empty()) hint = names.empty() ? " It takes no other key." : " Its other keys: " + listNames(names) + ".";
    fail(ErrorCode::UnknownField, childPath(path, key),
         form + " '" + key + "' is not one of them." + hint + asData(name));
  }
}

}  // namespace

bool isShortFormOp(const Value& v) {
  if (!v.isObject() || v.members().empty() || v.find("op")) return false;
  return isPipeForm(v) || keyedOp(v.members()[0].key.str());
}

ExpandedForm expandShortForm(const Value& v, const std::string& path) {
  if (isPipeForm(v)) {  // "pipe" anywhere: the form of the first round, its key alone
    const Value& steps = v.field("pipe");
    if (v.members().size() != 1 || !steps.isArray())
      fail(v.members().size() != 1 ? ErrorCode::UnknownField : ErrorCode::WrongKind, path,
           "An object with a \"pipe\" key is a pipe: {\"pipe\": [step, ...]}, the key alone holding a list of "
           "steps, got " +
               shortJson(v, 60) +
               ". For data with a \"pipe\" key write {\"op\": \"literal\", \"value\": ...} or "
               "{\"op\": \"object\", \"fields\": ...}");
  }
  const std::string key = isPipeForm(v) ? "pipe" : v.members()[0].key.str();
  const OpSpec& spec = *keyedOp(key);
  checkKeys(spec, v, path);
  ObjectBuilder op;
  op.put(Value::string("op"), Value::string(spec.name));
  op.put(Value::string(spec.keyed), v.field(key));
  for (size_t i = 1; i < v.members().size(); ++i) op.put(v.members()[i].key, v.members()[i].value);
  return ExpandedForm{op.build(), spec.keyed, childPath(path, key)};
}

namespace {

// A typing slip: one letter added, dropped or changed, or two neighbours
// swapped ("retyr", "cal", "for_eahc"); not the plural ("returns" is data).
bool oneSlipApart(std::string_view a, std::string_view b) {
  if (a == b || a == std::string(b) + "s") return false;
  if (a.size() < b.size()) std::swap(a, b);
  if (a.size() - b.size() > 1) return false;
  size_t i = 0;
  while (i < b.size() && a[i] == b[i]) ++i;
  if (a.size() != b.size()) return a.substr(i + 1) == b.substr(i);
  if (a.substr(i + 1) == b.substr(i + 1)) return true;
  return i + 1 < a.size() && a[i] == b[i + 1] && a[i + 1] == b[i] && a.substr(i + 2) == b.substr(i + 2);
}

// Whether every key of v but `except` is a field of the op (other than the one its key holds).
bool othersAreFields(const OpSpec& spec, const Value& v, const Value* exceptKey) {
  for (MemberRef other : v.members())
    if (&other.key != exceptKey && (!findField(spec, other.key.str()) || other.key.str() == spec.keyed)) return false;
  return true;
}

}  // namespace

void checkKeyedOrder(const Value& v, const std::string& path) {
  if (!v.isObject() || v.members().size() < 2 || v.find("op") || isShortFormOp(v)) return;
  const std::string& first = v.members()[0].key.str();
  for (MemberRef m : v.members()) {
    const OpSpec* spec = keyedOp(m.key.str());
    if (!spec || !othersAreFields(*spec, v, &m.key)) continue;
    fail(ErrorCode::UnknownField, childPath(path, first),
         "This object holds \"" + m.key.str() + "\" and " + spec->name + "'s fields, but '" + first +
             "' comes first, so it is data, not the operation: a keyed form's key is its first, " + keyedShape(*spec) +
             "." + asData(m.key.str()));
  }
  // A misspelt key of a keyed form ({"calll": "t", "args": {...}}): one slip from the name of a
  // keyed op of 4 letters or more (not "id" for "if"), its other keys that op's fields.
  for (const OpSpec& spec : opTable()) {
    if (!spec.keyed || std::string_view(spec.name).size() < 4 || !oneSlipApart(first, spec.name)) continue;
    if (!othersAreFields(spec, v, &v.members().key(0))) continue;
    fail(ErrorCode::UnknownOp, childPath(path, first),
         "Unknown keyed operation '" + first + "'. Did you mean '" + spec.name +
             "'? An object whose first key is an operation's name is that operation: " + keyedShape(spec) + "." +
             asData(first));
  }
}

}  // namespace ptc
