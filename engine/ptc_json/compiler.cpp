// Validation and compilation in one checked walk over the program: each node is
// checked against the op table before it becomes a Node, and the first problem
// stops the walk with the node's JSON Pointer. Nothing is evaluated here.
#include <algorithm>
#include <unordered_set>

#include "core/error.h"
#include "core/json.h"
#include "core/json_pointer.h"
#include "core/suggest.h"
#include "ptc_json/compiler_support.h"
#include "ptc_json/op_table.h"
#include "ptc_json/planner.h"
#include "ptc_json/program.h"
#include "ptc_json/projection.h"
#include "ptc_json/reference.h"
#include "ptc_json/returns_check.h"
#include "ptc_json/short_forms.h"

namespace ptc {

namespace {

// An object with "op", or an operation written as a short form (short_forms.h).
bool isOperation(const Value& v) { return v.isObject() && (v.find("op") != nullptr || isShortFormOp(v)); }

// Whether an operation (or a reference string, reference.h) appears anywhere
// in v: JSON without one is literal data.
bool hasOperation(const Value& v) {
  if (isOperation(v) || looksLikeReference(v)) return true;
  if (v.isArray()) return std::any_of(v.items().begin(), v.items().end(), hasOperation);
  if (v.isObject())
    return std::any_of(v.members().begin(), v.members().end(), [](MemberRef m) { return hasOperation(m.value); });
  return false;
}

class Compiler {
 public:
  explicit Compiler(const CompileOptions& options) : options_(options) {}

  std::shared_ptr<const Program> compile(const Value& program) {
    auto result = std::make_shared<Program>();
    result->root = expression(program, "/program", 1);
    planQueries(*result->root);
    result->loads = std::move(loads_);
    result->projections = projectedLoads(*result->root);
    result->hasCall = result->root->hasCall;
    result->reads = std::move(reads_);
    if (doubledEnvelope(program))
      result->warnings.push_back(Warning{ErrorCode::DoubledProgram, "/program/program",
                                         "The program is wrapped in 'program' twice, so its result is returned "
                                         "(and stored in memory) as {\"program\": ...}. Write "
                                         "{\"program\": {\"op\": ...}} with one 'program' key"});
    for (Warning& w : returnsWarnings(*result->root, options_.returns)) result->warnings.push_back(std::move(w));
    return result;
  }

 private:
  // An expression position: an operation; JSON with no operation anywhere in it
  // (literal data, which adds no depth); or an object or list holding
  // operations at some depth, evaluated member by member, item by item.
  std::unique_ptr<Node> expression(const Value& v, const std::string& path, int depth) {
    if (isShortFormOp(v)) {  // {"pipe": [...]}, {"call": "t", ...}: compiled as the op, its key's value there
      const ExpandedForm form = expandShortForm(v, path);
      const FieldAt at{form.field, form.fieldPath};
      return operation(form.op, path, depth, &at);
    }
    if (isOperation(v)) return operation(v, path, depth);
    if (std::optional<Reference> ref = parseReference(v, path)) return reference(*ref, path, depth);
    checkKeyedOrder(v, path);
    if (!hasOperation(v)) return literal(v, path);
    if (v.isObject()) return implicitObject(v, path, depth);
    return implicitList(v, path, depth);
  }

  std::unique_ptr<Node> literal(const Value& v, const std::string& path) {
    auto node = std::make_unique<Node>();
    node->op = Op::Literal;
    node->path = path;
    node->data = v;
    return node;
  }

  // A reference string compiles as the operation it stands for, at the
  // string's own path: "$_..." a get; "$name..." the var of a binding in
  // scope, else a load that looks in memory first (Node::memoryFirst).
  std::unique_ptr<Node> reference(const Reference& ref, const std::string& path, int depth) {
    bool binding = std::find(bound_.begin(), bound_.end(), ref.name) != bound_.end();
    ObjectBuilder read;
    read.put(Value::string("op"), Value::string(ref.current() ? "get" : binding ? "var" : "load"));
    if (!ref.current()) read.put(Value::string("name"), Value::string(ref.name));
    if (ref.current() || binding) {
      putPath(read, ref.path, ref.current());
      return operation(read.build(), path, depth);
    }
    std::unique_ptr<Node> load = operation(read.build(), path, depth);
    load->memoryFirst = true;
    if (ref.path.empty()) return load;
    ObjectBuilder inside;  // a context key's path: the load, then a get
    inside.put(Value::string("op"), Value::string("get"));
    putPath(inside, ref.path, true);
    auto pipe = pipeAt(path);
    pipe->kids.push_back(std::move(load));
    pipe->kids.push_back(operation(inside.build(), path, depth));
    finish(*pipe);
    return pipe;
  }

