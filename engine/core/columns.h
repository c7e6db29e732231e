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

// Where a fold finds the column of a field over a list of objects (nullptr
// when it cannot).
class ColumnSource {
 public:
  virtual const Array* column(const Value& field) const = 0;

 protected:
  ~ColumnSource() = default;
};

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

// The columns a cache gives of one list.
class CachedColumns final : public ColumnSource {
 public:
  CachedColumns(ColumnCache& cache, const Value& list) : cache_(&cache), list_(list) {}
  const Array* column(const Value& field) const override { return cache_->column(list_, field); }

 private:
  ColumnCache* cache_;
  const Value& list_;
};

// A list of objects that crossed as columns (host/row_block.h): for each field
// the program reads, the value of every item there. A fold over a field (a
// filter's count or sum, group_by's aggregates) reads the columns and never
// builds a row; anything else asks for rows(), which builds the list of
// objects once and lets the columns go (their bytes go back to the budget).
class ColumnarList final : public ColumnSource {
 public:
  // `absent[f]` is empty when every item has field f, else says which lack it.
  // The columns' bytes are charged to `budget` (nullable), which must outlive it.
  ColumnarList(size_t size, std::vector<Value> fields, std::vector<Array> columns,
               std::vector<std::vector<bool>> absent, Budget* budget);
  ~ColumnarList();
  ColumnarList(const ColumnarList&) = delete;
  ColumnarList& operator=(const ColumnarList&) = delete;

  size_t size() const { return size_; }
  // The values of `field` item by item (null where an item has none); nullptr
  // once the rows are built, or when `field` is not one of the columns.
  const Array* column(const Value& field) const override;
  // The list of objects (each with the fields it has, in column order).
  const Value& rows();
  // Whether `list` is this list's rows.
  bool holds(const Value& list) const { return rows_.sameHeap(list); }

 private:
  void releaseColumns();

  size_t size_;
  std::vector<Value> fields_;
  std::vector<Array> columns_;
  std::vector<std::vector<bool>> absent_;
  Budget* budget_;
  uint64_t charged_ = 0;
  Value rows_;  // null until built
};

// A run's lists that crossed as columns, by context key.
class ColumnarLists {
 public:
  void add(Value key, std::unique_ptr<ColumnarList> list) { lists_.push_back({std::move(key), std::move(list)}); }
  bool empty() const { return lists_.empty(); }
  ColumnarList* find(std::string_view key) const;
  bool holds(const Value& list) const;

 private:
  struct Entry {
    Value key;
    std::unique_ptr<ColumnarList> list;
  };
  std::vector<Entry> lists_;
};

}  // namespace ptc
