#include "ptc_json/op_table.h"

#include <array>
#include <initializer_list>
#include <string_view>

#include "ptc_json/op_table_entries.h"
#include "ptc_json/op_table_keyed.h"

namespace ptc {

namespace {

using op_entry::hasField;

// The entries, each with its keyed form's field (op_table_keyed.h).
constexpr std::array<OpSpec, kOpCount> specsOf(const std::array<op_entry::Entry, kOpCount>& entries) {
  std::array<OpSpec, kOpCount> out{};
  for (size_t i = 0; i < entries.size(); ++i) out[i] = entries[i].spec();
  for (const KeyedForm& k : kKeyedForms) out[static_cast<size_t>(k.op)].keyed = k.field;
  return out;
}

// A keyed form's key holds a field of its op, named once in the column, and
// the op's name is none of its fields (the object's other keys are fields).
constexpr bool keyedFormsHoldTheirFields(const std::array<OpSpec, kOpCount>& table) {
  for (const KeyedForm& k : kKeyedForms) {
    const OpSpec& spec = table[static_cast<size_t>(k.op)];
    if (!hasField(spec, k.field) || hasField(spec, spec.name)) return false;
    int named = 0;
    for (const KeyedForm& other : kKeyedForms) named += other.op == k.op;
    if (named != 1) return false;
  }
  return true;
}

// specOf finds an op's entry by its enum value: a table out of step with the
// enum (an op left out, added twice or out of order) does not compile.
constexpr bool inEnumOrder(const std::array<OpSpec, kOpCount>& table) {
  for (size_t i = 0; i < table.size(); ++i)
    if (table[i].op != static_cast<Op>(i)) return false;
  return true;
}

constexpr bool hasAs(const OpSpec& spec) { return hasField(spec, "as"); }

// `as` is bound by the evaluators' item scopes: only control ops have one.
constexpr bool asOnlyOnControlOps(const std::array<OpSpec, kOpCount>& table) {
  for (const OpSpec& spec : table)
    if (hasAs(spec) && spec.control == Control::None) return false;
  return true;
}

constexpr bool hasFields(const OpSpec& spec, std::initializer_list<std::string_view> names) {
  for (std::string_view name : names)
    if (!hasField(spec, name)) return false;
  return true;
}

// What the compiler and the planner read of an op with a short form or the
// Compare role are fields it has.
constexpr bool shapesHaveTheirFields(const std::array<OpSpec, kOpCount>& table) {
  for (const OpSpec& spec : table) {
    if (spec.shortForm == ShortForm::Condition && !hasFields(spec, {"where", "field", "value"})) return false;
    if (spec.shortForm == ShortForm::Expr && !hasFields(spec, {"expr", "field"})) return false;
    if (spec.shortForm == ShortForm::Items && !hasFields(spec, {"where"})) return false;
    if (spec.shortForm == ShortForm::Key && !hasFields(spec, {"key", "field"})) return false;
    if (spec.rows == RowRole::Compare && !(spec.valueSeesMapItem && hasFields(spec, {"field", "value"}))) return false;
  }
  return true;
}

// Every Control case is some op's: none is left in the evaluators unused.
constexpr bool everyControlUsed(const std::array<OpSpec, kOpCount>& table) {
  for (auto c = static_cast<uint8_t>(Control::Literal); c <= static_cast<uint8_t>(Control::Call); ++c) {
    bool used = false;
    for (const OpSpec& spec : table) used = used || spec.control == static_cast<Control>(c);
    if (!used) return false;
  }
  return true;
}

}  // namespace

constexpr std::array<OpSpec, kOpCount> kOpSpecs = specsOf(op_entry::kEntries);
static_assert(inEnumOrder(kOpSpecs), "the op table must hold one entry per Op, in enum order");
static_assert(asOnlyOnControlOps(kOpSpecs), "an op with an `as` field is a control op (the evaluators bind it)");
static_assert(everyControlUsed(kOpSpecs), "a Control case no op uses");
static_assert(keyedFormsHoldTheirFields(kOpSpecs), "a keyed form names a field its op has, once, not its own name");
static_assert(shapesHaveTheirFields(kOpSpecs), "a short form or a Compare role on an op without the fields it reads");

bool bindsAs(const OpSpec& spec) { return hasAs(spec); }

}  // namespace ptc