  // A pipe the compiler builds (its steps pushed onto kids, then finish).
  static std::unique_ptr<Node> pipeAt(const std::string& path) {
    auto pipe = std::make_unique<Node>();
    pipe->op = Op::Pipe;
    pipe->path = path;
    pipe->slots = {0};  // steps
    return pipe;
  }

  // One key as `field` (the form whose misses are warned of by name), several
  // (or "*", every item) as `path`; the current value itself (no keys) as path [].
  static void putPath(ObjectBuilder& read, const std::vector<std::string>& keys, bool emptyIsPath) {
    if (keys.size() == 1 && keys[0] != "*") return read.put(Value::string("field"), Value::string(keys[0]));
    if (keys.empty() && !emptyIsPath) return;
    ListBuilder list;
    for (const std::string& key : keys) list.push_back(Value::string(key));
    read.put(Value::string("path"), list.build());
  }

  // The names bound around the expression being compiled, innermost last.
  struct Scope {
    Scope(std::vector<std::string>& bound, std::vector<std::string> names) : bound_(bound), count_(names.size()) {
      bound.insert(bound.end(), names.begin(), names.end());
    }
    ~Scope() { bound_.resize(bound_.size() - count_); }
    std::vector<std::string>& bound_;
    size_t count_;
  };

  void checkDepth(const std::string& path, int depth) {
    if (depth > options_.maxDepth)
      fail(ErrorCode::TooDeep, path,
           "Program is nested more than " + std::to_string(options_.maxDepth) +
               " levels deep (maxDepth); flatten it with pipe or let");
  }

  // Implicit-object rule: each value is an expression (operations in it are
  // evaluated at any depth; JSON without operations is literal data).
  void objectFields(Node& node, const Value& fields, const std::string& path, int depth, bool sequential = false) {
    const size_t before = bound_.size();
    for (MemberRef m : fields.members()) {
      node.keys.push_back(m.key);
      node.kids.push_back(expression(m.value, childPath(path, m.key.str()), depth + 1));
      if (sequential) bound_.push_back(m.key.str());  // the later bindings see it
    }
    bound_.resize(before);
  }

  std::unique_ptr<Node> implicitList(const Value& v, const std::string& path, int depth) {
    checkDepth(path, depth);
    auto node = std::make_unique<Node>();
    node->op = Op::List;
    node->path = path;
    node->slots = {0};  // items
    for (size_t i = 0; i < v.items().size(); ++i)
      node->kids.push_back(expression(v.items()[i], childPath(path, i), depth + 1));
    finish(*node);
    return node;
  }

  std::unique_ptr<Node> implicitObject(const Value& v, const std::string& path, int depth) {
    checkDepth(path, depth);
    auto node = std::make_unique<Node>();
    node->op = Op::Object;
    node->path = path;
    node->slots = {0};  // fields
    objectFields(*node, v, path, depth);
    finish(*node);
    return node;
  }

  // A short form's field written under another key (pipe's steps under
  // "pipe", call's tool under "call") or as the node itself (an equality
  // map's value): errors point there.
  struct FieldAt {
    const char* field;
    std::string path;
  };

