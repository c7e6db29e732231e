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

  Member block() {
    Value key = Value::string(std::string(bytes(u32())));
    uint32_t itemCount = u32();
    uint32_t fieldCount = u32();
    std::vector<Value> fields;
    fields.reserve(fieldCount);
    for (uint32_t i = 0; i < fieldCount; ++i) fields.push_back(Value::string(std::string(bytes(u32()))));
    strings_.clear();
    Array items;
    items.reserve(itemCount);
    for (uint32_t i = 0; i < itemCount; ++i) {
      if (progress_ && (i & 4095) == 4095) progress_();
      items.push_back(item(fields));
    }
    return Member{std::move(key), Value::array(std::move(items))};
  }

 private:
  Value item(const std::vector<Value>& fields) {
    RowTag t = tag();
    if (t != RowTag::Object) return value(t);
    members_.clear();  // reused from row to row: the object takes the members, not the vector
    for (const Value& field : fields) {
      RowTag ft = tag();
      if (ft != RowTag::Absent) members_.push_back(Member{field, value(ft)});
    }
    return Value::object(members_.data(), members_.size());
  }

  Value value(RowTag t) {
    switch (t) {
      case RowTag::Null: return Value();
      case RowTag::False: return Value::boolean(false);
      case RowTag::True: return Value::boolean(true);
      case RowTag::Number: return number(f64());
      case RowTag::NewString: strings_.push_back(Value::string(std::string(bytes(u32())))); return strings_.back();
      case RowTag::StringRef: {
        uint32_t index = u32();
        if (index >= strings_.size()) malformed();
        return strings_[index];
      }
      case RowTag::PlainString: return Value::string(std::string(bytes(u32())));
      default: malformed();
    }
  }

  // As the JSON text of the number would parse: integers below 2^63 in
  // magnitude are integer values.
  static Value number(double d) {
    if (std::trunc(d) == d && std::fabs(d) < 9223372036854775808.0) return Value::integer(static_cast<int64_t>(d));
    return Value::number(d);
  }

  RowTag tag() {
    need(1);
    uint8_t t = static_cast<uint8_t>(data_[at_++]);
    if (t > static_cast<uint8_t>(RowTag::PlainString)) malformed();
    return static_cast<RowTag>(t);
  }
  uint32_t u32() {
    need(4);
    uint32_t v;
    std::memcpy(&v, data_.data() + at_, 4);  // the layout is little-endian, as wasm and x86 are
    at_ += 4;
    return v;
  }
  double f64() {
    need(8);
    double v;
    std::memcpy(&v, data_.data() + at_, 8);
    at_ += 8;
    if (!std::isfinite(v)) malformed();
    return v;
  }
  std::string_view bytes(uint32_t n) {
    need(n);
    std::string_view s = data_.substr(at_, n);
    at_ += n;
    return s;
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
  std::vector<Value> strings_;
  Members members_;
};

}  // namespace

void appendRowBlocks(std::string_view blocks, Members& context, const std::function<void()>& progress) {
  BlockReader reader(blocks, progress);
  while (!reader.done()) context.push_back(reader.block());
}

}  // namespace ptc
