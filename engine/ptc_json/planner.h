// Query planning for filters: what a database does for a join, done for the
// programs agents write. A join in PTC-JSON is a map over one list whose
// expression filters another list on a field equal to a value of the outer
// item, then takes the first match:
//
//   map orders: pipe [load users, filter (eq field id, value <get user_id>), first]
//
// Run as written, `value` is evaluated again for every user and every user is
// compared for every order. The planner marks, at compile time, what the
// evaluator may do instead with the same result (same values, same order, the
// same error at the same path):
//   - hoist: `value` reads nothing of the filter's item (it sees the enclosing
//     map's item, variables, the context), so it is evaluated once per run of
//     the filter, not once per item;
//   - first: the next pipe step is `first`, so only the first match is kept
//     (the remaining items are still checked for what would raise an error);
//   - fold: the next pipe step is `count` or `sum` of a field, so the matches
//     are counted or summed as they are found, and no list of them is built
//     (on anything but plain objects and numbers the plain filter runs, so
//     errors are its errors);
//   - group: the next pipe step is `group_by` a field with aggregates that
//     fold (count, sum/avg/min/max of a field), and the filtered list is a
//     resident one: the positions of the matches are found in the field's
//     column and group_by reads its columns at those positions, so no row is
//     visited and no list of the matches is built (anything else: as written);
//   - index: the filtered list is a loaded context value or a variable, which
//     stays the same list across the iterations around the filter: the second
//     time the filter sees the same list it builds a hash index of the field's
//     values (item order kept for duplicate keys) and probes it from then on.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/columns.h"
#include "core/value.h"
#include "ptc_json/program.h"

namespace ptc {

// Bits of Node::plan (on filter nodes).
enum PlanBits : uint8_t {
  kPlanHoist = 1,         // the comparison's `value` is evaluated once per filter run
  kPlanFirst = 2,         // the next pipe step is `first`: keep the first match only
  kPlanIndex = 4,         // the list comes from a load or a var step: it may be indexed
  kPlanValueReadsIn = 8,  // `value` reads its input: hoist only inside a map (it then sees the map's item)
  kPlanFold = 16,         // the next pipe step is count, or sum of a field: fold the matches, build no list
  kPlanGroup = 32,        // the next pipe step is group_by: over a resident list's columns, group the matches' cells
};

// Marks the filters of a compiled program (Node::plan).
void planQueries(Node& root);

// The hash indexes of one run, one per filter node at most. An index holds a
// reference to its list, so the list cannot be freed and its address reused
// by another list while the index exists; the evaluator drops indexes of
// lists held by variables when those variables go out of scope, so an index
// never keeps a list alive longer than the program does. The index itself is
// a few words per item and is not charged to the run's memory budget (the
// list it indexes is).
class JoinIndexes {
 public:
  struct KeyHash {
    size_t operator()(const Value& v) const { return hashValue(v); }
  };
  struct KeyEq {
    bool operator()(const Value& a, const Value& b) const { return equals(a, b); }
  };
  struct Index {
    Scratch held;                                               // what it takes, charged to the run (value.h)
    Value list;                                                 // the indexed list (kept alive)
    std::unordered_map<Value, uint32_t, KeyHash, KeyEq> heads;  // key -> first position with it
    std::vector<uint32_t> next;                                 // position -> next one with an equal key
  };
  static constexpr uint32_t kEnd = UINT32_MAX;

  // The indexes are a cache: a copy starts empty. A branch of a fan-out
  // (evaluator_fanout.cpp) copies the run's state and builds its own indexes,
  // so no branch reads one another branch is building.
  JoinIndexes() = default;
  JoinIndexes(const JoinIndexes&) {}
  JoinIndexes& operator=(const JoinIndexes&) {
    slots_.clear();
    return *this;
  }
  JoinIndexes(JoinIndexes&&) = default;
  JoinIndexes& operator=(JoinIndexes&&) = default;

  // What one filter node knows of the lists it has filtered.
  struct Slot {
    const Array* seen = nullptr;     // the list seen last (only compared, not kept alive)
    const Array* refused = nullptr;  // a list whose keys cannot be indexed exactly
    std::unique_ptr<Index> index;
  };
  Slot& slot(const Node& filter) { return slots_[&filter]; }
  bool empty() const { return slots_.empty(); }
  // Drops the indexes of lists bound to bindings[from..] (variables going out
  // of scope) that nothing else the run keeps (an outer variable, the
  // context or the resident one, the rows of a list that crossed as columns,
  // memory) still holds.
  void forget(const std::vector<std::pair<const Value*, Value>>& bindings, size_t from, const Value& context,
              const ColumnCache* resident, const ColumnarLists* columnar, const Value& memory);
  void clear() { slots_.clear(); }

 private:
  std::unordered_map<const Node*, Slot> slots_;
};

// Whether a key can be looked up in a hash index with exactly the result of
// comparing it with `eq` one by one: null, booleans, texts, finite numbers
// (integers up to 2^53, where comparing as doubles loses nothing). Lists,
// objects and larger integers are compared in ways a hash cannot mirror.
bool indexableKey(const Value& v);

}  // namespace ptc