  std::unique_ptr<Node> operation(const Value& v, const std::string& path, int depth, const FieldAt* at = nullptr) {
    checkDepth(path, depth);
    const Value& opName = *v.find("op");
    if (!opName.isString())
      fail(ErrorCode::WrongKind, childPath(path, "op"),
           "Field 'op' must be a string naming an operation, got " + describeValue(opName));
    const OpSpec* spec = findOp(opName.str());
    if (!spec)
      fail(ErrorCode::UnknownOp, path,
           "Unknown operation '" + opName.str() + "'." + didYouMean(opName.str(), opNames()));

    auto node = std::make_unique<Node>();
    node->op = spec->op;
    node->readsInput = spec->readsInput;
    node->path = path;
    checkFieldNames(*spec, v, path);
    if (spec->shortForm == ShortForm::Items && (v.find("where") || v.find("expr")))
      return itemsForm(*spec, v, path, depth);
    if (spec->shortForm == ShortForm::Key && v.find("key")) return keyedSort(*spec, v, path, depth);
    for (const ScopeSpec& s : spec->scopes)
      if (s.binds == Binds::Literal) node->scopeName = Value::string(s.name);
    for (const FieldSpec& f : spec->fields) {
      if (inShortForm(*spec, f)) continue;  // compiled into the condition or expression shortForm builds
      const Value* value = v.find(f.name);
      if (!value) {
        if (f.presence == Presence::Required)
          fail(ErrorCode::MissingField, path,
               "Operation '" + std::string(spec->name) + "' requires field '" + f.name + "'. Shape: " + opShape(*spec));
        continue;
      }
      Scope scope(bound_, namesBound(*spec, static_cast<size_t>(&f - spec->fields.data()), v));
      const bool moved = at && std::string_view(f.name) == at->field;
      compileField(*node, *spec, f, *value, moved ? at->path : childPath(path, f.name), depth);
    }
    if (spec->shortForm == ShortForm::Condition && v.find("field") && !v.find("value"))
      fail(ErrorCode::MissingField, path,
           "'" + std::string(spec->name) +
               "' takes 'field' only with 'value' (the items whose field equals value), or a condition in 'where'. "
               "Shape: " +
               opShape(*spec));
    checkOneOf(*spec, v, path);
    // A comparison's `left`, min's and max's `values`: read instead of the input (and its `field`).
    for (const char* instead : {"left", "values"}) {
      if (!v.find(instead) || !findField(*spec, instead)) continue;
      if (v.find("field"))
        fail(ErrorCode::ConflictingFields, path,
             "'" + std::string(spec->name) + "' reads `" + instead +
                 "` instead of its input and that input's `field`: give one of them, not both. Shape: " +
                 opShape(*spec));
      node->readsInput = false;
    }
    checkForms(*spec, *node, v, path);
    shortForm(*node, *spec, v, path, depth);
    if (spec->valueOverridesInput && v.find("value")) {  // reads `value` (kids[0]) instead of the current value
      node->readsInput = false;
      node->valueGiven = true;
    }
    if (spec->control == Control::Call)
      checkTool(*node, at && std::string_view(at->field) == "tool" ? at->path : childPath(path, "tool"));
    node->valueSeesMapItem = spec->valueSeesMapItem;
    if (spec->control == Control::Load && loaded_.insert(node->name.str()).second) loads_.push_back(node->name.str());
    finish(*node);
    countRead(*node);
    if (spec->refusesCalls && node->hasCall)
      fail(ErrorCode::NotAllowedHere, path,
           "'" + std::string(spec->name) +
               "' cannot call tools in its expressions: call them in a map first, "
               "then " +
               spec->name + " the results");
    return node;
  }

  // A condition: an operation, a reference, or an equality map
  // {"tier": "gold", "region": "EU"}: each key a field of the current item
  // equal to its value (a text, number, boolean, null or reference, as eq's
  // `value`), all of them (and). Any other object is a constant.
  std::unique_ptr<Node> condition(const OpSpec& spec, const FieldSpec& f, const Value& v, const std::string& path,
                                  int depth) {
    if (f.role != Role::Predicate || !isEqualityMap(v)) {
      checkRole(spec, f, v, path);
      return expression(v, path, depth);
    }
    std::vector<std::unique_ptr<Node>> equalities;  // one eq a key; several: their and
    for (MemberRef m : v.members()) {
      ObjectBuilder eq;
      eq.put(Value::string("op"), Value::string("eq"));
      eq.put(Value::string("field"), m.key);
      eq.put(Value::string("value"), m.value);
      const FieldAt at{"value", childPath(path, m.key.str())};
      equalities.push_back(operation(eq.build(), at.path, depth + 1, &at));
    }
    if (equalities.size() == 1) return std::move(equalities.back());
    ObjectBuilder and_;
    and_.put(Value::string("op"), Value::string("and"));
    and_.put(Value::string("conditions"), ListBuilder().build());
    auto all = operation(and_.build(), path, depth);
    for (auto& e : equalities) all->kids.push_back(std::move(e));
    finish(*all);
    return all;
  }

