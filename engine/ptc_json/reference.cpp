#include "ptc_json/reference.h"

#include "core/error.h"
#include "core/json_pointer.h"

namespace ptc {

namespace {

bool startsName(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

}  // namespace

bool looksLikeReference(const Value& v) {
  if (!v.isString()) return false;
  const std::string& s = v.str();
  return s.size() >= 2 && s[0] == '$' && startsName(s[1]);
}

std::optional<Reference> parseReference(const Value& v, const std::string& path) {
  if (!looksLikeReference(v)) return std::nullopt;
  const std::string& s = v.str();
  Reference ref;
  size_t start = 1;
  for (size_t i = 1; i <= s.size(); ++i) {
    if (i < s.size() && s[i] != '.') continue;
    std::string key = s.substr(start, i - start);
    if (key.empty())
      fail(ErrorCode::BadValue, path,
           "The text " + shortJson(v, 40) +
               " starts like a reference but has an empty key between dots: write \"$name.key\" or "
               "\"$_.key.inner\", or {\"op\": \"literal\", \"value\": " +
               shortJson(v, 40) + "} for the text itself");
    if (start == 1) ref.name = std::move(key);
    else ref.path.push_back(std::move(key));
    start = i + 1;
  }
  return ref;
}

}  // namespace ptc
