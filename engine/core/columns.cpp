#include "core/columns.h"

#include <algorithm>

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
  for (const Value& item : items) {
    tickDeadline();
    const Value* v = item.find(field, hint);
    values.push_back(v ? *v : Value());
  }
  if (budget_) budget_->charge(bytes);
  charged_ += bytes;
  columns_.push_back(std::make_unique<Entry>(Entry{list.identity(), field.str(), list, std::move(values)}));
  return &columns_.back()->values;
}

}  // namespace ptc