  static bool isEqualityMap(const Value& v) {
    if (!v.isObject() || isOperation(v) || v.members().empty()) return false;
    return std::none_of(v.members().begin(), v.members().end(),
                        [](MemberRef m) { return m.value.isObject() || m.value.isArray(); });
  }

  // The short forms: filter/reject {"field", "value"} is the condition
  // {"op": "eq", "field", "value"} and map {"field"} the expression
  // {"op": "get", "field"}. They compile as those operations at the op's own
  // path, so an error inside `value` still points at /.../value.
  // (`field` is still checked as the op's own field, then cleared.)
  static bool inShortForm(const OpSpec& spec, const FieldSpec& f) {
    return spec.shortForm == ShortForm::Condition && std::string_view(f.name) == "value";
  }

  void shortForm(Node& node, const OpSpec& spec, const Value& v, const std::string& path, int depth) {
    const bool condition = spec.shortForm == ShortForm::Condition && v.find("value");
    if (!condition && !(spec.shortForm == ShortForm::Expr && v.find("field"))) return;
    ObjectBuilder built;
    built.put(Value::string("op"), Value::string(condition ? "eq" : "get"));
    if (const Value* f = v.find("field")) built.put(Value::string("field"), *f);
    if (condition) built.put(Value::string("value"), *v.find("value"));
    const int target = fieldIndex(spec, condition ? "where" : "expr");  // the field it stands for
    Scope scope(bound_, namesBound(spec, static_cast<size_t>(target), v));
    node.kids.insert(node.kids.begin(), operation(built.build(), path, depth));
    node.field = Value::none();
    node.slots.assign(spec.fields.size(), -1);
    node.slots[static_cast<size_t>(target)] = 0;
  }

  // count's and the aggregates' `where` and `expr` (ShortForm::Items): the pipe
  // [filter where, map expr, the op without them], each at the op's path
  // (errors inside where and expr point there), as a program would spell it.
  std::unique_ptr<Node> itemsForm(const OpSpec& spec, const Value& v, const std::string& path, int depth) {
    checkExclusions(spec, v, path);  // expr against field (and values)
    auto pipe = pipeAt(path);
    for (const auto& [name, op] : {std::pair{"where", "filter"}, std::pair{"expr", "map"}}) {
      if (!v.find(name)) continue;
      const FieldAt at{name, childPath(path, name)};
      if (std::string_view(name) == "expr" || !isEqualityMap(*v.find(name)))  // a bare string, a constant condition
        checkRole(spec, *findField(spec, name), *v.find(name), at.path);
      pipe->kids.push_back(operation(opWith(op, name, *v.find(name)), path, depth + 1, &at));
    }
    ObjectBuilder rest;  // the op itself, over those items
    for (MemberRef m : v.members())
      if (m.key.str() != "where" && m.key.str() != "expr") rest.put(m.key, m.value);
    pipe->kids.push_back(operation(rest.build(), path, depth + 1));
    finish(*pipe);
    return pipe;
  }

