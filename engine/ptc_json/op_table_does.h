// How an op table entry says what the op does (OpSpec's behaviour fields,
// op_table.h): the `does({...}, entry)` builder op_table_entries.h wraps each entry
// in, and the rules an entry's behaviour must keep, checked while the table is
// built at compile time. Included by op_table_entries.h alone.
#pragma once

#include <optional>
#include <string_view>

#include "ptc_json/op_table.h"

namespace ptc::op_entry {

// What an op does (OpSpec's behaviour, op_table.h). A strict op names its
// apply function; a control op its Control case and how often it runs its
// expressions (`runs`, no default: the analysis counts calls by it). The rest
// default to what is always correct (an opaque op that may give an object).
// An apply function, named: `.apply = nullptr` does not compile.
struct Apply {
  ApplyFn fn;
  constexpr Apply(ApplyFn f) : fn(f) {}  // NOLINT(google-explicit-constructor): `.apply = applySum`
  Apply(std::nullptr_t) = delete;
};

struct Does {
  // Whether a function is named, not its address, is what a constant expression
  // may test (under -fsanitize=undefined a function's address is not known to
  // be non-null at compile time).
  std::optional<Apply> apply = std::nullopt;
  Control control = Control::None;
  std::optional<Runs> runs = std::nullopt;
  bool setsMapItem = false;
  bool rejects = false;
  bool neverAnObject = false;
  bool refusesCalls = false;
  ShortForm shortForm = ShortForm::None;
  RowRole rows = RowRole::Opaque;
  Sees sees = Sees::Unmodelled;
  bool readsItemFields = false;
  Gives gives = Gives::New;
  // An aggregate group_by folds while grouping (count, sum, avg, min, max).
  Folds folds = Folds::None;
  // The names it binds and the fields that see them (control ops only).
  OpScopes scopes = {};
  Equality equality = Equality::None;
  bool picksFirst = false;
};

// An entry of the table: only `does` makes one, so an entry without its
// behaviour (a null apply, an unchecked flow or scope) cannot be written.
class Entry {
 public:
  constexpr const OpSpec& spec() const { return spec_; }

