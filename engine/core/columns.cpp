#include "core/columns.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>

#include "core/deadline.h"

namespace ptc {

ColumnCache::~ColumnCache() {
  if (budget_) budget_->release(charged_);
}

bool ColumnCache::owns(const Value& list) const {
  const MemberSpan members = owner_.members();
  return std::any_of(members.begin(), members.end(), [&](const Member& m) { return m.value.sameHeap(list); });
}

const Array* ColumnCache::column(const Value& list, const Value& field) {
  if (!list.isArray() || !field.isString()) return nullptr;
  for (const auto& e : columns_)
    if (e->identity == list.identity() && e->field == field.str()) return e->list.isNull() ? nullptr : &e->values;
  if (!owns(list)) return nullptr;
  const Array& items = list.items();
  if (!std::all_of(items.begin(), items.end(), [](const Value& item) { return item.isObject(); })) {
    // Refused for good: scans of it read the rows.
    columns_.push_back(std::make_unique<Entry>(Entry{list.identity(), field.str(), Value(), {}}));
    return nullptr;
  }
  const uint64_t bytes = items.size() * sizeof(Value);
  if (budget_ && !budget_->fits(bytes)) return nullptr;
  // Built whole before it is kept: a deadline that strikes midway leaves nothing behind.
  Array values;
  values.reserve(items.size());
  uint32_t hint = 0;
  // Equal texts become one value in the column, as they are in a list that
  // crossed as columns: group_by then finds most keys by identity, not by
  // hashing. Up to kSharedTexts distinct ones: past that a column is mostly
  // distinct texts, which sharing would not help. (The map's type is the one
  // ObjectBuilder uses: no more code in the wasm.)
  constexpr size_t kSharedTexts = 4096;
  std::unordered_map<std::string_view, size_t> shared;  // a text -> the first cell holding it
  for (const Value& item : items) {
    tickDeadline();
    const Value* v = item.find(field, hint);
    if (v && v->isString()) {
      auto known = shared.find(v->str());
      if (known != shared.end()) v = &values[known->second];  // reserved: no cell moves
      else if (shared.size() < kSharedTexts) shared.emplace(v->str(), values.size());
    }
    values.push_back(v ? *v : Value());
  }
  if (budget_) budget_->charge(bytes);
  charged_ += bytes;
  columns_.push_back(std::make_unique<Entry>(Entry{list.identity(), field.str(), list, std::move(values)}));
  return &columns_.back()->values;
}

Value CellColumn::value(size_t i) const {
  switch (tag(i)) {
    case RowTag::False: return Value::boolean(false);
    case RowTag::True: return Value::boolean(true);
    case RowTag::Number: return cellNumber(cells[i]);
    case RowTag::String: return (*strings)[static_cast<size_t>(cells[i])];
    case RowTag::Null:
    case RowTag::Absent: break;
  }
  return Value();
}

Value cellNumber(double d) {
  if (std::trunc(d) == d && std::fabs(d) < 9223372036854775808.0) return Value::integer(static_cast<int64_t>(d));
  return Value::number(d);
}

ColumnarList::ColumnarList(size_t size, std::vector<Value> fields, std::unique_ptr<double[]> cells,
                           std::vector<uint8_t> tags, std::vector<Value> strings, Budget* budget)
    : size_(size),
      fields_(std::move(fields)),
      cells_(std::move(cells)),
      tags_(std::move(tags)),
      strings_(std::move(strings)),
      budget_(budget) {
  // A Value a field an item (at least one an item), as the list of rows will
  // hold; the cells take 9 bytes. A block of many items without fields (a
  // program that only counts them) costs no bytes to send, but its rows are
  // refused here if they cannot fit.
  const uint64_t bytes = static_cast<uint64_t>(size_) * std::max<size_t>(fields_.size(), 1) * sizeof(Value);
  if (budget_) budget_->charge(bytes);  // may throw: then nothing was charged
  charged_ = bytes;
}

ColumnarList::~ColumnarList() { releaseColumns(); }

void ColumnarList::releaseColumns() {
  cells_.reset();
  tags_ = std::vector<uint8_t>();
  strings_ = std::vector<Value>();
  if (budget_) budget_->release(charged_);
  charged_ = 0;
}

std::optional<size_t> ColumnarList::fieldIndex(const Value& field) const {
  if (!field.isString() || !rows_.isNull()) return std::nullopt;
  for (size_t f = 0; f < fields_.size(); ++f)
    if (fields_[f].str() == field.str()) return f;
  return std::nullopt;
}

std::optional<CellColumn> ColumnarList::cells(const Value& field) const {
  std::optional<size_t> f = fieldIndex(field);
  if (!f) return std::nullopt;
  return cellsAt(*f);
}

const Value& ColumnarList::rows() {
  if (!rows_.isNull()) return rows_;
  Array items;
  items.reserve(size_);
  Members members;
  for (size_t i = 0; i < size_; ++i) {
    tickDeadline();
    members.clear();  // reused from row to row: the object takes the members, not the vector
    for (size_t f = 0; f < fields_.size(); ++f) {
      const CellColumn cells = cellsAt(f);
      if (cells.tag(i) != RowTag::Absent) members.push_back(Member{fields_[f], cells.value(i)});
    }
    items.push_back(Value::object(members.data(), members.size()));
  }
  rows_ = Value::array(std::move(items));
  releaseColumns();
  return rows_;
}

ColumnarList* ColumnarLists::find(std::string_view key) const {
  for (const Entry& e : lists_)
    if (e.key.str() == key) return e.list.get();
  return nullptr;
}

bool ColumnarLists::holds(const Value& list) const {
  return std::any_of(lists_.begin(), lists_.end(), [&](const Entry& e) { return e.list->holds(list); });
}

}  // namespace ptc
