// What the synchronous and the resumable evaluator share (evaluator.cpp,
// evaluator_async.cpp): scopes of bindings and items, operands, and what a
// `try` catches.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "ptc_json/evaluator.h"
#include "ptc_json/op_fields.h"
#include "ptc_json/op_table.h"
#include "ptc_json/program.h"

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

// The fields the control cases read, by name (op_fields.h). Ops sharing a
// Control case share the layout of what it reads.
namespace field {
inline constexpr FieldRef letBindings = fieldRef(Op::Let, "bindings");
inline constexpr FieldRef letValue = fieldRef(Op::Let, "value");
inline constexpr FieldRef letIn = fieldRef(Op::Let, "in");
inline constexpr FieldRef where = fieldRef(Op::Filter, "where");
static_assert(fieldRef(Op::Reject, "where").index == where.index);
inline constexpr FieldRef mapExpr = fieldRef(Op::Map, "expr");
static_assert(fieldRef(Op::FlatMap, "expr").index == mapExpr.index);
inline constexpr FieldRef groupKey = fieldRef(Op::GroupBy, "key");
inline constexpr FieldRef groupAggs = fieldRef(Op::GroupBy, "aggs");
inline constexpr FieldRef entryKey = fieldRef(Op::FromEntries, "key");
inline constexpr FieldRef entryValue = fieldRef(Op::FromEntries, "value");
inline constexpr FieldRef scanInit = fieldRef(Op::Scan, "init");
inline constexpr FieldRef scanExpr = fieldRef(Op::Scan, "expr");
inline constexpr FieldRef reduceInit = fieldRef(Op::Reduce, "init");
inline constexpr FieldRef reduceExpr = fieldRef(Op::Reduce, "expr");
inline constexpr FieldRef ifCondition = fieldRef(Op::If, "condition");
inline constexpr FieldRef ifThen = fieldRef(Op::If, "then");
inline constexpr FieldRef ifElse = fieldRef(Op::If, "else");
inline constexpr FieldRef tryExpr = fieldRef(Op::Try, "expr");
inline constexpr FieldRef tryCatch = fieldRef(Op::Try, "catch");
inline constexpr FieldRef loopInit = fieldRef(Op::Loop, "init");
inline constexpr FieldRef loopNext = fieldRef(Op::Loop, "next");
inline constexpr FieldRef loopWhile = fieldRef(Op::Loop, "while");
inline constexpr FieldRef eachExpr = fieldRef(Op::ForEach, "expr");
inline constexpr FieldRef eachUntil = fieldRef(Op::ForEach, "until");
inline constexpr FieldRef retryExpr = fieldRef(Op::Retry, "expr");
inline constexpr FieldRef retryWhen = fieldRef(Op::Retry, "when");
inline constexpr FieldRef returnValue = fieldRef(Op::Return, "value");
inline constexpr FieldRef quantWhere = fieldRef(Op::Any, "where");
static_assert(fieldRef(Op::All, "where").index == quantWhere.index);
}  // namespace field

// A let's binding expressions, in order: each of `bindings`, or its `value`
// (Node::keys names what each binds).
inline std::span<const std::unique_ptr<Node>> letValues(const Node& n) {
  auto bindings = n.kidsOf(field::letBindings);
  return bindings.empty() ? n.kidsOf(field::letValue) : bindings;
}

// Binds the names a control op's declared scopes bind for its field f
// (op_table.h: OpSpec::scopes): `as` to the item, its literal name (scan's
// acc, try's error) to `literal`. What the fan-out's branches bind too.
inline void bindScopes(RunState& st, const Node& n, FieldRef f, const Value* item, const Value* literal) {
  for (const ScopeSpec& s : specOf(n.op).scopes) {
    if (!s.seenByField(f.index)) continue;
    if (s.binds == Binds::As && item && n.name.isString()) st.bindings.emplace_back(&n.name, *item);
    if (s.binds == Binds::Literal && literal) st.bindings.emplace_back(&n.scopeName, *literal);
  }
}

// The names field f of a control op sees, for the duration of the scope.
class FieldScope {
 public:
  FieldScope(RunState& st, const Node& n, FieldRef f, const Value* item, const Value* literal = nullptr) : vars_(st) {
    bindScopes(st, n, f, item, literal);
  }

 private:
  Bindings vars_;
};

