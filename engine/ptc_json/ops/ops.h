// The semantics of each operation over already-evaluated operands. Shared by
// the synchronous and the resumable evaluator, so each rule is written once.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/error.h"
#include "core/value.h"
#include "ptc_json/program.h"

namespace ptc {

struct CellColumn;  // core/columns.h

// Applies a strict operation: one whose expression fields (n.kids) have all
// been evaluated against the current value `in`, in order, into args[0..]:
// its table entry's function (OpSpec::apply, in ops/<family>.cpp). The control
// operations (op_table.h: Control) are run by the evaluators themselves.
Value applyOp(const Node& n, const Value& in, const Value* args, size_t nargs);

// Helpers the evaluators share.
[[noreturn]] void throwExecution(ErrorCode code, const Node& n, std::string message);
[[noreturn]] void throwNoInput(const Node& n);
const Array& expectList(const Node& n, const Value& in);
Value objectFromFields(const Node& n, const Value* args, size_t nargs);
// group_by's groups, sorted by their key when its `order` is given (as sort_by:
// stable, nulls last, a number and a text do not order); else as they are.
Value orderedGroups(const Node& n, Value groups);

// Helpers the op families (ops/*.cpp) share.
std::string quoted(const Node& n);  // 'name' of the op
// The field `n.field` of the current value, or the value itself without a
// field: null when the value is null, an execution error when it is a number,
// text, boolean or list (fail fast: reading a field of those is a mistake).
Value readField(const Node& n, const Value& in);
// Tallies a read of the node's field (core/warnings.h): one store per read.
inline void noteRead(const Node& n, bool found, const Value& object) {
  if (n.readSlot < 0) return;
  if (Warnings* w = Warnings::current()) w->noteRead(n.readSlot, found, object);
}
// Tallies the read of key number `key` of a node reading several (select's
// fields, sort_by's `by` keys: program.h keyReads).
inline void noteKeyRead(const Node& n, size_t key, bool found, const Value& object) {
  if (n.readSlot < 0) return;
  if (Warnings* w = Warnings::current()) w->noteRead(n.readSlot + static_cast<int32_t>(key), found, object);
}
// The node's `field` of an object (null when missing or not an object), found
// through the node's hint: a field read per row is one comparison.
inline Value fieldOf(const Node& n, const Value& item) {
  const Value* v = item.find(n.field, n.fieldHint);
  noteRead(n, v != nullptr, item);
  return v ? *v : Value();
}
// The input of a value-level op: its `value` expression when given, else readField.
inline Value valueInput(const Node& n, const Value& in, const Value* args) {
  return n.valueGiven ? args[0] : readField(n, in);
}
// A field of a list's items that none of them has (lookup's `key`, descendants'
// `parent`): a warning naming the fields `anItem` has (ops/ranks.cpp).
void warnKeyNoItemHas(const Node& n, const char* what, const std::string& name, const Value& anItem);
// A text where a number is needed: the message names the value and to_number.
[[noreturn]] void throwTextNotNumber(const Node& n, const std::string& context, const Value& text);

// The value sum/min/max/median... read from item i: its field, null for a null
// item, and an error for a number, text, boolean or list item (fail fast).
Value itemValue(const Node& n, const Value& item, size_t i);
// nth/take/drop: the literal count, or the value of its expression (args[0]).
size_t countOperand(const Node& n, const Value* args, size_t nargs);

// The value of the expression field at `fieldIndex` in the op table, or null when absent.
const Value& operand(const Node& n, const Value* args, size_t fieldIndex);

// What the op families share (ops/ops.cpp): the value a comparison or aggregate
// looks at (the item's field, or the item); a float result, an error when it is
// not finite; the order of two values, an error for a number against a text.
Value subject(const Node& n, const Value& item);
Value number(const Node& n, double d);
int orderOf(const Node& n, const Value& a, const Value& b);

// statistics (ops/stats.cpp)
Value sum(const Node& n, const Array& items);
Value avg(const Node& n, const Array& items);
Value extreme(const Node& n, const Array& items, bool wantMax);    // min, max
Value extremeBy(const Node& n, const Array& items, bool wantMax);  // min_by, max_by
Value median(const Node& n, const Array& items);
Value percentile(const Node& n, const Array& items);
Value countDistinct(const Node& n, const Array& items);

// var with `field` or `path`: reads inside the variable's value, as get does.
Value readVarValue(const Node& n, const Value& v);

// conversions (ops/convert.cpp)
Value toNumber(const Node& n, const Value& v);
Value toText(const Node& n, const Value& v);

// Adds numbers one at a time by the rule of 'add': integers stay exact
// integers until a partial sum would overflow int64; from there on (or from
// the first float) the sum is a float.
class NumberSum {
 public:
  void add(const Value& v) {
    int64_t r = 0;
    if (!isFloat_ && v.isInt() && !__builtin_add_overflow(int_, v.asInt(), &r)) {
      int_ = r;
      return;
    }
    if (!isFloat_) {
      isFloat_ = true;
      float_ = static_cast<double>(int_);
    }
    float_ += v.asDouble();
  }
  bool isFloat() const { return isFloat_; }
  int64_t asInt() const { return int_; }
  double asDouble() const { return isFloat_ ? float_ : static_cast<double>(int_); }

