// Writes row blocks (engine/core/row_block.h) from values, as the package does
// from JavaScript objects in js/src/engine/rows.ts: for tests of the engine's side.
#pragma once

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/row_block.h"
#include "core/value.h"

namespace ptc::testing {

// One cell as written: its tag and f64 (a number, or a string's position).
struct RowCell {
  RowTag tag;
  double value = 0;
};

class RowBlockWriter {
 public:
  // A block from cells given row by row (rows[i][f]) and the strings they point at.
  RowBlockWriter& block(const std::string& key, const std::vector<std::string>& fields,
                        const std::vector<std::vector<RowCell>>& rows, const std::vector<std::string>& strings) {
    header(key, static_cast<uint32_t>(rows.size()), fields);
    for (size_t f = 0; f < fields.size(); ++f)
      for (const auto& row : rows) f64(row[f].value);
    for (size_t f = 0; f < fields.size(); ++f)
      for (const auto& row : rows) out.push_back(static_cast<char>(row[f].tag));
    u32(static_cast<uint32_t>(strings.size()));
    for (const std::string& s : strings) text(s);
    return *this;
  }

  // The block of a list of objects read through `fields`, as the package
  // writes it; false (nothing written) where the package sends JSON instead:
  // an item that is not an object, a field that holds a list or an object. A
  // number JavaScript cannot hold (an integer past 2^53, -0) is refused too:
  // the package never has one, and the JSON path keeps it exact.
  bool list(const std::string& key, const Value& list, const std::vector<std::string>& fields) {
    std::vector<std::vector<RowCell>> rows;
    std::vector<std::string> strings;
    for (const Value& item : list.items()) {
      if (!item.isObject()) return false;
      std::vector<RowCell>& row = rows.emplace_back();
      for (const std::string& field : fields) {
        const Value* v = item.find(field);
        if (!v) {
          row.push_back({RowTag::Absent});
        } else if (v->isNull()) {
          row.push_back({RowTag::Null});
        } else if (v->isBool()) {
          row.push_back({v->asBool() ? RowTag::True : RowTag::False});
        } else if (v->isNumber() && !exactInJavaScript(*v)) {
          return false;
        } else if (v->isNumber()) {
          row.push_back({RowTag::Number, v->asDouble()});
        } else if (v->isString()) {
          row.push_back({RowTag::String, static_cast<double>(strings.size())});
          strings.push_back(v->str());
        } else {
          return false;
        }
      }
    }
    block(key, fields, rows, strings);
    return true;
  }

  static bool exactInJavaScript(const Value& v) {
    if (v.isInt()) return static_cast<int64_t>(static_cast<double>(v.asInt())) == v.asInt();
    return !(v.asDouble() == 0 && std::signbit(v.asDouble()));
  }

  RowBlockWriter& header(const std::string& key, uint32_t items, const std::vector<std::string>& fields) {
    text(key).u32(items).u32(static_cast<uint32_t>(fields.size()));
    for (const std::string& f : fields) text(f);
    while (out.size() % 8) out.push_back('\0');
    return *this;
  }
  RowBlockWriter& u32(uint32_t v) {
    char b[4];
    std::memcpy(b, &v, 4);
    out.append(b, 4);
    return *this;
  }
  RowBlockWriter& u8(uint8_t v) {
    out.push_back(static_cast<char>(v));
    return *this;
  }
  RowBlockWriter& f64(double d) {
    char b[8];
    std::memcpy(b, &d, 8);
    out.append(b, 8);
    return *this;
  }
  RowBlockWriter& text(const std::string& s) {
    u32(static_cast<uint32_t>(s.size()));
    out += s;
    return *this;
  }

  std::string out;
};

}  // namespace ptc::testing