// The scope of one item of an iterating op, for its field f: the names its
// scopes bind, and for map and flat_map the item that comparison values
// inside them see.
class ItemScope {
 public:
  ItemScope(RunState& st, const Node& n, FieldRef f, const Value& item, const Value* literal = nullptr)
      : st_(st), vars_(st, n, f, &item, literal), mapItem_(specOf(n.op).setsMapItem) {
    if (mapItem_) st_.mapItems.push_back(item);
  }
  ~ItemScope() {
    if (mapItem_) st_.mapItems.pop_back();
  }
  ItemScope(const ItemScope&) = delete;
  ItemScope& operator=(const ItemScope&) = delete;

 private:
  RunState& st_;
  FieldScope vars_;
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

// A failed tool call's message: what try's catch sees as $error.message, from
// which errorValue reads its `tool` and `detail` back.
inline constexpr std::string_view kToolFailedStart = "Tool '";
inline constexpr std::string_view kToolFailedMid = "' failed: ";
inline constexpr std::string_view kRetryNote = " (retry: failed ";
inline std::string toolFailedMessage(const std::string& tool, const std::string& message) {
  return std::string(kToolFailedStart) + tool + std::string(kToolFailedMid) + message;
}

// The tries a retry made before it gave up, read back from its note in the
// message (throwRetryGaveUp): "... (retry: failed 3 of 3 tries)" or "...
// (retry: failed try 1 of 5; ...)". 0 when it holds no note.
inline int64_t retryTries(std::string_view message) {
  const size_t note = message.rfind(kRetryNote);
  if (note == std::string_view::npos) return 0;
  std::string_view rest = message.substr(note + kRetryNote.size());
  if (rest.substr(0, 4) == "try ") rest.remove_prefix(4);
  int64_t tries = 0;
  for (size_t i = 0; i < rest.size() && rest[i] >= '0' && rest[i] <= '9' && tries < 100000; ++i)
    tries = tries * 10 + (rest[i] - '0');
  return tries;
}

// What try's catch sees as {"op": "var", "name": "error"}: {type, code,
// message, path}, and for a tool's failure its `tool` and `detail`, the
// tool's own message (without "Tool 'x' failed: " and retry's note), which
// is what an answer quotes; after a retry gave up, `tries`: how many it made.
inline Value errorValue(const Error& e) {
  Members members{Member{Value::string("type"), Value::string(errorTypeName(e.type))},
                  Member{Value::string("code"), Value::string(errorCodeName(e.code))},
                  Member{Value::string("message"), Value::string(e.message)},
                  Member{Value::string("path"), e.hasPath ? Value::string(e.path) : Value()}};
  const std::string_view m = e.message;
  const size_t mid = m.find(kToolFailedMid);
  if (e.code == ErrorCode::ToolFailed && m.substr(0, kToolFailedStart.size()) == kToolFailedStart &&
      mid != std::string_view::npos) {
    std::string_view detail = m.substr(mid + kToolFailedMid.size());
    if (const size_t note = detail.rfind(kRetryNote); note != std::string_view::npos) detail = detail.substr(0, note);
    members.push_back(Member{Value::string("tool"), Value::string(std::string(m.substr(
                                                        kToolFailedStart.size(), mid - kToolFailedStart.size())))});
    members.push_back(Member{Value::string("detail"), Value::string(std::string(detail))});
  }
  if (const int64_t tries = retryTries(m)) members.push_back(Member{Value::string("tries"), Value::integer(tries)});
  return Value::object(std::move(members));
}

// Only execution errors are caught: limits (timeout, memory) end the run, and
// so does a `return` (RunState::returned), which unwinds as one.
inline bool catchable(const RunState& st, const PtcError& e) {
  return e.error.type == ErrorType::Execution && !st.returned;
}

// The error a retry gives up with: its last try's (type, code and path, so a
// try around it catches it as that), its message naming the tries. Thrown by
// a function: the resumable evaluator throws only from calls.
[[noreturn]] inline void throwRetryGaveUp(const Node& n, Error e, int64_t tries, bool exhausted) {
  const std::string of = std::to_string(tries) + " of " + std::to_string(n.count);
  e.message += std::string(kRetryNote) + (exhausted ? of + " tries)" : "try " + of + "; its `when` did not try again)");
  throw PtcError(std::move(e));
}

// return: the run's result is `value` (the first return's, should concurrent
// items return), and evaluation unwinds to the top (RunState::returned).
[[noreturn]] inline void throwReturn(RunState& st, const Node& n, Value value) {
  if (!st.returned) st.returned = std::move(value);
  throw PtcError(ErrorType::Execution, ErrorCode::Internal, "internal: a return ended the program", n.path);
}

}  // namespace ptc::evaluation
