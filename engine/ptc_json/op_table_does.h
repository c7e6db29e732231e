// How an op table entry says what the op does (OpSpec's behaviour fields,
// op_table.h): the `does({...}, entry)` builder op_table.cpp wraps each entry
// in, and the rules an entry's behaviour must keep, checked while the table is
// built at compile time. Included by op_table.cpp alone.
#pragma once

#include <optional>
#include <string_view>

#include "ptc_json/op_table.h"

namespace ptc::op_entry {

// What an op does (OpSpec's behaviour, op_table.h). A strict op names its
// apply function; a control op its Control case and how often it runs its
// expressions (`runs`, no default: the analysis counts calls by it). The rest
// default to what is always correct (an opaque op that may give an object).
struct Does {
  // Whether a function is named, not its address, is what a constant expression
  // may test (under -fsanitize=undefined a function's address is not known to
  // be non-null at compile time).
  std::optional<ApplyFn> apply = std::nullopt;
  Control control = Control::None;
  std::optional<Runs> runs = std::nullopt;
  bool setsMapItem = false;
  bool neverAnObject = false;
  bool refusesCalls = false;
  ShortForm shortForm = ShortForm::None;
  RowRole rows = RowRole::Opaque;
  Sees sees = Sees::Unmodelled;
  bool readsItemFields = false;
  Gives gives = Gives::New;
};

constexpr bool hasField(const OpSpec& spec, std::string_view name) {
  for (const FieldSpec& f : spec.fields)
    if (f.name == name) return true;
  return false;
}

// An expression field that is not a condition: what a control op's value may be.
constexpr bool hasValueExpression(const OpSpec& spec) {
  for (const FieldSpec& f : spec.fields)
    if ((f.kind == FieldKind::Expr || f.kind == FieldKind::ExprList) && f.role != Role::Predicate) return true;
  return false;
}

// A projection role (RowRole) says how loaded rows pass through an op; its
// item flow (sees, readsItemFields, gives) says the same of a tool result's
// items: an op given a role declares the flow, and the two cannot disagree.
constexpr bool itemsFlowAsRowsDo(const Does& d) {
  switch (d.rows) {
    case RowRole::Filter: return d.sees == Sees::EachItem && d.gives == Gives::SameItems;
    case RowRole::Map: return d.sees == Sees::EachItem && d.gives == Gives::EachResult;
    case RowRole::Slice: return d.sees == Sees::Input && d.gives == Gives::SameItems;
    case RowRole::Pick:
    case RowRole::PickAt: return d.sees == Sees::Input && d.gives == Gives::OneItem;
    case RowRole::FilterIn:
    case RowRole::Sort: return d.readsItemFields && d.gives == Gives::SameItems;
    case RowRole::PickBy: return d.readsItemFields && d.gives == Gives::OneItem;
    case RowRole::Aggregate:
    case RowRole::Select: return d.readsItemFields && d.gives == Gives::New;
    case RowRole::Opaque:
    case RowRole::Constant:
    case RowRole::FieldRead:
    case RowRole::Logic:
    case RowRole::Compare:
    case RowRole::Count:
    case RowRole::Group: return true;
  }
  return false;
}

// What the check of declared results and the analysis read of an op is
// something it does: a field of its items is a field it has, its expression
// sees each item only when it runs per item, a list of items is never an
// object and one item may be, and only a control op gives one of its
// expressions' values.
constexpr void checkItemFlow(const Does& d, const OpSpec& spec) {
  const bool givesList = d.gives == Gives::SameItems || d.gives == Gives::EachResult;
  if (!itemsFlowAsRowsDo(d)) throw "an op's items flow (sees, readsItemFields, gives) as its RowRole says rows do";
  if (d.readsItemFields && !(hasField(spec, "field") || hasField(spec, "fields") || hasField(spec, "by")))
    throw "an op reading fields of its items has a `field` (or `fields`, `by`)";
  if (d.readsItemFields && d.sees != Sees::Input)
    throw "an op reading fields of its items has expressions seeing its input";
  if (d.sees == Sees::EachItem && d.runs != Runs::PerItem) throw "only an op that runs per item sees each item";
  if (d.setsMapItem && d.sees != Sees::EachItem) throw "only an op whose expression sees each item sets the map item";
  if ((givesList || d.gives == Gives::OneItem) && !spec.readsInput) throw "an op giving its input's items reads one";
  if (givesList && !d.neverAnObject) throw "a list of items is never an object: say neverAnObject";
  if (d.gives == Gives::OneItem && d.neverAnObject) throw "an item may be an object";
  if ((d.gives == Gives::LastKid || d.gives == Gives::OneOfKids) &&
      (d.control == Control::None || !hasValueExpression(spec)))
    throw "only a control op gives one of its expressions' values (not a condition's); an applied op makes its own";
}

// An entry that breaks a rule stops the table's compile-time evaluation here
// (a throw is not a constant expression): the compiler names the entry.
constexpr OpSpec does(Does d, OpSpec spec) {
  if (d.apply.has_value() == (d.control != Control::None))
    throw "an op has either an apply function or a Control case, not both";
  if ((d.control == Control::None) == d.runs.has_value())
    throw "a control op says how often it runs its expressions (runs), a strict op does not";
  if (d.setsMapItem && d.runs != Runs::PerItem) throw "only an op that runs its expression per item has a map item";
  if (d.refusesCalls && d.runs != Runs::PerItem) throw "only an op that runs its expressions per item refuses calls";
  checkItemFlow(d, spec);
  spec.apply = d.apply.value_or(nullptr);
  spec.control = d.control;
  spec.runs = d.runs.value_or(Runs::Once);
  spec.setsMapItem = d.setsMapItem;
  spec.neverAnObject = d.neverAnObject;
  spec.refusesCalls = d.refusesCalls;
  spec.shortForm = d.shortForm;
  spec.rows = d.rows;
  spec.sees = d.sees;
  spec.readsItemFields = d.readsItemFields;
  spec.gives = d.gives;
  return spec;
}

}  // namespace ptc::op_entry
