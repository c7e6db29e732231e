// Text to data and sequences: parse_json, parse_csv, parse_kv, range. Tools
// hand back text (a file's content, a CSV export, log lines); these read it
// into values in one step instead of chains of split. Each reads the text once,
// left to right, with no regular expression and no backtracking; every value
// made is charged to the run's budget as it is built, and the loops tick the
// deadline. Cells and values stay texts: converting is to_number's job, so no
// guess is made about what "007" or "1,5" means.
#include <algorithm>
#include <cmath>

#include "core/deadline.h"
#include "core/json.h"
#include "core/json_pointer.h"
#include "ptc_json/ops/ops.h"

namespace ptc {

namespace {

// Field positions in the op table (value-level ops: 0 field, 1 value).
constexpr size_t kFirstExtra = 2;

const std::string& textInput(const Node& n, const Value& v) {
  if (v.isString()) return v.str();
  throwExecution(ErrorCode::TypeMismatch, n,
                 quoted(n) + " reads a text, got " + describeValue(v) +
                     (v.isArray() || v.isObject() ? " (it is already data: use it as it is)" : ""));
}

// A separator operand: absent gives `absent`, else a non-empty text.
std::string separator(const Node& n, const Value* args, size_t index, const char* name, const std::string& absent) {
  const Value& v = operand(n, args, index);
  if (v.isNull()) return absent;
  if (!v.isString() || v.str().empty())
    throwExecution(ErrorCode::BadArgument, n,
                   quoted(n) + " needs '" + name + "' to be a non-empty text, got " + shortJson(v, 20));
  return v.str();
}

// The line (1-based) of byte `at` of a text, for messages.
size_t lineOf(const std::string& s, size_t at) {
  size_t line = 1;
  for (size_t i = 0; i < at && i < s.size(); ++i) line += s[i] == '\n';
  return line;
}

// ---- parse_json ----

Value parseJsonText(const Node& n, const std::string& text) {
  try {
    return parseJson(text, "the text", [] { tickDeadline(); });
  } catch (PtcError& e) {
    if (e.error.type != ErrorType::Parse) throw;  // memory_exceeded, timeout
    std::string message = quoted(n) + " cannot read the text as JSON: " + e.error.message;
    if (e.error.position >= 0)
      message += " (byte " + std::to_string(e.error.position) + ", line " +
                 std::to_string(lineOf(text, static_cast<size_t>(e.error.position))) + " of the text)";
    Error err;
    err.type = ErrorType::Execution;
    err.code = e.error.code;  // json_syntax, json_too_deep
    err.message = std::move(message);
    err.path = n.path;
    err.hasPath = true;
    err.position = e.error.position;
    throw PtcError(std::move(err));
  }
}

// ---- parse_csv ----

// Reads CSV records (RFC 4180: cells separated by `sep`, records by \n or
// \r\n, a cell in double quotes may hold the separator, line breaks and ""
// for a quote). One pass, each byte read once.
class CsvReader {
 public:
  CsvReader(const Node& n, const std::string& s, char sep) : n_(n), s_(s), sep_(sep) {}
  bool done() const { return at_ >= s_.size(); }
  // The next record's cells; an empty line gives no cells.
  std::vector<std::string> record() {
    std::vector<std::string> cells;
    if (atLineEnd()) {
      skipLineEnd();
      return cells;
    }
    for (;;) {
      tickDeadline();
      cells.push_back(cell());
      if (done()) return cells;
      if (atLineEnd()) {
        skipLineEnd();
        return cells;
      }
      ++at_;  // the separator
    }
  }
  size_t line() const { return line_; }

