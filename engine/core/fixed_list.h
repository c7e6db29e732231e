// A list of at most N items that a constant expression can build: the
// language's tables (the op table, the step table) are compiled into data, and
// no code runs to build them on a program's first run. Growing one past N does
// not compile.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>

namespace ptc {

template <typename T, size_t N>
class FixedList {
 public:
  constexpr FixedList() = default;
  constexpr FixedList(std::initializer_list<T> items) {
    for (const T& item : items) push_back(item);
  }
  constexpr void push_back(const T& item) { items_[size_++] = item; }
  constexpr const T* begin() const { return items_.data(); }
  constexpr const T* end() const { return items_.data() + size_; }
  constexpr const T* data() const { return items_.data(); }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const T& front() const { return items_[0]; }
  constexpr const T& operator[](size_t i) const { return items_[i]; }

 private:
  std::array<T, N> items_{};
  size_t size_ = 0;
};

}  // namespace ptc