 private:
  constexpr explicit Entry(const OpSpec& spec) : spec_(spec) {}
  friend constexpr Entry does(Does d, OpSpec spec);
  OpSpec spec_;
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
// items. The flow a role implies is derived from it, never written beside it.
struct Flow {
  Sees sees;
  bool readsItemFields;
  Gives gives;
};

constexpr std::optional<Flow> flowOfRole(RowRole rows) {
  switch (rows) {
    case RowRole::Filter: return Flow{Sees::EachItem, false, Gives::SameItems};
    case RowRole::Map: return Flow{Sees::EachItem, false, Gives::EachResult};
    case RowRole::Slice: return Flow{Sees::Input, false, Gives::SameItems};
    case RowRole::Pick:
    case RowRole::PickAt: return Flow{Sees::Input, false, Gives::OneItem};
    case RowRole::FilterIn:
    case RowRole::Sort: return Flow{Sees::Input, true, Gives::SameItems};
    case RowRole::PickBy: return Flow{Sees::Input, true, Gives::OneItem};
    case RowRole::Aggregate:
    case RowRole::Select: return Flow{Sees::Input, true, Gives::New};
    case RowRole::Opaque:
    case RowRole::Constant:
    case RowRole::FieldRead:
    case RowRole::Logic:
    case RowRole::Compare:
    case RowRole::Count:
    case RowRole::Group: return std::nullopt;
  }
  return std::nullopt;
}

// The flow its role implies, and a list of items is never an object.
constexpr Does derived(Does d) {
  if (std::optional<Flow> flow = flowOfRole(d.rows)) {
    if (d.sees != Sees::Unmodelled || d.readsItemFields || d.gives != Gives::New)
      throw "an op's items flow (sees, readsItemFields, gives) is derived from its RowRole: leave it out";
    d.sees = flow->sees;
    d.readsItemFields = flow->readsItemFields;
    d.gives = flow->gives;
  }
  if (d.gives == Gives::SameItems || d.gives == Gives::EachResult) {
    if (d.neverAnObject) throw "a list of items is never an object: that is derived, leave neverAnObject out";
    d.neverAnObject = true;
  }
  return d;
}

constexpr bool isExpressionKind(FieldKind kind) {
  return kind == FieldKind::Expr || kind == FieldKind::ExprList || kind == FieldKind::ExprFields;
}

// The field named `name` (a part of a space-separated list), or -1.
constexpr int fieldAt(const OpSpec& spec, std::string_view name) {
  for (size_t i = 0; i < spec.fields.size(); ++i)
    if (spec.fields[i].name == name) return static_cast<int>(i);
  return -1;
}

// A scope's fields are expression fields of the op, named; an `as` field is
// bound by an As scope and an As scope reads one; a Literal names its name.
constexpr OpScopes checkedScopes(const Does& d, const OpSpec& spec) {
  OpScopes out;
  bool hasAsScope = false;
  int literals = 0;
  for (ScopeSpec s : d.scopes) {
    if (d.control == Control::None) throw "only a control op binds names (the evaluators bind them)";
    if (!s.seenBy || !*s.seenBy) throw "a scope says which fields see it (seenBy)";
    std::string_view names = s.seenBy;
    s.fields = 0;
    while (!names.empty()) {
      const size_t space = names.find(' ');
      const std::string_view name = names.substr(0, space);
      const int i = fieldAt(spec, name);
      if (i < 0) throw "a scope's seenBy names a field the op does not have";
      if (!isExpressionKind(spec.fields[static_cast<size_t>(i)].kind)) throw "a scope is seen by expression fields";
      s.fields = static_cast<uint8_t>(s.fields | (1u << i));
      names = space == std::string_view::npos ? std::string_view() : names.substr(space + 1);
    }
    if (s.binds == Binds::As) hasAsScope = true;
    if (s.binds == Binds::Literal && (!s.name || !*s.name)) throw "a Literal scope names the name it binds";
    if (s.binds != Binds::Literal && s.name) throw "only a Literal scope has a name of its own";
    literals += s.binds == Binds::Literal;
    if (s.binds == Binds::Bindings && (fieldAt(spec, "bindings") < 0 || fieldAt(spec, "name") < 0))
      throw "a Bindings scope binds its op's `name` or `bindings`";
    out.push_back(s);
  }
  if (d.sees == Sees::EachItem) {
    int seen = 0;
    for (const ScopeSpec& s : out)
      if (s.binds == Binds::As)
        for (size_t i = 0; i < spec.fields.size(); ++i) seen += s.seenByField(i);
    if (seen != 1) throw "an op seeing each item binds `as` for exactly one field: the expression run per item";
  }
  if (hasAsScope != hasField(spec, "as")) throw "an op with an `as` field declares an As scope, and only such an op";
  if (literals > 1) throw "an op binds at most one literal name (Node::scopeName)";
  return out;
}

// The fields a field excludes are fields of the op, and the error says why.
constexpr void checkExcludes(const OpSpec& spec) {
  for (const FieldSpec& f : spec.fields) {
    if (!f.excludes) continue;
    if (!f.conflict || !*f.conflict) throw "a field excluding others says what the error tells (conflict)";
    std::string_view names = f.excludes;
    while (!names.empty()) {
      const size_t space = names.find(' ');
      if (fieldAt(spec, names.substr(0, space)) < 0) throw "a field excludes a field the op does not have";
      names = space == std::string_view::npos ? std::string_view() : names.substr(space + 1);
    }
  }
}

// What the check of declared results and the analysis read of an op is
// something it does: a field of its items is a field it has, its expression
// sees each item only when it runs per item, a list of items is never an
// object and one item may be, and only a control op gives one of its
// expressions' values.
constexpr void checkItemFlow(const Does& d, const OpSpec& spec) {
  const bool givesList = d.gives == Gives::SameItems || d.gives == Gives::EachResult;
  if (d.readsItemFields && !(hasField(spec, "field") || hasField(spec, "fields") || hasField(spec, "by")))
    throw "an op reading fields of its items has a `field` (or `fields`, `by`)";
  if (d.readsItemFields && d.sees != Sees::Input)
    throw "an op reading fields of its items has expressions seeing its input";
  if (d.sees == Sees::EachItem && d.runs != Runs::PerItem) throw "only an op that runs per item sees each item";
  if (d.setsMapItem && d.sees != Sees::EachItem) throw "only an op whose expression sees each item sets the map item";
  if ((givesList || d.gives == Gives::OneItem) && !spec.readsInput) throw "an op giving its input's items reads one";
  if (givesList && !d.neverAnObject) throw "a list of items is never an object";
  if (d.gives == Gives::OneItem && d.neverAnObject) throw "an item may be an object";
  if ((d.gives == Gives::LastKid || d.gives == Gives::OneOfKids) &&
      (d.control == Control::None || !hasValueExpression(spec)))
    throw "only a control op gives one of its expressions' values (not a condition's); an applied op makes its own";
}

// An entry that breaks a rule stops the table's compile-time evaluation here
// (a throw is not a constant expression): the compiler names the entry.
constexpr Entry does(Does given, OpSpec spec) {
  const Does d = derived(given);
  if (d.apply.has_value() == (d.control != Control::None))
    throw "an op has either an apply function or a Control case, not both";
  if ((d.control == Control::None) == d.runs.has_value())
    throw "a control op says how often it runs its expressions (runs), a strict op does not";
  if (d.setsMapItem && d.runs != Runs::PerItem) throw "only an op that runs its expression per item has a map item";
  if (d.refusesCalls && d.runs != Runs::PerItem) throw "only an op that runs its expressions per item refuses calls";
  checkItemFlow(d, spec);
  spec.apply = d.apply ? d.apply->fn : nullptr;
  spec.control = d.control;
  spec.runs = d.runs.value_or(Runs::Once);
  if (d.rejects && d.control != Control::Filter && d.control != Control::Quantify)
    throw "only a filtering op (Control::Filter) or a quantifier (all) rejects";
  spec.setsMapItem = d.setsMapItem;
  spec.rejects = d.rejects;
  spec.neverAnObject = d.neverAnObject;
  spec.refusesCalls = d.refusesCalls;
  spec.shortForm = d.shortForm;
  spec.rows = d.rows;
  spec.sees = d.sees;
  spec.readsItemFields = d.readsItemFields;
  if (d.folds != Folds::None && d.rows != RowRole::Aggregate && d.rows != RowRole::Count)
    throw "only an aggregate (or count) folds";
  spec.gives = d.gives;
  spec.folds = d.folds;
  if (d.equality != Equality::None && d.rows != RowRole::Compare)
    throw "only a comparison (RowRole::Compare) is an equality";
  if (d.picksFirst && d.rows != RowRole::Pick) throw "only an op picking one item (RowRole::Pick) picks the first";
  if (d.gives == Gives::KeyedKids && (spec.fields.size() != 1 || spec.fields[0].kind != FieldKind::ExprFields))
    throw "an object of its keys has one field: those keys' expressions (ExprFields)";
  spec.equality = d.equality;
  spec.picksFirst = d.picksFirst;
  spec.scopes = checkedScopes(d, spec);
  checkExcludes(spec);
  return Entry(spec);
}

}  // namespace ptc::op_entry
