// The warnings of PTC-JSON programs (core/warnings.h) decided outside the
// evaluator: before a run (the program's shape, loads of context keys that
// validate/analyze know are absent) and at its end (field reads that never
// found their field).
#include <algorithm>
#include <functional>

#include "core/suggest.h"
#include "ptc_json/op_table.h"
#include "ptc_json/program.h"

namespace ptc {

namespace {

std::string opOf(const Node& n) { return "'" + std::string(specOf(n.op).name) + "'"; }

// select reads each of its `fields` (Node::keys), sort_by each key of its
// `by` (Node::sortKeys): their row roles say which.
bool selects(const Node& n) { return specOf(n.op).rows == RowRole::Select; }

// The field of n that lists the keys it reads: select's `fields`, sort_by's `by`.
const char* keysField(const Node& n) {
  for (const FieldSpec& f : specOf(n.op).fields)
    if (f.kind == FieldKind::Names || f.kind == FieldKind::SortKeys) return f.name;
  return "";
}

// The name a read missed on `object`: select's field or sort_by's key number
// `key`, its field, or the first key of its path the object lacks.
std::string missedName(const Node& n, size_t key, const Value& object) {
  if (keyReads(n)) return selects(n) ? n.keys[key].str() : n.sortKeys[key].first.str();
  if (!n.usesPath) return n.field.str();
  // The object is where the walk stopped: the deepest key it lacks.
  for (auto key = n.keys.rbegin(); key != n.keys.rend(); ++key)
    if (!object.find(key->str())) return key->str();
  return n.keys.empty() ? "" : n.keys.back().str();
}

// "customer.tier" when the objects have "customer": a path written as one name.
bool dottedPath(const std::string& name, const Value& object) {
  size_t dot = name.find('.');
  return dot != std::string::npos && dot > 0 && object.find(name.substr(0, dot)) != nullptr;
}

// Where a read is warned of: its node, or for a per-key read the key's entry
// (so that two misspelt fields of one select are two warnings).
std::string readPath(const Node& n, size_t key) {
  if (!keyReads(n)) return n.path;
  return n.path + "/" + keysField(n) + "/" + std::to_string(key);
}

Warning fieldWarning(const Node& n, size_t key, const Value& object) {
  const std::string name = missedName(n, key, object);
  const std::string path = readPath(n, key);
  if (dottedPath(name, object))
    return Warning{ErrorCode::DottedField, path,
                   opOf(n) + " reads field '" + name + "', which no object it read has: a field name is one key, " +
                       "not a path. Read the nested field with {\"op\": \"get\", \"path\": " + pathLiteral(name) +
                       "}: a pipe step before " + opOf(n) + " for one object, or a map before it for a list"};
  NearestNames fields(name);
  offerKeys(fields, object);
  return Warning{ErrorCode::FieldNotFound, path,
                 opOf(n) + " reads field '" + name + "', which no object it read has, so it read null." +
                     namesHint(fields, "fields of those objects")};
}

void eachNode(const Node& n, const std::function<void(const Node&)>& visit) {
  visit(n);
  for (const auto& kid : n.kids) eachNode(*kid, visit);
}

}  // namespace

size_t keyReads(const Node& node) {
  if (selects(node)) return node.keys.size();
  const bool byKeys = specOf(node.op).rows == RowRole::Sort && node.field.isNone() && !node.sortKeys.empty() &&
                      !node.sortKeys.front().first.isNone();
  return byKeys ? node.sortKeys.size() : 0;
}

std::string unknownContextKeyMessage(const std::string& key, const NearestNames& keys) {
  return "'load' reads context key '" + key + "', which the context does not have, so it is null." +
         namesHint(keys, "context keys");
}

std::vector<Warning> staticWarnings(const Program& program, const std::vector<std::string>* contextKeys) {
  std::vector<Warning> out = program.warnings;
  if (!contextKeys) return out;
  std::vector<std::string> keys = *contextKeys;  // sorted, each once: looked up by binary search
  sortUnique(keys);
  eachNode(*program.root, [&](const Node& n) {
    if (specOf(n.op).control != Control::Load) return;
    const std::string& key = n.name.str();
    if (std::binary_search(keys.begin(), keys.end(), key)) return;
    NearestNames near(key);
    for (const std::string& k : keys) near.offer(k);
    std::string message = unknownContextKeyMessage(key, near);
    if (n.memoryFirst)  // "$key": memory, which validate does not see, may still hold it
      message = "\"$" + key + "\" names no let or 'as' binding in scope and no context key, so the run fails " +
                "unless memory holds '" + key + "'." + namesHint(near, "context keys");
    out.push_back(Warning{ErrorCode::UnknownContextKey, n.path, std::move(message)});
  });
  return out;
}

void fieldReadWarnings(const Program& program, Warnings& warnings) {
  const size_t slots = std::min(warnings.slotCount(), program.reads.size());
  for (size_t i = 0; i < slots; ++i)
    if (const Value* object = warnings.missedOnly(i)) {
      const Node& n = *program.reads[i];
      const size_t key = i - static_cast<size_t>(n.readSlot);
      // A read the tool's declared result already warned of (returns_check.h) is said once.
      if (!warnings.has(ErrorCode::UnknownResultField, readPath(n, key))) warnings.add(fieldWarning(n, key, *object));
    }
  warnings.forgetReads();
}

}  // namespace ptc
