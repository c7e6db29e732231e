// A compiled program: operation names resolved to enums and fields to slots,
// once, so evaluation never compares op strings.
#pragma once

#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/limits.h"
#include "core/value.h"
#include "core/warnings.h"
#include "ptc_json/op.h"

namespace ptc {

// A loop's max is at most this many iterations.
inline constexpr int64_t kMaxLoopIterations = 1000;

struct Node {
  Op op = Op::Literal;
  bool readsInput = false;                  // from the op table
  bool hasCall = false;                     // this subtree calls a tool: evaluate it on the resumable path
  bool valueSeesMapItem = false;            // comparison: `value` is evaluated against the enclosing map's item
  std::string path;                         // JSON Pointer, for errors
  std::vector<std::unique_ptr<Node>> kids;  // expression fields, in the table's field order
  std::vector<Value> keys;                  // object/args keys, select fields, get path
  Value name;                               // var/load/let name, tool name
  Value field;                              // "field" of the op; None when omitted or null
  Value data;                               // literal value, get default
  bool hasDefault = false;
  bool descending = false;
  bool ordered = false;     // `order` given (group_by: its groups sorted by key)
  bool usesPath = false;    // get with path (else with field)
  bool valueGiven = false;  // a value-level op with a `value` expression: kids[0]
  // load compiled from "$name" (reference.h): memory first, then the context;
  // a name neither holds is an error (unknown_variable), not null.
  bool memoryFirst = false;
  int64_t count = 0;  // nth index, take/drop count, round precision
  // For each field of the op (table order), the index in kids of its first
  // expression, or -1 when absent (fields compile in table order, so a list
  // field's expressions run to the next present field's). Empty: no kids.
  std::vector<int32_t> slots;
  // The name a control op's Literal scope binds (op_table.h: ScopeSpec):
  // scan's and reduce's "acc", try's "error". None when it has none.
  Value scopeName;
  // sort_by: the keys in order, each a field (None: the item itself) and descending.
  std::vector<std::pair<Value, bool>> sortKeys;
  uint8_t plan = 0;  // filter: how it may run faster with the same result (planner.h)
  // Where `field` was found in the last object read (Value::find's hint): a
  // cache that changes no result, so evaluation of a const Node may update it.
  mutable uint32_t fieldHint = 0;
  // A node that reads a named field (or get's path): its slot in the run's
  // tally of field reads (core/warnings.h), -1 for the others.
  int32_t readSlot = -1;

  // The expression of field f (an Expr field), or nullptr when it is absent.
  const Node* kid(FieldRef f) const {
    if (f.index >= slots.size() || slots[f.index] < 0) return nullptr;
    return kids[static_cast<size_t>(slots[f.index])].get();
  }
  // The expressions of field f (an ExprList or ExprFields field, or one
  // Expr): empty when it is absent.
  std::span<const std::unique_ptr<Node>> kidsOf(FieldRef f) const { return kidsOfField(f.index); }
  std::span<const std::unique_ptr<Node>> kidsOfField(size_t index) const {
    if (index >= slots.size() || slots[index] < 0) return {};
    const auto from = static_cast<size_t>(slots[index]);
    size_t to = kids.size();
    for (size_t j = index + 1; j < slots.size(); ++j)
      if (slots[j] >= 0) {
        to = static_cast<size_t>(slots[j]);
        break;
      }
    return std::span<const std::unique_ptr<Node>>(kids).subspan(from, to - from);
  }
};

struct Program {
  std::unique_ptr<Node> root;
  std::vector<std::string> loads;  // context keys the program may load
  // Of those, the ones it reads only through these fields of their items
  // (projection.h): the host may send just them.
  std::map<std::string, std::vector<std::string>> projections;
  bool hasCall = false;
  std::vector<const Node*> reads;  // the field-reading nodes, by readSlot
  std::vector<Warning> warnings;   // what the program's shape alone warns of (doubled_program)
};

struct CompileOptions {
  int maxDepth = limits::maxDepthDefault;
  bool toolsKnown = false;
  std::vector<std::string> tools;
  // Tools' declared results (JSON Schema), by name: reads of fields they cannot
  // have warn before the run (returns_check.h).
  std::map<std::string, Value> returns;
};

// The warnings a program gives before it runs: its own, and with the context
// keys known (validate/analyze given them), each load of a key not among them.
std::vector<Warning> staticWarnings(const Program& program, const std::vector<std::string>* contextKeys);
// The message of a load of a key the context does not have: `keys` are those it has.
std::string unknownContextKeyMessage(const std::string& key, const NearestNames& keys);
// The warnings of the run's field reads: each reading node that met no object
// having its field (field_not_found, dotted_field).
void fieldReadWarnings(const Program& program, Warnings& warnings);
// How many reads of named fields a node makes with a slot each: select's
// fields, sort_by's `by` keys (its slots are readSlot, readSlot + 1, ...); 0
// for a node whose reads share one slot (its field, get's path).
size_t keyReads(const Node& node);

// Validates the value of the envelope's "program" key and compiles it. Throws
// PtcError(validation_error) with the JSON Pointer of the first offending node.
std::shared_ptr<const Program> compileProgram(const Value& program, const CompileOptions& options);

// Checks the envelope {"program": {...}}; throws PtcError(parse_error) otherwise.
const Value& programOfEnvelope(const Value& document);

}  // namespace ptc
