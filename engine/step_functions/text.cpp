#include "step_functions/text.h"

#include <cctype>
#include <cmath>

#include "core/digits.h"
#include "core/json.h"

namespace ptc::step_functions {

namespace {

bool segmentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Consumes [A-Za-z0-9_]+ and '-' groups from i; returns the end.
size_t scanSegment(std::string_view s, size_t i) {
  while (i < s.size()) {
    if (segmentChar(s[i])) ++i;
    else if (s[i] == '-' && i + 1 < s.size() && segmentChar(s[i + 1])) ++i;
    else break;
  }
  return i;
}

}  // namespace

Interpolation scanReferences(std::string_view s) {
  Interpolation out;
  std::string current;
  size_t i = 0;
  while (i < s.size()) {
    if (s[i] != '$') {
      current.push_back(s[i++]);
      continue;
    }
    if (i + 1 < s.size() && s[i + 1] == '$') {
      current.push_back('$');
      i += 2;
      continue;
    }
    if (!(i + 1 < s.size() && (std::isalpha(static_cast<unsigned char>(s[i + 1])) || s[i + 1] == '_'))) {
      current.push_back(s[i++]);
      continue;
    }
    size_t start = i;
    size_t end = scanSegment(s, i + 1);
    Ref ref;
    ref.name = std::string(s.substr(i + 1, end - i - 1));
    while (end + 1 < s.size() && s[end] == '.' && segmentChar(s[end + 1])) {
      size_t segEnd = scanSegment(s, end + 1);
      ref.segs.emplace_back(s.substr(end + 1, segEnd - end - 1));
      end = segEnd;
    }
    ref.root = ref.name == "input" ? Ref::Root::Input : ref.name == "error" ? Ref::Root::Error : Ref::Root::Var;
    ref.text = std::string(s.substr(start, end - start));
    out.texts.push_back(std::move(current));
    current.clear();
    out.refs.push_back(std::move(ref));
    i = end;
  }
  out.texts.push_back(std::move(current));
  return out;
}

std::string textForm(const Value& v) {
  switch (v.kind()) {
    case Kind::String: return v.str();
    case Kind::Int: return std::to_string(v.asInt());
    case Kind::Double: {
      double d = v.asDouble();
      if (d == std::floor(d) && std::fabs(d) < 1e21) {  // a whole number: its digits, as "%.0f" writes them
        std::string digits = digitsOf(static_cast<unsigned __int128>(std::fabs(d)));
        return d < 0 ? "-" + digits : digits;
      }
      std::string out;
      appendNumber(out, d);
      return out;
    }
    default: {
      std::string out;  // a copy of values that may be shared: charged as it grows
      ChargedText charged(out, "the text form of a " + std::string(typeName(v)));
      appendJson(out, v);
      return out;
    }
  }
}

}  // namespace ptc::step_functions
