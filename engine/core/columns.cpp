#include "core/columns.h"

#include <algorithm>
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

ColumnarList::ColumnarList(size_t size, std::vector<Value> fields, std::vector<Array> columns,
                           std::vector<std::vector<bool>> absent, Budget* budget)
    : size_(size),
      fields_(std::move(fields)),
      columns_(std::move(columns)),
      absent_(std::move(absent)),
      budget_(budget) {
  // At least a Value an item, as the list of rows will hold: a block of many
  // items without fields (a program that only counts them) costs no bytes to
  // send, but its rows are refused here if they cannot fit.
  const uint64_t bytes = static_cast<uint64_t>(size_) * std::max<size_t>(fields_.size(), 1) * sizeof(Value);
  if (budget_) budget_->charge(bytes);  // may throw: then nothing was charged
  charged_ = bytes;
}

ColumnarList::~ColumnarList() { releaseColumns(); }

void ColumnarList::releaseColumns() {
  columns_.clear();
  columns_.shrink_to_fit();
  if (budget_) budget_->release(charged_);
  charged_ = 0;
}

const Array* ColumnarList::column(const Value& field) const {
  if (!field.isString()) return nullptr;
  for (size_t f = 0; f < columns_.size(); ++f)
    if (fields_[f].str() == field.str()) return &columns_[f];
  return nullptr;
}

const Value& ColumnarList::rows() {
  if (!rows_.isNull()) return rows_;
  Array items;
  items.reserve(size_);
  Members members;
  for (size_t i = 0; i < size_; ++i) {
    tickDeadline();
    members.clear();  // reused from row to row: the object takes the members, not the vector
    for (size_t f = 0; f < fields_.size(); ++f)
      if (absent_[f].empty() || !absent_[f][i]) members.push_back(Member{fields_[f], columns_[f][i]});
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
