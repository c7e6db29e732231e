// Columns of lists of objects: for one field, what each item holds there,
// side by side. A fold that reads a field row after row (a filter's count or
// sum, group_by's aggregates) then reads contiguous cells instead of visiting
// every row's object. Two kinds of list have them: a list that crossed from the
// package as columns (core/row_block.h) keeps its cells as they crossed, and
// the lists of a resident context get theirs from a cache, built the first
// time a fold asks (values never change, so a column stays right for as long
// as its list lives). Both read the same way, through CellColumn.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/value.h"

namespace ptc {

// How a cell holds an item's field (the layout of crossed lists is in
// core/row_block.h): an Absent field is one the item does not have.
enum class RowTag : uint8_t { Null, False, True, Number, String, Absent };

// One field's cells over a list: a tag per item and, for a Number, its value;
// for a String, the position of a value in `values` (the texts of a crossed
// list; for a resident list also any value a Number cell cannot hold exactly).
// The other tags' cells hold nothing that is read.
struct CellColumn {
  const double* cells;
  const uint8_t* tags;
  const std::vector<Value>* values;

  RowTag tag(size_t i) const { return static_cast<RowTag>(tags[i]); }
  // Item i's value there (null where it has none).
  Value value(size_t i) const;
};

// A number as its JSON text would parse: integers below 2^63 in magnitude are
// integer values. Inline: folds call it for every number they add.
inline Value cellNumber(double d) {
  if (std::trunc(d) == d && std::fabs(d) < 9223372036854775808.0) return Value::integer(static_cast<int64_t>(d));
  return Value::number(d);
}

// Cells of one or more fields (field after field) and the values they point at.
struct Cells {
  std::unique_ptr<double[]> cells;
  std::vector<uint8_t> tags;
  std::vector<Value> values;

  CellColumn column(size_t from) const { return {cells.get() + from, tags.data() + from, &values}; }
  uint64_t bytes() const { return tags.size() * 9 + values.size() * sizeof(Value); }
};

// Where a fold finds the cells of a field over a list of objects.
class ColumnSource {
 public:
  virtual std::optional<CellColumn> cells(const Value& field) const = 0;

 protected:
  ~ColumnSource() = default;
};

class ColumnCache {
 public:
  // The lists it may build columns of (the top-level values of a resident
  // context); their columns' bytes are charged to `budget`, which must outlive it.
  // The identities of those lists are kept sorted (8 bytes a list, charged),
  // so asking whether a list is one of them does not scan every key.
  ColumnCache(Value owner, Budget* budget);
  ~ColumnCache();
  ColumnCache(const ColumnCache&) = delete;
  ColumnCache& operator=(const ColumnCache&) = delete;

  // The cells of `field` over `list`, built on first use; nullopt when the
  // list is not one of the owner's values, an item is not an object, or the
  // column would not fit the budget (a scan then reads the rows).
  std::optional<CellColumn> cells(const Value& list, const Value& field);
  // Whether `list` is one of the owner's values (the same heap block).
  bool owns(const Value& list) const;

 private:
  Value owner_;                     // an object whose member values are the lists served
  std::vector<const void*> lists_;  // the identities of its list values, sorted
  Budget* budget_;
  uint64_t charged_ = 0;
  // A few lists and fields at most: found by a scan. A refused list's entry has a null `list`.
  struct Entry {
    const void* identity;
    std::string field;
    Value list;  // kept alive with its column (null when refused)
    Cells cells;
  };
  std::vector<std::unique_ptr<Entry>> columns_;  // by pointer: a column handed out stays where it is
};

// The columns a cache gives of one list.
class CachedColumns final : public ColumnSource {
 public:
  CachedColumns(ColumnCache& cache, const Value& list) : cache_(&cache), list_(list) {}
  std::optional<CellColumn> cells(const Value& field) const override { return cache_->cells(list_, field); }

 private:
  ColumnCache* cache_;
  const Value& list_;
};

// A list of objects that crossed as columns (core/row_block.h): for each field
// the program reads, the cells of every item there, kept as they crossed.
// Folds over fields (a filter's count or sum, group_by's aggregates) read the
// cells; anything else asks for rows(), which builds the list of objects once
// and lets the cells go (their bytes go back to the budget).
class ColumnarList final : public ColumnSource {
 public:
  // `cells` hold fields.size() × size cells, field after field, already
  // checked (known tags, finite numbers, texts that exist). They are charged
  // to `budget` (nullable), which must outlive the list, at the size of the
  // rows they stand for.
  ColumnarList(size_t size, std::vector<Value> fields, Cells cells, Budget* budget);
  ~ColumnarList();
  ColumnarList(const ColumnarList&) = delete;
  ColumnarList& operator=(const ColumnarList&) = delete;

  size_t size() const { return size_; }
  // The cells of `field`; nullopt once the rows are built, or when `field` is
  // not one of the columns.
  std::optional<CellColumn> cells(const Value& field) const override;
  // The list of objects (each with the fields it has, in column order).
  const Value& rows();
  // Whether `list` is this list's rows.
  bool holds(const Value& list) const { return rows_.sameHeap(list); }

 private:
  std::optional<size_t> fieldIndex(const Value& field) const;
  CellColumn cellsAt(size_t f) const { return cells_.column(f * size_); }
  void releaseCells();

  size_t size_;
  std::vector<Value> fields_;
  Cells cells_;
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
  // The context keys that crossed as columns (for a message).
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Entry& e : lists_) out.push_back(e.key.str());
    return out;
  }

 private:
  struct Entry {
    Value key;
    std::unique_ptr<ColumnarList> list;
  };
  std::vector<Entry> lists_;
};

}  // namespace ptc