 private:
  bool isFloat_ = false;
  int64_t int_ = 0;
  double float_ = 0;
};

// group and reshape (ops/groups.cpp)
// Items bucketed by key (structural equality), groups in first-seen order.
class Groups {
 public:
  struct Group {
    Value key;
    Array items;
  };
  // The groups and their items are charged to the run as they grow (Scratch).
  void add(const Value& key, const Value& item) {
    Group& g = groups_[indexOf(key)];
    scratch_.charge(sizeof(Value));
    g.items.push_back(item);
  }
  // The group of `key` (made empty when new), its items left to the caller.
  size_t indexOf(const Value& key);
  size_t size() const { return groups_.size(); }
  std::vector<Group>& all() { return groups_; }
  // Group i's items as a list value, whose charge replaces theirs.
  Value takeItems(size_t i);
  Value toList();  // [{"key": k, "items": [...]}]

 private:
  struct KeyHash {
    size_t operator()(const Value& v) const { return hashValue(v); }
  };
  struct KeyEq {
    bool operator()(const Value& a, const Value& b) const { return equals(a, b); }
  };
  std::unordered_map<Value, size_t, KeyHash, KeyEq> index_;
  std::vector<Group> groups_;
  // Texts seen as keys, by identity: rows that crossed as a row block share
  // one value per distinct text, so most keys are found here without hashing.
  static constexpr size_t kRecent = 16;
  std::vector<std::pair<Value, size_t>> recent_;
  Scratch scratch_;
};
// group_by's aggregates folded while grouping, when every one is count or
// sum/avg/min/max of a field or of the items: no list per group is built.
// add() or results() say false (and the caller builds the lists, to get the
// errors exactly as the aggregates over lists give them) at anything but the
// plain case: a value those ops would reject, a sum too large.
class GroupFolds {
 public:
  static bool canFold(const Node& agg);
  // Whether its fold reads a field's cells (count's reads none).
  static bool readsCells(const Node& agg);
  explicit GroupFolds(const Node& n);
  bool add(size_t group, const Value& item);
  // The same for `count` items of a list read by columns, from item `from`
  // on, item k in group groups[k] (each below `groupCount`): columns[j] is agg
  // j's field (count's is not read). Agg after agg over the block, and a
  // number cell goes into a sum or an average without becoming a Value: the
  // per-item work of group_by over cells.
  // Item k of the block is at position at[k] of the columns.
  bool addCells(const uint32_t* groups, size_t count, size_t groupCount, const CellColumn* columns, const uint32_t* at);
  bool results(size_t group, Value* out) const;

 private:
  struct Fold {
    NumberSum sum;
    size_t count = 0;  // items (count), or numbers (avg)
    Value best;        // min, max
  };
  Fold* groupFolds(size_t group);
  static bool fold(Fold& f, const Node& agg, Value v);
  void cover(size_t folds);  // folds_ holds at least this many, charged
  const Node& n_;
  std::span<const std::unique_ptr<Node>> aggs_;  // n_'s `aggs`
  std::vector<Fold> folds_;                      // group * aggs + agg
  Scratch scratch_;
};
// {"key": k, <agg name>: <value>...} for group_by with aggs (names in n.keys).
Value groupObject(const Node& n, const Value& key, const Value* aggs, size_t count);
// from_entries: an item's key or value when no expression gives it.
Value entryPart(const Node& n, const Value& item, size_t index, bool key);
// Object members collected in order; a repeated key keeps its first place and its last value.
class Entries {
 public:
  void add(const Node& n, const Value& key, Value value, size_t index);
  Value toObject();

 private:
  std::unordered_map<std::string, size_t> index_;
  Members members_;
  Scratch scratch_;  // the index and the members, charged as they grow
};
Value toEntries(const Node& n, const Value& in);
Value flatten(const Array& items);

}  // namespace ptc
