// Columns of lists of objects: for one field, the value each item holds there
// (null when it has none), side by side in one vector. A scan that reads a
// field row after row then reads contiguous memory instead of visiting every
// row's object, which is what the time of a filter or a sum over data that
// stays in the engine (a resident context) goes to. Values never change, so a
// column stays right for as long as its list lives; a cache keeps the columns
// of the lists it was given and builds each one the first time it is asked for.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/value.h"

namespace ptc {

class ColumnCache {
 public:
  // The lists it may build columns of (the top-level values of a resident
  // context); their columns' bytes are charged to `budget`, which must outlive it.
  ColumnCache(Value owner, Budget* budget) : owner_(owner), budget_(budget) {}
  ~ColumnCache();
  ColumnCache(const ColumnCache&) = delete;
  ColumnCache& operator=(const ColumnCache&) = delete;

  // The column of `field` over `list`, built on first use; nullptr when the
  // list is not one of the owner's values, an item is not an object, or the
  // column would not fit the budget (a scan then reads the rows).
  const Array* column(const Value& list, const Value& field);

 private:
  bool owns(const Value& list) const;

  Value owner_;  // an object whose member values are the lists served
  Budget* budget_;
  uint64_t charged_ = 0;
  // A few lists and fields at most: found by a scan. A refused list's entry has a null `list`.
  struct Entry {
    const void* identity;
    std::string field;
    Value list;  // kept alive with its column (null when refused)
    Array values;
  };
  std::vector<std::unique_ptr<Entry>> columns_;  // by pointer: a column handed out stays where it is
};

}  // namespace ptc
