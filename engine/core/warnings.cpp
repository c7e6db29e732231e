#include "core/warnings.h"

#include <algorithm>

#include "core/json.h"
#include "core/suggest.h"

namespace ptc {

void Warnings::add(ErrorCode code, const std::string& path, std::string message) {
  if (list_.size() >= kMax || has(code, path)) return;
  list_.push_back(Warning{code, path, std::move(message)});
}

bool Warnings::has(ErrorCode code, const std::string& path) const {
  return std::any_of(list_.begin(), list_.end(), [&](const Warning& w) { return w.code == code && w.path == path; });
}

std::string pathLiteral(const std::string& dotted) {
  std::string out = "[";
  size_t from = 0;
  while (true) {
    size_t dot = dotted.find('.', from);
    out +=
        (from ? ", \"" : "\"") + dotted.substr(from, dot == std::string::npos ? std::string::npos : dot - from) + "\"";
    if (dot == std::string::npos) break;
    from = dot + 1;
  }
  return out + "]";
}

std::string namesHint(const std::string& name, const std::vector<std::string>& names, const std::string& what) {
  if (names.empty()) return " There are no " + what + ".";
  if (names.size() <= NearestNames::kListed)
    return didYouMean(name, names) + " The " + what + " are: " + listNames(names) + ".";
  NearestNames near(name);
  for (const std::string& n : names) near.offer(n);
  return namesHint(near, what);
}

std::string namesHint(const NearestNames& names, const std::string& what) {
  if (names.count() <= NearestNames::kListed) {
    std::vector<std::string> all = names.all();
    sortUnique(all);
    return namesHint(names.name(), all, what);
  }
  const std::string best = names.closest();
  const std::vector<std::string> nearest = names.nearest();
  return (best.empty() ? "" : " Did you mean '" + best + "'?") + " The " + what + " nearest '" + names.name() +
         "' are: " + listNames(nearest) + " and " + groupedCount(names.count() - nearest.size()) + " more.";
}

void offerKeys(NearestNames& names, const Value& object) {
  for (MemberRef m : object.members()) names.offer(m.key.str());
}

std::string warningsJson(const std::vector<Warning>& warnings) {
  std::string out = "[";
  for (const Warning& w : warnings) {
    if (out.size() > 1) out += ",";
    out += "{\"code\":";
    appendJsonString(out, errorCodeName(w.code));
    out += ",\"path\":";
    appendJsonString(out, w.path);
    out += ",\"message\":";
    appendJsonString(out, w.message);
    out += "}";
  }
  return out + "]";
}

}  // namespace ptc