  // sort_by's `key` (an expression per item, as group_by's): the pipe [map
  // {"key": key, "v": the item}, sort_by "key" (order), map "v"], the pairs
  // built at the op's path so that errors inside key point at /key.
  std::unique_ptr<Node> keyedSort(const OpSpec& spec, const Value& v, const std::string& path, int depth) {
    checkExclusions(spec, v, path);                                                    // key against field and by
    checkRole(spec, *findField(spec, "key"), v.field("key"), childPath(path, "key"));  // a bare string
    ObjectBuilder pair, sort;
    pair.put(Value::string("key"), v.field("key"));
    pair.put(Value::string("v"), Value::string("$_"));
    for (MemberRef m : v.members())  // the op, its order, and "key" as its field
      m.key.str() == "key" ? sort.put(Value::string("field"), Value::string("key")) : sort.put(m.key, m.value);
    auto pipe = pipeAt(path);
    const FieldAt at{"expr", path};
    pipe->kids.push_back(operation(opWith("map", "expr", pair.build()), path, depth + 1, &at));
    pipe->kids.push_back(operation(sort.build(), path, depth + 1));
    pipe->kids.push_back(operation(opWith("map", "field", Value::string("v")), path, depth + 1));
    finish(*pipe);
    return pipe;
  }

  // Fields that go together or exclude each other, beyond required/one-of.
  void checkForms(const OpSpec& spec, Node& node, const Value& v, const std::string& path) {
    auto has = [&](const char* f) { return v.find(f) != nullptr; };
    auto shapeError = [&](ErrorCode code, const std::string& what) {
      fail(code, path, "'" + std::string(spec.name) + "' " + what + ". Shape: " + opShape(spec));
    };
    checkExclusions(spec, v, path);
    if (bindsBindings(spec)) {  // let: `bindings`, or `name` with `value` (op_table_does.h checks it has them)
      if (!has("bindings") && !(has("name") && has("value")))
        shapeError(ErrorCode::MissingField, "requires 'name' and 'value' (or 'bindings')");
      if (!has("bindings")) node.keys.push_back(node.name);  // one binding: keys[i] binds kids[i]
    }
    // group_by: each group stores its key under "key", beside its aggs.
    if (spec.rows == RowRole::Group && v.field("aggs").find("key"))
      fail(ErrorCode::BadValue, childPath(path, "aggs"),
           "'group_by' aggs cannot be named \"key\": each group stores its key there");
    // sort_by without `by`: its one key is `field` and `order`.
    if (const FieldSpec* keys = fieldOfKind(spec, FieldKind::SortKeys); keys && !has(keys->name)) {
      if (descendingKey(node.field)) {  // "-total": total, descending
        if (has("order"))
          shapeError(ErrorCode::ConflictingFields, "takes \"-<field>\" (descending) or 'order', not both");
        node.field = Value::string(node.field.str().substr(1));
        node.descending = true;
      }
      node.sortKeys.emplace_back(node.field.isNull() ? Value::none() : node.field, node.descending);
    }
  }

  void sortKeys(Node& node, const OpSpec& spec, const FieldSpec& f, const Value& v, const std::string& path) {
    if (!v.isArray() || v.items().empty()) wrongKind(spec, f, path, "a non-empty list of sort keys", v);
    for (size_t i = 0; i < v.items().size(); ++i) {
      const Value& key = v.items()[i];
      std::string at = childPath(path, i);
      if (key.isString() && !key.str().empty()) {
        const bool descending = descendingKey(key);
        node.sortKeys.emplace_back(descending ? Value::string(key.str().substr(1)) : key, descending);
        continue;
      }
      const Value* name = key.find("field");
      const Value* order = key.find("order");
      bool known = key.isObject() && key.members().size() == (name ? 1u : 0u) + (order ? 1u : 0u);
      if (!known || !name || !name->isString() || name->str().empty() ||
          (order && !(order->isString() && (order->str() == "asc" || order->str() == "desc"))))
        wrongKind(spec, f, at, "a field name or {\"field\": \"<field>\", \"order\": \"asc\"|\"desc\"}", key);
      node.sortKeys.emplace_back(*name, order && order->str() == "desc");
    }
  }

  void checkTool(const Node& node, const std::string& path) {
    if (!options_.toolsKnown) return;
    const std::string& tool = node.name.str();
    if (std::find(options_.tools.begin(), options_.tools.end(), tool) != options_.tools.end()) return;
    if (options_.tools.empty())
      fail(ErrorCode::UnknownTool, path, "Unknown tool '" + tool + "': no tools are available in this run");
    fail(ErrorCode::UnknownTool, path,
         "Unknown tool '" + tool + "'." + didYouMean(tool, options_.tools) +
             " Available tools: " + listNames(options_.tools) + ".");
  }

