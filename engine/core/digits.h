// Decimal digits of whole numbers without printf, whose formatter would be
// linked into the wasm for these few uses.
#pragma once

#include <cstddef>
#include <string>

namespace ptc {

// The decimal digits of v, at least `width` of them (zero-padded on the left).
template <class Unsigned>
std::string digitsOf(Unsigned v, size_t width = 1) {
  char buf[48];  // 2^128 has 39 digits
  size_t n = 0;
  do {
    buf[n++] = static_cast<char>('0' + static_cast<unsigned>(v % 10));
    v /= 10;
  } while (v != 0);
  std::string out(width > n ? width - n : 0, '0');
  while (n > 0) out.push_back(buf[--n]);
  return out;
}

// The decimal digits of v, written at the end of `out`.
template <class Unsigned>
void appendDigits(std::string& out, Unsigned v) {
  char buf[48];
  size_t n = sizeof buf;
  do {
    buf[--n] = static_cast<char>('0' + static_cast<unsigned>(v % 10));
    v /= 10;
  } while (v != 0);
  out.append(buf + n, sizeof buf - n);
}

}  // namespace ptc
