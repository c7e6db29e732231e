#include "core/columns.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>

#include "core/deadline.h"

namespace ptc {

ColumnCache::ColumnCache(Value owner, Budget* budget) : owner_(std::move(owner)), budget_(budget) {
  size_t n = 0;
  for (MemberRef m : owner_.members()) n += m.value.isArray() ? 1 : 0;
  const uint64_t bytes = n * sizeof(const void*);
  if (budget_) budget_->charge(bytes);  // may throw: then nothing was charged
  charged_ = bytes;
  std::vector<const void*> found;  // in member order, then sorted by address into lists_
  found.reserve(n);
  for (MemberRef m : owner_.members())
    if (m.value.isArray()) found.push_back(m.value.identity());
  std::vector<uint32_t> order(n);
  for (uint32_t i = 0; i < n; ++i) order[i] = i;
  sortPositions(order.data(), n, [&](uint32_t a, uint32_t b) { return std::less<const void*>()(found[a], found[b]); });
  lists_.reserve(n);
  for (uint32_t i : order) lists_.push_back(found[i]);
}

ColumnCache::~ColumnCache() {
  if (budget_) budget_->release(charged_);
}

bool ColumnCache::owns(const Value& list) const {
  return list.isArray() && std::binary_search(lists_.begin(), lists_.end(), list.identity());
}

namespace {

// Whether a Number cell gives v back: the same kind of number, the same value.
bool numberCellHolds(const Value& v) {
  const Value back = cellNumber(v.asDouble());
  return v.isInt() ? back.isInt() && back.asInt() == v.asInt() : !back.isInt();
}

// A resident list's cells of one field. Equal texts are one value (the first
// place holds it), as they are in a list that crossed as columns: folds and
// group_by then decide once per text, not once per item. Up to kSharedTexts
// distinct ones: past that a column is mostly distinct texts, which sharing
// would not help. (The map's type is the one ObjectBuilder uses: no more code
// in the wasm.) A number that a Number cell would give back otherwise (an
// integer past 2^53, an integral float), objects and lists are values too.
Cells residentCells(const Array& items, const Value& field) {
  constexpr size_t kSharedTexts = 4096;
  Cells out;
  out.cells.reset(new double[items.size()]);
  out.tags.resize(items.size());
  std::unordered_map<std::string_view, size_t> shared;  // a text -> its place in out.values
  auto place = [&](const Value& v) {
    out.values.push_back(v);
    return static_cast<double>(out.values.size() - 1);
  };
  uint32_t hint = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    tickDeadline();
    const Value* v = items[i].find(field, hint);
    RowTag tag = RowTag::String;
    double cell = 0;
    if (!v) {
      tag = RowTag::Absent;
    } else if (v->isNull()) {
      tag = RowTag::Null;
    } else if (v->isBool()) {
      tag = v->truthy() ? RowTag::True : RowTag::False;
    } else if (v->isNumber() && numberCellHolds(*v)) {
      tag = RowTag::Number;
      cell = v->asDouble();
    } else if (v->isString()) {
      auto known = shared.find(v->str());
      if (known != shared.end()) {
        cell = static_cast<double>(known->second);
      } else {
        cell = place(*v);
        if (shared.size() < kSharedTexts) shared.emplace(out.values.back().str(), out.values.size() - 1);
      }
    } else {
      cell = place(*v);
    }
    out.tags[i] = static_cast<uint8_t>(tag);
    out.cells[i] = cell;
  }
  return out;
}

}  // namespace

std::optional<CellColumn> ColumnCache::cells(const Value& list, const Value& field) {
  if (!list.isArray() || !field.isString()) return std::nullopt;
  for (const auto& e : columns_)
    if (e->identity == list.identity() && e->field == field.str())
      return e->list.isNull() ? std::nullopt : std::optional<CellColumn>(e->cells.column(0));
  if (!owns(list)) return std::nullopt;
  const Array& items = list.items();
  if (!std::all_of(items.begin(), items.end(), [](const Value& item) { return item.isObject(); })) {
    // Refused for good: scans of it read the rows.
    columns_.push_back(std::make_unique<Entry>(Entry{list.identity(), field.str(), Value(), {}}));
    return std::nullopt;
  }
  if (budget_ && !budget_->fits(items.size() * 9)) return std::nullopt;
  // Built whole before it is kept: a deadline that strikes midway leaves nothing behind.
  Cells built = residentCells(items, field);
  if (!items.empty() && std::all_of(built.tags.begin(), built.tags.end(),
                                    [](uint8_t t) { return t == static_cast<uint8_t>(RowTag::Absent); })) {
    // No item has the field: scans read the rows, whose reads warn of it (core/warnings.h).
    columns_.push_back(std::make_unique<Entry>(Entry{list.identity(), field.str(), Value(), {}}));
    return std::nullopt;
  }
  const uint64_t bytes = built.bytes();
  if (budget_ && !budget_->fits(bytes)) return std::nullopt;
  if (budget_) budget_->charge(bytes);
  charged_ += bytes;
  columns_.push_back(std::make_unique<Entry>(Entry{list.identity(), field.str(), list, std::move(built)}));
  return columns_.back()->cells.column(0);
}

Value CellColumn::value(size_t i) const {
  switch (tag(i)) {
    case RowTag::False: return Value::boolean(false);
    case RowTag::True: return Value::boolean(true);
    case RowTag::Number: return cellNumber(cells[i]);
    case RowTag::String: return (*values)[static_cast<size_t>(cells[i])];
    case RowTag::Null:
    case RowTag::Absent: break;
  }
  return Value();
}

ColumnarList::ColumnarList(size_t size, std::vector<Value> fields, Cells cells, Budget* budget)
    : size_(size), fields_(std::move(fields)), cells_(std::move(cells)), budget_(budget) {
  // A Value a field an item (at least one an item), as the list of rows will
  // hold; the cells take 9 bytes. A block of many items without fields (a
  // program that only counts them) costs no bytes to send, but its rows are
  // refused here if they cannot fit.
  const uint64_t bytes = static_cast<uint64_t>(size_) * std::max<size_t>(fields_.size(), 1) * sizeof(Value);
  if (budget_) budget_->charge(bytes);  // may throw: then nothing was charged
  charged_ = bytes;
}

ColumnarList::~ColumnarList() { releaseCells(); }

void ColumnarList::releaseCells() {
  cells_ = Cells();
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
    // Rows with the fields of the one before hold only their values (its shape, value.h).
    items.push_back(Value::object(members.data(), members.size(), items.empty() ? nullptr : &items.back()));
  }
  rows_ = Value::array(std::move(items));
  releaseCells();
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
