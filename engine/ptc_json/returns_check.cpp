#include "ptc_json/returns_check.h"

#include <algorithm>

#include "core/json_pointer.h"
#include "core/suggest.h"
#include "ptc_json/op_fields.h"
#include "ptc_json/op_table.h"

namespace ptc {

namespace {

// ---- what a schema says (docs/semantics.md, "Declared tool results") ----

bool hasType(const Value& schema, std::string_view type) {
  const Value* t = schema.find("type");
  if (!t) return false;
  if (t->isString()) return t->str() == type;
  if (!t->isArray()) return false;
  return std::any_of(t->items().begin(), t->items().end(),
                     [&](const Value& x) { return x.isString() && x.str() == type; });
}

// The alternatives of a union (anyOf / oneOf), or the schema alone.
std::vector<const Value*> branches(const Value& schema) {
  for (const char* key : {"anyOf", "oneOf"})
    if (const Value* list = schema.find(key); list && list->isArray()) {
      std::vector<const Value*> out;
      for (const Value& b : list->items()) out.push_back(&b);
      return out;
    }
  return {&schema};
}

// A schema that allows objects and lists their properties.
bool objectSchema(const Value& s) {
  const Value* props = s.find("properties");
  return props && props->isObject() && !props->members().empty() && (!s.find("type") || hasType(s, "object"));
}

// An object schema that allows no other fields: additionalProperties absent
// (the convention of declared results: the fields listed are the fields) or
// false, and nothing else that could add fields.
bool closedObject(const Value& s) {
  const Value* extra = s.find("additionalProperties");
  const Value* unevaluated = s.find("unevaluatedProperties");
  auto isFalse = [](const Value* v) { return !v || (v->isBool() && !v->truthy()); };
  return objectSchema(s) && isFalse(extra) && isFalse(unevaluated) && !s.find("patternProperties") && !s.find("$ref") &&
         !s.find("allOf");
}

// A schema that allows no object at all: a type that lists no "object".
bool noObject(const Value& s) {
  return s.find("type") && !hasType(s, "object") && !s.find("anyOf") && !s.find("oneOf");
}

// The fields an object of this schema can have (sorted), or false when it may
// have others or the check cannot tell. A union's are those of its object
// branches, each closed (a branch that is no object has no fields to read).
bool fieldsOf(const Value& schema, std::vector<std::string>& fields) {
  bool anyObject = false;
  for (const Value* b : branches(schema)) {
    if (noObject(*b)) continue;
    if (!closedObject(*b)) return false;
    anyObject = true;
    for (MemberRef m : b->find("properties")->members()) fields.push_back(m.key.str());
  }
  sortUnique(fields);
  return anyObject;
}

const Value* propertyOf(const Value& schema, const std::string& name) {
  for (const Value* b : branches(schema)) {
    const Value* props = b->find("properties");
    if (const Value* p = props ? props->find(name) : nullptr; p && p->isObject()) return p;
  }
  return nullptr;
}

const Value* itemsOf(const Value& schema) {
  for (const Value* b : branches(schema))
    if (const Value* items = b->find("items"); items && items->isObject() && hasType(*b, "array")) return items;
  return nullptr;
}

// ---- what a value is known to be ----

// A part of a tool's declared result, or a list (a map's) of such parts; no
// schema: unknown.
struct Shape {
  const Value* schema = nullptr;
  bool listOf = false;
  std::string what;  // for messages: "the result of tool 'get_user'"
};

Shape itemsShape(const Shape& s) {
  if (!s.schema) return {};
  if (s.listOf) return Shape{s.schema, false, s.what};
  const Value* items = itemsOf(*s.schema);
  return items ? Shape{items, false, "the items of " + s.what} : Shape{};
}

constexpr FieldRef kLetBindings = fieldRef(Op::Let, "bindings");
constexpr FieldRef kLetValue = fieldRef(Op::Let, "value");
constexpr FieldRef kLetIn = fieldRef(Op::Let, "in");
constexpr FieldRef kGroupKey = fieldRef(Op::GroupBy, "key");
constexpr FieldRef kGroupAggs = fieldRef(Op::GroupBy, "aggs");

// The field of a per-item op (Sees::EachItem) that sees each item: the one
// its `as` scope is seen by (op_table_does.h checks there is one).
size_t eachItemField(const OpSpec& spec) {
  for (const ScopeSpec& s : spec.scopes)
    if (s.binds == Binds::As)
      for (size_t f = 0; f < spec.fields.size(); ++f)
        if (s.seenByField(f)) return f;
  return 0;
}

class Check {
 public:
  explicit Check(const std::map<std::string, Value>& returns) : returns_(returns) {}

  std::vector<Warning> out;

