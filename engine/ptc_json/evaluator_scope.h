// What the synchronous and the resumable evaluator share (evaluator.cpp,
// evaluator_async.cpp): scopes of bindings and items, operands, and what a
// `try` catches.
#pragma once

#include <array>
#include <vector>

#include "core/error.h"
#include "ptc_json/evaluator.h"
#include "ptc_json/op_table.h"

namespace ptc::evaluation {

// Variable bindings for the duration of a scope (also across suspensions):
// the ones it added go when it ends.
class Bindings {
 public:
  explicit Bindings(RunState& st) : st_(st), mark_(st.bindings.size()) {}
  ~Bindings() {
    // No index keeps a list alive after its variable is gone.
    if (!st_.joins.empty()) st_.joins.forget(st_.bindings, mark_, st_.context, st_.columns, st_.columnar, st_.memory);
    st_.bindings.resize(mark_);
  }
  Bindings(const Bindings&) = delete;
  Bindings& operator=(const Bindings&) = delete;
  void add(const Value* name, Value v) { st_.bindings.emplace_back(name, std::move(v)); }

 private:
  RunState& st_;
  size_t mark_;
};

// The scope of one item of an iterating op: its `as` variable, and for map and
// flat_map the item that comparison values inside them see.
class ItemScope {
 public:
  ItemScope(RunState& st, const Node& n, const Value& item)
      : st_(st), vars_(st), mapItem_(specOf(n.op).setsMapItem) {  // loop: only `as`
    if (n.name.isString()) vars_.add(&n.name, item);
    if (mapItem_) st_.mapItems.push_back(item);
  }
  ~ItemScope() {
    if (mapItem_) st_.mapItems.pop_back();
  }
  ItemScope(const ItemScope&) = delete;
  ItemScope& operator=(const ItemScope&) = delete;

 private:
  RunState& st_;
  Bindings vars_;
  bool mapItem_;
};

// Appends a flat_map result: a list's items, or any other value as one item.
// Each item is charged as it is added (ListBuilder): a flat_map whose every
// item yields one long list holds items x length references before its value exists.
inline void appendFlat(ListBuilder& out, Value v) {
  if (v.isArray()) out.append(v.items().begin(), v.items().end());
  else out.push_back(std::move(v));
}

// Operands of a strict op: inline for the common small counts.
class Operands {
 public:
  explicit Operands(size_t n) : n_(n) {
    if (n > small_.size()) big_.resize(n);
  }
  Value* data() { return n_ > small_.size() ? big_.data() : small_.data(); }
  Value& operator[](size_t i) { return data()[i]; }
  size_t size() const { return n_; }

 private:
  size_t n_;
  std::array<Value, 3> small_;
  std::vector<Value> big_;
};

// What try's catch sees as {"op": "var", "name": "error"}.
inline Value errorValue(const Error& e) {
  return Value::object(Members{Member{Value::string("type"), Value::string(errorTypeName(e.type))},
                               Member{Value::string("code"), Value::string(errorCodeName(e.code))},
                               Member{Value::string("message"), Value::string(e.message)},
                               Member{Value::string("path"), e.hasPath ? Value::string(e.path) : Value()}});
}

// Only execution errors are caught: limits (timeout, memory) end the run.
inline bool catchable(const PtcError& e) { return e.error.type == ErrorType::Execution; }

}  // namespace ptc::evaluation
