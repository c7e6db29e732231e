#include "host/row_block.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.h"

namespace ptc {

namespace {

class BlockReader {
 public:
  BlockReader(std::string_view data, const std::function<void()>& progress) : data_(data), progress_(progress) {}

  bool done() const { return at_ == data_.size(); }

  void block(ColumnarLists& lists) {
    Value key = text();
    const uint32_t itemCount = u32();
    const uint32_t fieldCount = u32();
    if (fieldCount > (data_.size() - at_) / 4) malformed();  // each name takes at least its length
    std::vector<Value> fields;
    fields.reserve(fieldCount);
    for (uint32_t f = 0; f < fieldCount; ++f) fields.push_back(text());
    skip((8 - at_ % 8) % 8);
    const uint64_t cells = static_cast<uint64_t>(itemCount) * fieldCount;
    if (cells > (data_.size() - at_) / 9) malformed();
    const size_t cellsAt = at_;
    const size_t tagsAt = cellsAt + 8 * cells;
    at_ = tagsAt + cells;
    const std::vector<Value> strings = stringTable();
    std::vector<Array> columns(fieldCount);
    std::vector<std::vector<bool>> absent(fieldCount);
    for (uint32_t f = 0; f < fieldCount; ++f) {
      Array& column = columns[f];
      column.reserve(itemCount);
      for (uint32_t i = 0; i < itemCount; ++i) {
        if (progress_ && (i & 4095) == 4095) progress_();
        const size_t cell = static_cast<size_t>(f) * itemCount + i;
        const auto tag = static_cast<uint8_t>(data_[tagsAt + cell]);
        if (tag == static_cast<uint8_t>(RowTag::Absent)) {
          if (absent[f].empty()) absent[f].resize(itemCount);
          absent[f][i] = true;
          column.emplace_back();
          continue;
        }
        column.push_back(value(tag, cellsAt + 8 * cell, strings));
      }
    }
    lists.add(std::move(key), std::make_unique<ColumnarList>(itemCount, std::move(fields), std::move(columns),
                                                             std::move(absent), Budget::current()));
  }

 private:
  Value value(uint8_t tag, size_t cellAt, const std::vector<Value>& strings) const {
    switch (static_cast<RowTag>(tag)) {
      case RowTag::Null: return Value();
      case RowTag::False: return Value::boolean(false);
      case RowTag::True: return Value::boolean(true);
      case RowTag::Number: return number(f64(cellAt));
      case RowTag::String: {
        const double index = f64(cellAt);
        if (!(index >= 0 && index < static_cast<double>(strings.size())) || std::trunc(index) != index) malformed();
        return strings[static_cast<size_t>(index)];
      }
      default: malformed();
    }
  }

  std::vector<Value> stringTable() {
    const uint32_t count = u32();
    if (count > (data_.size() - at_) / 4) malformed();  // each takes at least its length
    std::vector<Value> strings;
    strings.reserve(count);
    for (uint32_t s = 0; s < count; ++s) strings.push_back(text());
    return strings;
  }

  // As the JSON text of the number would parse: integers below 2^63 in
  // magnitude are integer values.
  static Value number(double d) {
    if (std::trunc(d) == d && std::fabs(d) < 9223372036854775808.0) return Value::integer(static_cast<int64_t>(d));
    return Value::number(d);
  }

  double f64(size_t at) const {
    double v;
    std::memcpy(&v, data_.data() + at, 8);  // the layout is little-endian, as wasm and x86 are
    if (!std::isfinite(v)) malformed();
    return v;
  }
  uint32_t u32() {
    need(4);
    uint32_t v;
    std::memcpy(&v, data_.data() + at_, 4);
    at_ += 4;
    return v;
  }
  Value text() {
    const uint32_t n = u32();
    need(n);
    Value s = Value::string(std::string(data_.substr(at_, n)));
    at_ += n;
    return s;
  }
  void skip(size_t n) {
    need(n);
    at_ += n;
  }
  void need(size_t n) const {
    if (data_.size() - at_ < n) malformed();
  }
  [[noreturn]] static void malformed() {
    throw PtcError(ErrorType::Parse, ErrorCode::BadRowBlock,
                   "The package sent a malformed block of rows (a bug in ptc-wasm, not in the program)");
  }

  std::string_view data_;
  size_t at_ = 0;
  const std::function<void()>& progress_;
};

}  // namespace

void readRowBlocks(std::string_view blocks, ColumnarLists& lists, const std::function<void()>& progress) {
  BlockReader reader(blocks, progress);
  while (!reader.done()) reader.block(lists);
}

}  // namespace ptc