  Shape visit(const Node& n, const Shape& in) {
    const OpSpec& spec = specOf(n.op);
    switch (spec.control) {  // the control ops the check follows a shape through
      case Control::Call: return call(n, in);
      case Control::Pipe: {
        Shape s = in;
        for (const auto& step : n.kids) s = visit(*step, s);
        return s;
      }
      case Control::Let: return let(n, in);
      case Control::Var: return var(n);
      case Control::GroupBy: return groupBy(n, in);
      case Control::None:  // the others by their declared flow (sees, gives) below
      case Control::Literal:
      case Control::Load:
      case Control::Filter:
      case Control::Map:
      case Control::FromEntries:
      case Control::Scan:
      case Control::Reduce:
      case Control::And:
      case Control::Or:
      case Control::If:
      case Control::Try:
      case Control::Loop:
      case Control::ForEach:
      case Control::Retry:
      case Control::Return: break;
      case Control::Lookup:
      case Control::Quantify: break;
    }
    if (spec.rows == RowRole::FieldRead) return n.hasDefault ? kidsSee({}, n) : reads(n, in);
    if (spec.rows == RowRole::Compare) return comparison(n, in);
    if (spec.valueOverridesInput) {  // a value-level op: its field is one of the current value
      if (!n.valueGiven && !n.field.isNone()) readField(n, n.path, in, n.field.str());
      kidsSee(in, n);
      // Read as itself (no field, no value): its value is made of its input as its entry says (reverse).
      return !n.valueGiven && n.field.isNone() ? given(spec.gives, in, {}) : Shape{};
    }
    switch (spec.sees) {  // op_table.h: what its expressions see of its input
      case Sees::EachItem: return perItem(n, spec, in);
      case Sees::Input: return seesInput(n, spec, in);
      case Sees::Unmodelled: return unmodelled(n);
    }
    return unmodelled(n);
  }

 private:
  struct Binding {
    std::string name;
    Shape shape;
  };

  // Not modelled (scan, from_entries, loop...): what its expressions see, and
  // the names they bind, are unknown.
  Shape unmodelled(const Node& n) {
    const size_t barrier = barrier_;
    barrier_ = bound_.size();
    kidsSee({}, n);
    barrier_ = barrier;
    return {};
  }

  // Its expressions see its current value (a list op's: the list); its
  // `field` may be one of each item's, and its value some of the items.
  Shape seesInput(const Node& n, const OpSpec& spec, const Shape& in) {
    if (spec.readsItemFields) itemFields(n, in);
    kidsSee(spec.valueSeesMapItem && insideMap_ ? mapItem_ : in, n);  // nth/take/drop's count sees the list
    return given(spec.gives, in, {});
  }

  // What an op's value is of its input's items (and for map, of its
  // expression's value per item), as far as known.
  static Shape given(Gives gives, const Shape& in, const Shape& result) {
    switch (gives) {
      case Gives::SameItems: return in;
      case Gives::OneItem: return itemsShape(in);
      case Gives::EachResult:
        return result.schema && !result.listOf ? Shape{result.schema, true, result.what} : Shape{};
      case Gives::New:
      case Gives::LastKid:  // pipe and let: visited as themselves
      case Gives::OneOfKids:
      case Gives::KeyedKids: return {};
    }
    return {};
  }

  // Visits a node's expressions against `in`, each with the names the op's
  // scopes bind for its field (of unknown shape: try's error may shadow a
  // binding); the node's own value is unknown.
  Shape kidsSee(const Shape& in, const Node& n) {
    const OpSpec& spec = specOf(n.op);
    if (spec.scopes.empty()) {
      for (const auto& k : n.kids) visit(*k, in);
      return {};
    }
    for (size_t f = 0; f < spec.fields.size(); ++f) {
      const size_t before = bound_.size();
      bindScopes(n, f, {});
      for (const auto& k : n.kidsOfField(f)) visit(*k, in);
      bound_.resize(before);
    }
    return {};
  }

  // The names the op's scopes bind for its field f: `as` to `item`, the
  // others to unknown shapes.
  void bindScopes(const Node& n, size_t f, const Shape& item) {
    for (const ScopeSpec& s : specOf(n.op).scopes) {
      if (!s.seenByField(f)) continue;
      if (s.binds == Binds::As && n.name.isString()) bound_.push_back(Binding{n.name.str(), item});
      if (s.binds == Binds::Literal) bound_.push_back(Binding{s.name, {}});
      if (s.binds == Binds::Bindings)
        for (const Value& key : n.keys) bound_.push_back(Binding{key.str(), {}});
    }
  }

  Shape call(const Node& n, const Shape& in) {
    kidsSee(in, n);
    auto it = returns_.find(n.name.str());
    if (it == returns_.end() || !it->second.isObject()) return {};
    Shape result{&it->second, false, "the result of tool '" + n.name.str() + "'"};
    return n.field.isNone() ? result : readField(n, n.path, result, n.field.str());  // `get`: one field of it
  }

  Shape let(const Node& n, const Shape& in) {
    const size_t before = bound_.size();
    auto values = n.kidsOf(kLetBindings);
    if (values.empty()) values = n.kidsOf(kLetValue);
    for (size_t i = 0; i < values.size(); ++i) bound_.push_back(Binding{n.keys[i].str(), visit(*values[i], in)});
    Shape s = visit(*n.kid(kLetIn), in);
    bound_.resize(before);
    return s;
  }