 private:
  bool atLineEnd() const { return at_ < s_.size() && (s_[at_] == '\n' || s_[at_] == '\r'); }
  void skipLineEnd() {
    if (s_[at_] == '\r') ++at_;
    if (at_ < s_.size() && s_[at_] == '\n') ++at_;
    ++line_;
  }
  std::string cell() {
    std::string out;
    if (at_ < s_.size() && s_[at_] == '"') {
      size_t opened = line_;
      for (++at_;; ++at_) {
        if (at_ >= s_.size())
          throwExecution(ErrorCode::BadArgument, n_,
                         "'parse_csv' found a quoted cell opened on line " + std::to_string(opened) +
                             " that is never closed (a quote inside a cell is written \"\")");
        if (s_[at_] == '\n') ++line_;
        if (s_[at_] != '"') {
          out += s_[at_];
        } else if (at_ + 1 < s_.size() && s_[at_ + 1] == '"') {
          out += '"';
          ++at_;
        } else {
          ++at_;
          break;
        }
      }
      if (!done() && s_[at_] != sep_ && !atLineEnd())
        throwExecution(ErrorCode::BadArgument, n_,
                       "'parse_csv' found text after a closing quote on line " + std::to_string(line_) +
                           " (a quote inside a cell is written \"\")");
      return out;
    }
    size_t start = at_;
    while (at_ < s_.size() && s_[at_] != sep_ && s_[at_] != '\n' && s_[at_] != '\r') ++at_;
    return s_.substr(start, at_ - start);
  }
  const Node& n_;
  const std::string& s_;
  char sep_;
  size_t at_ = 0;
  size_t line_ = 1;
};

Value parseCsv(const Node& n, const std::string& text, const Value* args) {
  std::string sep = separator(n, args, kFirstExtra, "sep", ",");
  if (sep.size() != 1 || sep[0] == '"' || sep[0] == '\n' || sep[0] == '\r')
    throwExecution(ErrorCode::BadArgument, n,
                   "'parse_csv' needs 'sep' to be one character other than a quote or a line break, got " +
                       shortJson(Value::string(sep), 20));
  CsvReader reader(n, text, sep[0]);
  std::vector<Value> header;
  while (header.empty() && !reader.done())
    for (std::string& name : reader.record()) header.push_back(Value::string(std::move(name)));
  ListBuilder rows;
  while (!reader.done()) {
    size_t line = reader.line();
    std::vector<std::string> cells = reader.record();
    if (cells.empty()) continue;  // a blank line
    if (cells.size() > header.size())
      throwExecution(ErrorCode::BadArgument, n,
                     "'parse_csv' found " + std::to_string(cells.size()) + " cells on line " + std::to_string(line) +
                         " but " + std::to_string(header.size()) +
                         " names in the header (the first line); quote cells holding the separator");
    ObjectBuilder row(Budget::current());
    for (size_t i = 0; i < header.size(); ++i)
      row.put(header[i], i < cells.size() ? Value::string(std::move(cells[i])) : Value());
    rows.push_back(row.build());
  }
  return rows.build();
}

// ---- parse_kv ----

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trimmedView(std::string_view s) {
  while (!s.empty() && isBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && isBlank(s.back())) s.remove_suffix(1);
  return s;
}

// One value: "quoted" (\" and \\ escaped inside) or up to the pair separator.
// `at` is left after it.
std::string kvValue(const Node& n, const std::string& s, size_t& at, const std::string& sep, bool blanks) {
  if (at < s.size() && s[at] == '"') {
    std::string out;
    for (++at; at < s.size() && s[at] != '"'; ++at) {
      if (s[at] == '\\' && at + 1 < s.size()) ++at;
      out += s[at];
    }
    if (at >= s.size())
      throwExecution(ErrorCode::BadArgument, n, "'parse_kv' found a quoted value that is never closed");
    ++at;
    return out;
  }
  size_t start = at;
  if (blanks) {
    while (at < s.size() && !isBlank(s[at])) ++at;
  } else {
    size_t end = s.find(sep, at);
    at = end == std::string::npos ? s.size() : end;
  }
  return std::string(trimmedView(std::string_view(s).substr(start, at - start)));
}

Value parseKv(const Node& n, const std::string& s, const Value* args) {
  const bool blanks = operand(n, args, kFirstExtra).isNull();
  const std::string sep = separator(n, args, kFirstExtra, "sep", " ");
  const std::string kvSep = separator(n, args, kFirstExtra + 1, "kv_sep", "=");
  ObjectBuilder out(Budget::current());
  size_t at = 0;
  while (at < s.size()) {
    tickDeadline();
    if (blanks ? isBlank(s[at]) : s.compare(at, sep.size(), sep) == 0) {
      at += blanks ? 1 : sep.size();
      continue;
    }
    // The key runs to kv_sep, or to the end of the pair (a bare key).
    size_t keyStart = at;
    size_t pairEnd = at;
    if (blanks) {
      while (pairEnd < s.size() && !isBlank(s[pairEnd])) ++pairEnd;
    } else {
      pairEnd = std::min(s.find(sep, at), s.size());
    }
    // kv_sep within the pair only: each byte is looked at a bounded number of times.
    size_t eq = std::string_view(s).substr(0, pairEnd).find(kvSep, at);
    if (eq == std::string::npos) {
      std::string_view key = trimmedView(std::string_view(s).substr(keyStart, pairEnd - keyStart));
      if (!key.empty()) out.put(Value::string(std::string(key)), Value::boolean(true));
      at = pairEnd;
      continue;
    }
    std::string_view key = trimmedView(std::string_view(s).substr(keyStart, eq - keyStart));
    if (key.empty())
      throwExecution(ErrorCode::BadArgument, n,
                     "'parse_kv' found a value without a key at character " + std::to_string(eq) + " of the text");
    at = eq + kvSep.size();
    out.put(Value::string(std::string(key)), Value::string(kvValue(n, s, at, sep, blanks)));
  }
  return out.build();
}

// ---- range ----

constexpr double kMaxRangeItems = 1e7;  // before the byte budget: a count that could not be a list

double rangeNumber(const Node& n, const Value& v, const char* name) {
  if (v.isNumber()) return v.asDouble();
  throwExecution(v.isString() ? ErrorCode::TextNotNumber : ErrorCode::TypeMismatch, n,
                 quoted(n) + " needs '" + name + "' to be a number, got " + describeValue(v) +
                     (v.isString() ? " (convert it with {\"op\": \"to_number\"})" : ""));
}

}  // namespace

Value applyParseJson(const Node& n, const Value& in, const Value* args, size_t) {
  Value v = valueInput(n, in, args);
  return v.isNull() ? v : parseJsonText(n, textInput(n, v));
}

Value applyParseCsv(const Node& n, const Value& in, const Value* args, size_t) {
  Value v = valueInput(n, in, args);
  return v.isNull() ? v : parseCsv(n, textInput(n, v), args);
}

Value applyParseKv(const Node& n, const Value& in, const Value* args, size_t) {
  Value v = valueInput(n, in, args);
  return v.isNull() ? v : parseKv(n, textInput(n, v), args);
}

Value applyRange(const Node& n, const Value& in, const Value* args, size_t) {
  const Value& startV = operand(n, args, 0);
  const Value& endV = operand(n, args, 1);
  const Value& stepV = operand(n, args, 2);
  const Value start = startV.isNull() ? Value::integer(0) : startV;
  const Value step = stepV.isNull() ? Value::integer(1) : stepV;
  double s = rangeNumber(n, start, "start"), e = rangeNumber(n, endV, "end"), d = rangeNumber(n, step, "step");
  if (d == 0) throwExecution(ErrorCode::BadArgument, n, "'range' needs a 'step' other than 0");
  double count = std::ceil((e - s) / d);
  if (!(count > 0)) return Value::array({});
  if (count > kMaxRangeItems)
    throwExecution(ErrorCode::BadArgument, n,
                   "'range' would make " + shortJson(Value::number(count), 20) + " numbers; at most 10000000");
  const bool integral = start.isInt() && step.isInt() && endV.isNumber();
  ListBuilder out;
  out.reserve(static_cast<size_t>(count));
  for (size_t i = 0; i < static_cast<size_t>(count); ++i) {
    tickDeadline();
    int64_t offset = 0, item = 0;
    if (integral && !__builtin_mul_overflow(static_cast<int64_t>(i), step.asInt(), &offset) &&
        !__builtin_add_overflow(start.asInt(), offset, &item))
      out.push_back(Value::integer(item));
    else out.push_back(number(n, s + static_cast<double>(i) * d));
  }
  return out.build();
}

}  // namespace ptc
