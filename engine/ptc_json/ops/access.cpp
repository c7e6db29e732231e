// Access and introspection: get, keys, typeof (and var's field or path,
// which reads inside a variable's value as get does).
#include <algorithm>
#include <optional>

#include "core/deadline.h"
#include "core/warnings.h"
#include "ptc_json/ops/ops.h"

namespace ptc {

namespace {

// A field of a list reads null: say how to reach its items' fields.
void warnFieldOfList(const Node& n, const std::string& field) {
  warn(ErrorCode::FieldOfList, n.path,
       quoted(n) + " reads field '" + field +
           "' of a list, which has no fields, so it is null. For that field of every item write {\"op\": \"map\", "
           "\"expr\": {\"op\": \"get\", \"field\": \"" +
           field + "\"}} (in a reference, \"*\" reads every item: \"$_.*." + field +
           "\"); for the first item's, put {\"op\": \"first\"} before it");
}

// A key that is a whole number ("0", "12", "-1") read of a list is a
// position: 0-based, negative from the end ("$v.0", "$v.-1"); none past
// either end. nullopt for any other key, which a list does not have.
std::optional<const Value*> listItem(const Value& list, const std::string& key) {
  const size_t digits = key.size() > 1 && key[0] == '-' ? 1 : 0;
  if (key.size() == digits || key.size() - digits > 9) return std::nullopt;
  int64_t at = 0;
  for (size_t i = digits; i < key.size(); ++i) {
    if (key[i] < '0' || key[i] > '9') return std::nullopt;
    at = at * 10 + (key[i] - '0');
  }
  const auto size = static_cast<int64_t>(list.items().size());
  if (digits) at = size - at;
  if (at < 0 || at >= size) return nullptr;
  return &list.items()[static_cast<size_t>(at)];
}

Value walk(const Node& n, const Value& in, size_t from);

Value get(const Node& n, const Value& in) {
  Value result;
  if (!n.usesPath) {
    if (in.isArray() && !n.field.isNone()) {
      if (std::optional<const Value*> item = listItem(in, n.field.str())) {
        result = *item ? **item : Value();
        return result.isNull() && n.hasDefault ? n.data : result;
      }
      warnFieldOfList(n, n.field.str());
    }
    result = fieldOf(n, in);
  } else {
    result = walk(n, in, 0);
  }
  if (result.isNull() && n.hasDefault) return n.data;
  return result;
}

// The key "*" of a path reads every item of a list: the rest of the path is
// read of each ("$orders.*.id": the ids). Null stays null; anything else is an
// error naming what the path met.
Value eachItem(const Node& n, const Value& list, size_t next) {
  if (list.isNull()) return list;
  if (!list.isArray())
    throwExecution(ErrorCode::TypeMismatch, n,
                   quoted(n) + " reads \"*\" (every item of a list) of " + std::string(typeName(list)) +
                       (list.isObject() ? ": for an object's values use {\"op\": \"to_entries\"}" : ""));
  Array out;
  out.reserve(list.items().size());
  for (const Value& item : list.items()) {
    tickDeadline();
    out.push_back(walk(n, item, next));
  }
  return Value::array(std::move(out));
}

// get's path from key `from` on: object keys, list positions, "*".
Value walk(const Node& n, const Value& in, size_t from) {
  Value result = in;
  for (size_t k = from; k < n.keys.size(); ++k) {
    const Value& key = n.keys[k];
    if (key.str() == "*") return eachItem(n, result, k + 1);
    if (result.isArray()) {
      if (std::optional<const Value*> item = listItem(result, key.str())) {
        result = *item ? **item : Value();
        if (result.isNull()) break;
        continue;
      }
      warnFieldOfList(n, key.str());
    }
    const Value* next = result.isObject() ? result.find(key.str()) : nullptr;
    if (result.isObject()) {
      if (!next) noteRead(n, false, result);
      else if (k + 1 == n.keys.size()) noteRead(n, true, result);
    }
    result = next ? *next : Value();
    if (result.isNull()) {
      if (next) noteRead(n, true, result);  // a null on the way is there, not misspelt
      break;
    }
  }
  return result;
}

Value keys(const Node& n, const Value& in) {
  if (!in.isObject())
    throwExecution(ErrorCode::TypeMismatch, n, "'keys' expects an object, got " + std::string(typeName(in)));
  Array out;
  out.reserve(in.members().size());
  if (const uint32_t* index = in.keyIndex()) {  // a wide object knows its key order
    for (size_t i = 0; i < in.members().size(); ++i) out.push_back(in.members()[index[i]].key);
    return Value::array(std::move(out));
  }
  MemberSpan members = in.members();  // a handful (a wide object has its index)
  uint32_t order[Value::kIndexFrom];
  for (uint32_t i = 0; i < members.size(); ++i) order[i] = i;
  sortPositions(order, members.size(),
                [&](uint32_t a, uint32_t b) { return members.key(a).str() < members.key(b).str(); });
  for (size_t i = 0; i < members.size(); ++i) out.push_back(members.key(order[i]));
  return Value::array(std::move(out));
}

}  // namespace

Value readVarValue(const Node& n, const Value& v) { return n.usesPath || !n.field.isNone() ? get(n, v) : v; }

Value applyGet(const Node& n, const Value& in, const Value*, size_t) { return get(n, in); }

Value applyKeys(const Node& n, const Value& in, const Value*, size_t) { return keys(n, in); }

Value applyTypeof(const Node&, const Value& in, const Value*, size_t) { return Value::string(typeName(in)); }

}  // namespace ptc