  [[noreturn]] void wrongKind(const OpSpec& spec, const FieldSpec& f, const std::string& path, const char* expected,
                              const Value& got) {
    fail(ErrorCode::WrongKind, path,
         "Field '" + std::string(f.name) + "' of '" + spec.name + "' must be " + expected + ", got " +
             describeValue(got) + ". Shape: " + opShape(spec));
  }

  // A condition that is not an operation is constant (an object or list is
  // truthy whatever it holds); a bare string where a value is computed is
  // almost always a field name.
  static void checkRole(const OpSpec& spec, const FieldSpec& f, const Value& v, const std::string& path) {
    if (f.role == Role::Predicate && isOperation(v) && v.field("op").isString() && v.field("op").str() == "filter_in")
      fail(ErrorCode::NotAllowedHere, path,
           "'filter_in' filters a whole list, it is not a condition for one item: make it a pipe step of its "
           "own, before or instead of the filter: {\"op\": \"filter_in\", \"field\": ..., \"value\": [...]}");
    if (f.role == Role::Value || isOperation(v) || looksLikeReference(v)) return;
    if (v.isString()) fail(ErrorCode::BareString, path, bareStringMessage(spec, f, v));
    if (f.role == Role::Predicate) fail(ErrorCode::ConstantPredicate, path, constantConditionMessage(spec, f, v));
  }

  void compileField(Node& node, const OpSpec& spec, const FieldSpec& f, const Value& v, const std::string& path,
                    int depth) {
    switch (f.kind) {
      case FieldKind::Expr:
        markSlot(node, spec, f);
        node.kids.push_back(condition(spec, f, v, path, depth + 1));
        return;
      case FieldKind::ExprList:
        if (!v.isArray()) wrongKind(spec, f, path, "a list of expressions", v);
        markSlot(node, spec, f);
        for (size_t i = 0; i < v.items().size(); ++i)
          node.kids.push_back(condition(spec, f, v.items()[i], childPath(path, i), depth + 1));
        return;
      case FieldKind::ExprFields:
        // Its keys are names ({"return": 3} in args is an argument): only "op" and the pipe form make it an operation.
        if (!v.isObject() || v.find("op") || v.find("pipe")) wrongKind(spec, f, path, "an object of fields", v);
        for (MemberRef m : v.members()) checkRole(spec, f, m.value, childPath(path, m.key.str()));
        markSlot(node, spec, f);
        objectFields(node, v, path, depth, sequentialBindings(spec, f));
        return;
      case FieldKind::SortKeys: sortKeys(node, spec, f, v, path); return;
      case FieldKind::Json:
        node.data = v;
        node.hasDefault = true;
        return;
      case FieldKind::Name:
      case FieldKind::ItemField:
        if (!v.isString() || v.str().empty()) wrongKind(spec, f, path, "a non-empty string", v);
        (f.kind == FieldKind::ItemField ? node.field : node.name) = v;
        return;
      case FieldKind::FieldName:
        if (v.isNull()) return;  // null: compare the current value itself
        if (!v.isString()) wrongKind(spec, f, path, "a string (or null)", v);
        node.field = v;
        return;
      case FieldKind::Key: {  // at its field's index in keys: an op may have several
        if (!v.isString() || v.str().empty()) wrongKind(spec, f, path, "a non-empty field name", v);
        const auto at = static_cast<size_t>(&f - spec.fields.data());
        if (node.keys.size() <= at) node.keys.resize(at + 1, Value::none());
        node.keys[at] = v;
        return;
      }
      case FieldKind::Names:
        if (!v.isArray()) wrongKind(spec, f, path, "a list of strings", v);
        for (size_t i = 0; i < v.items().size(); ++i) {
          if (!v.items()[i].isString()) wrongKind(spec, f, childPath(path, i), "a list of strings", v);
          node.keys.push_back(v.items()[i]);
        }
        node.usesPath = true;
        return;
      case FieldKind::Count:
        if (isOperation(v) || looksLikeReference(v)) {  // evaluated at run time (the op checks the value)
          markSlot(node, spec, f);
          node.kids.push_back(expression(v, path, depth + 1));
          return;
        }
        if (!v.isInt() || v.asInt() < 0) wrongKind(spec, f, path, "a non-negative integer or an operation", v);
        node.count = v.asInt();
        return;
      case FieldKind::Percent:
        if (!v.isNumber() || v.asDouble() < 0 || v.asDouble() > 100)
          wrongKind(spec, f, path, "a number from 0 to 100", v);
        node.data = v;
        return;
      case FieldKind::Choice:
        if (!v.isString() ||
            std::none_of(f.choices.begin(), f.choices.end(), [&](const char* c) { return v.str() == c; }))
          wrongKind(spec, f, path, ("one of " + choiceList(f)).c_str(), v);
        node.name = v;
        return;
      case FieldKind::Text:
        if (!v.isString()) wrongKind(spec, f, path, "a text such as \"{name} <{email}>\"", v);
        node.data = v;
        return;
      case FieldKind::Iterations:
        if (!v.isInt() || v.asInt() < 1 || v.asInt() > kMaxLoopIterations)
          wrongKind(spec, f, path, ("an integer from 1 to " + std::to_string(kMaxLoopIterations)).c_str(), v);
        node.count = v.asInt();
        return;
      case FieldKind::Method:
        if (!v.isString() || (v.str() != "linear" && v.str() != "nearest"))
          wrongKind(spec, f, path, "\"linear\" or \"nearest\"", v);
        node.name = v;
        return;
      case FieldKind::Precision:
        if (!v.isInt() || v.asInt() < 0 || v.asInt() > 15) wrongKind(spec, f, path, "an integer from 0 to 15", v);
        node.count = v.asInt();
        return;
      case FieldKind::Order:
        if (!v.isString() || (v.str() != "asc" && v.str() != "desc"))
          wrongKind(spec, f, path, "\"asc\" or \"desc\"", v);
        node.descending = v.str() == "desc";
        node.ordered = true;
        return;
    }
  }

