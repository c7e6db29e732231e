#include "core/row_block.h"

#include <cmath>
#include <cstring>
#include <memory>
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
    const uint64_t cellCount = static_cast<uint64_t>(itemCount) * fieldCount;
    if (cellCount > (data_.size() - at_) / 9) malformed();
    // Copied as they are: the run may outlive the payload (it waits on tools).
    // (Not a vector: it would zero them all first, a millisecond per million.)
    Cells cells;
    cells.cells.reset(new double[cellCount]);
    if (cellCount) std::memcpy(cells.cells.get(), data_.data() + at_, 8 * cellCount);
    const char* tagsAt = data_.data() + at_ + 8 * cellCount;
    cells.tags.assign(tagsAt, tagsAt + cellCount);
    at_ += 9 * cellCount;
    cells.values = stringTable();
    check(cells);
    lists.add(std::move(key),
              std::make_unique<ColumnarList>(itemCount, std::move(fields), std::move(cells), Budget::current()));
  }

 private:
  // What the columns may then read without a check: known tags, JSON numbers,
  // positions of strings that were sent.
  void check(const Cells& block) const {
    const double* cells = block.cells.get();
    const std::vector<uint8_t>& tags = block.tags;
    const size_t stringCount = block.values.size();
    for (size_t i = 0; i < tags.size(); ++i) {
      if (progress_ && (i & 4095) == 4095) progress_();
      switch (static_cast<RowTag>(tags[i])) {
        case RowTag::Null:
        case RowTag::False:
        case RowTag::True:
        case RowTag::Absent: break;
        case RowTag::Number:
          if (!std::isfinite(cells[i])) malformed();
          break;
        case RowTag::String: {
          const double index = cells[i];
          if (!(index >= 0 && index < static_cast<double>(stringCount)) || std::trunc(index) != index) malformed();
          break;
        }
        default: malformed();
      }
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
