#include "step_functions/types.h"

#include <cctype>
#include <cmath>
#include <string>
#include <string_view>

#include "core/deadline.h"

namespace ptc::step_functions {

namespace {

class TypeParser {
 public:
  // Words separated by whitespace. (Not an istringstream: that would link
  // the iostreams and locales into the wasm for one split.)
  TypeParser(std::string_view text, std::string& error) : error_(error) {
    size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      size_t start = i;
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      if (i > start) words_.emplace_back(text.substr(start, i - start));
    }
  }

  bool parse(bool allowResult, Type& out) {
    if (words_.empty()) return fail("the type is empty");
    if (!parseOne(allowResult, true, out)) return false;
    if (pos_ != words_.size()) return fail("unexpected extra word '" + words_[pos_] + "'");
    return true;
  }

 private:
  bool fail(std::string message) {
    error_ = std::move(message);
    return false;
  }

  // `depth`: the lists and results this type is inside of.
  bool parseOne(bool allowResult, bool top, Type& out, int depth = 0) {
    if (pos_ >= words_.size()) return fail("a type is missing at its end");
    const std::string& w = words_[pos_++];
    // No value nests deeper, and deeper types would recurse past the native stack.
    if ((w == "list" || w == "result") && depth >= kMaxNesting)
      return fail("types nest lists at most " + std::to_string(kMaxNesting) + " levels deep, as values do");
    out.name = w;
    if (w == "number") out.kind = Type::Kind::Number;
    else if (w == "text") out.kind = Type::Kind::Text;
    else if (w == "bool") out.kind = Type::Kind::Bool;
    else if (w == "nil") out.kind = Type::Kind::Nil;
    else if (w == "list") {
      out.kind = Type::Kind::List;
      out.args.resize(1);
      return parseOne(false, false, out.args[0], depth + 1);
    } else if (w == "result") {
      if (!allowResult || !top)
        return fail("'result' is allowed only as the whole output type, not in input or inside another type");
      out.kind = Type::Kind::Result;
      out.args.resize(2);
      return parseOne(false, false, out.args[0], depth + 1) && parseOne(false, false, out.args[1], depth + 1);
    } else if (isName(w)) {
      out.kind = Type::Kind::Named;
    } else {
      return fail("'" + w + "' is not a type name");
    }
    return true;
  }

  std::vector<std::string> words_;
  size_t pos_ = 0;
  std::string& error_;
};

}  // namespace

bool isName(std::string_view s) {
  // [A-Za-z_][A-Za-z0-9_]* followed by -groups; no trailing '-'.
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (size_t i = 1; i < s.size(); ++i) {
    if (word(s[i])) continue;
    if (s[i] == '-' && i + 1 < s.size() && word(s[i + 1])) continue;
    return false;
  }
  return true;
}

bool isServerToolName(std::string_view s) {
  size_t dot = s.find('.');
  if (dot == std::string_view::npos || dot + 1 == s.size() || !isName(s.substr(0, dot))) return false;
  for (char c : s.substr(dot + 1))
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') return false;
  return true;
}

bool parseType(std::string_view text, bool allowResult, Type& out, std::string& error) {
  return TypeParser(text, error).parse(allowResult, out);
}

bool conforms(const Value& v, const Type& t) {
  switch (t.kind) {
    case Type::Kind::Number: return v.isNumber() && std::isfinite(v.asDouble());
    case Type::Kind::Text: return v.isString();
    case Type::Kind::Bool: return v.isBool();
    case Type::Kind::Nil: return v.isNull();
    case Type::Kind::Named: return !v.isNull() && !v.isNone();
    case Type::Kind::List:
      if (!v.isArray()) return false;
      for (const Value& x : v.items()) {
        tickDeadline();  // a list may hold one long list many times
        if (!conforms(x, t.args[0])) return false;
      }
      return true;
    case Type::Kind::Result: {
      if (!v.isObject() || v.members().size() != 1) return false;
      MemberRef m = v.members()[0];
      if (m.key.str() == "ok") return conforms(m.value, t.args[0]);
      if (m.key.str() == "error") return conforms(m.value, t.args[1]);
      return false;
    }
  }
  return false;
}

std::string typeText(const Type& t) {
  std::string out = t.name;
  for (const Type& a : t.args) out += " " + typeText(a);
  return out;
}

}  // namespace ptc::step_functions