  // Field f's expressions start at the next kid (Node::slots).
  static void markSlot(Node& node, const OpSpec& spec, const FieldSpec& f) {
    node.slots.resize(spec.fields.size(), -1);
    node.slots[static_cast<size_t>(&f - spec.fields.data())] = static_cast<int32_t>(node.kids.size());
  }

  static void finish(Node& node) {
    node.hasCall = specOf(node.op).control == Control::Call;
    for (const auto& k : node.kids) node.hasCall = node.hasCall || k->hasCall;
    if (node.field.isNull()) node.field = Value::none();
  }

  // {"program": {"program": {"op": ...}}}: the inner envelope, an implicit
  // object whose only key is "program" holding an operation.
  static bool doubledEnvelope(const Value& program) {
    return program.isObject() && program.members().size() == 1 && isOperation(program.field("program"));
  }

  // get and var: their `path` is of keys read (select's `fields` are names too).
  static bool readsPath(const OpSpec& spec) { return spec.rows == RowRole::FieldRead || spec.control == Control::Var; }

  // A node reading a named field of its input (or get's path) gets a slot in
  // the run's tally of field reads; a get with a default expects misses.
  // select's fields and sort_by's `by` keys get a slot each (keyReads).
  void countRead(Node& node) {
    const size_t keys = keyReads(node);
    bool reads = keys || !node.field.isNone() || (node.usesPath && readsPath(specOf(node.op)));
    if (!reads || node.hasDefault) return;
    node.readSlot = static_cast<int32_t>(reads_.size());
    reads_.insert(reads_.end(), std::max<size_t>(keys, 1), &node);
  }

  const CompileOptions& options_;
  std::vector<std::string> bound_;  // Scope
  std::vector<const Node*> reads_;
  std::vector<std::string> loads_;
  std::unordered_set<std::string> loaded_;  // the same names: a program may load thousands
};

}  // namespace

std::shared_ptr<const Program> compileProgram(const Value& program, const CompileOptions& options) {
  BudgetScope noBudget(nullptr);  // compiled literals belong to no run
  return Compiler(options).compile(program);
}

}  // namespace ptc