  Shape var(const Node& n) {
    Shape s;  // a name bound outside the barrier, or in memory: unknown
    for (size_t i = bound_.size(); i > barrier_; --i)
      if (bound_[i - 1].name == n.name.str()) {
        s = bound_[i - 1].shape;
        break;
      }
    return n.field.isNone() && !n.usesPath ? s : reads(n, s);
  }

  // get or var: its field, or its path key by key.
  Shape reads(const Node& n, Shape s) {
    if (!n.usesPath) return readField(n, n.path, s, n.field.str());
    bool each = false;  // after "*" the keys are read of every item, and the result is a list of them
    for (const Value& key : n.keys) {
      if (key.str() == "*") each = true, s = itemsShape(s);
      else s = readField(n, n.path, s, key.str());
    }
    return each ? Shape() : s;
  }

  // filter/reject/map/flat_map: their expression (the field their `as` scope
  // is seen by) sees each item, and `as` binds it.
  Shape perItem(const Node& n, const OpSpec& spec, const Shape& in) {
    const Shape item = itemsShape(in);
    const bool map = spec.setsMapItem;
    const bool wasInside = insideMap_;
    const Shape wasItem = mapItem_;
    if (map) insideMap_ = true, mapItem_ = item;
    const size_t before = bound_.size();
    const size_t body = eachItemField(spec);
    bindScopes(n, body, item);
    Shape result;
    for (const auto& k : n.kidsOfField(body)) result = visit(*k, item);
    bound_.resize(before);
    insideMap_ = wasInside;
    mapItem_ = wasItem;
    return given(spec.gives, in, result);
  }

  // Its field, and select's fields or sort_by's `by` keys: of each item
  // (select's: of the object, when not of a list).
  void itemFields(const Node& n, const Shape& in) {
    const bool select = specOf(n.op).rows == RowRole::Select;  // else sort_by's keys
    const Shape of = select && !itemsShape(in).schema ? in : itemsShape(in);
    if (!n.field.isNone()) readField(n, n.path, of, n.field.str());
    for (size_t i = 0; i < keyReads(n); ++i) {
      const std::string& name = select ? n.keys[i].str() : n.sortKeys[i].first.str();
      readField(n, n.path + (select ? "/fields/" : "/by/") + std::to_string(i), of, name);
    }
  }

  // group_by: its field and `key` see each item, its aggs the group's items.
  Shape groupBy(const Node& n, const Shape& in) {
    const Shape item = itemsShape(in);
    if (!n.field.isNone()) readField(n, n.path, item, n.field.str());
    if (const Node* key = n.kid(kGroupKey)) {
      const size_t before = bound_.size();
      bindScopes(n, kGroupKey.index, item);
      visit(*key, item);
      bound_.resize(before);
    }
    for (const auto& agg : n.kidsOf(kGroupAggs)) visit(*agg, in);
    return {};
  }

  // A comparison's field is one of the current value; its `value` sees the
  // enclosing map's item when there is one (spec 7.3).
  Shape comparison(const Node& n, const Shape& in) {
    if (!n.field.isNone()) readField(n, n.path, in, n.field.str());
    return kidsSee(insideMap_ ? mapItem_ : in, n);
  }

  // A field read of a value of known shape: warned of when the schema lists
  // its fields and not this one. What it reads, as far as known.
  Shape readField(const Node& n, const std::string& path, const Shape& of, const std::string& name) {
    if (!of.schema || of.listOf) return {};  // a list has no fields: field_of_list says so when it runs
    std::vector<std::string> fields;
    if (!fieldsOf(*of.schema, fields)) return {};
    if (std::binary_search(fields.begin(), fields.end(), name)) {
      const Value* p = propertyOf(*of.schema, name);
      return p ? Shape{p, false, "field '" + name + "' of " + of.what} : Shape{};
    }
    out.push_back(Warning{ErrorCode::UnknownResultField, path, message(n, name, of.what, fields)});
    return {};
  }

  static std::string message(const Node& n, const std::string& name, const std::string& what,
                             const std::vector<std::string>& fields) {
    std::string text = "'" + std::string(specOf(n.op).name) + "' reads field '" + name + "' of " + what +
                       ", which its declared returns schema does not list, so it will read null.";
    const size_t dot = name.find('.');
    if (dot != std::string::npos && dot > 0 && std::binary_search(fields.begin(), fields.end(), name.substr(0, dot)))
      return text + " A field name is one key, not a path: read the nested field with {\"op\": \"get\", \"path\": " +
             pathLiteral(name) + "}";
    return text + namesHint(name, fields, "fields it lists");
  }

  const std::map<std::string, Value>& returns_;
  std::vector<Binding> bound_;  // let and `as` bindings, innermost last
  size_t barrier_ = 0;          // bindings below it are hidden (inside an op the check does not model)
  bool insideMap_ = false;
  Shape mapItem_;
};

}  // namespace

std::vector<Warning> returnsWarnings(const Node& root, const std::map<std::string, Value>& returns) {
  if (returns.empty()) return {};
  Check check(returns);
  check.visit(root, Shape{});
  return std::move(check.out);
}

}  // namespace ptc
