// Dates and times, in UTC, with no clock: a date is an ISO 8601 text
// ("2024-03-15", "2024-03-15T10:30:00Z", "...+02:00"; no offset means UTC) or a
// number of epoch seconds. Ops that return a date return the kind they were
// given (a text stays a text, a number a number).
#include <cmath>

#include "core/deadline.h"
#include "core/digits.h"
#include "core/json.h"
#include "core/json_pointer.h"
#include "ptc_json/ops/ops.h"

namespace ptc {

namespace {

constexpr size_t kFirstExtra = 2;  // field positions: 0 field, 1 value, 2 to/amount
constexpr int64_t kDay = 86400;
// Years 0000-9999: what ISO texts can write, and far inside double precision.
constexpr double kMinSeconds = -62167219200.0;  // 0000-01-01T00:00:00Z
constexpr double kMaxSeconds = 253402300800.0;  // 10000-01-01T00:00:00Z

struct Instant {
  double seconds = 0;
  bool text = false;      // given as a text: results are texts too
  bool dateOnly = false;  // a text without a time
};

struct Civil {
  int64_t year;
  int month, day;
};

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
int64_t daysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

Civil civilFromDays(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  return Civil{yoe + era * 400 + (m <= 2), m, d};
}

bool leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
int daysInMonth(int64_t y, int m) {
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && leap(y) ? 29 : days[m - 1];
}

// ---- parsing ----

class IsoParser {
 public:
  explicit IsoParser(const std::string& s) : s_(s) {}

  // Empty on success, else why the text is not a date.
  std::string parse(Instant& out) {
    int64_t y = 0;
    int mo = 0, d = 0, h = 0, mi = 0, sec = 0;
    double fraction = 0;
    if (!digits(4, y) || !lit('-') || !digits(2, mo) || !lit('-') || !digits(2, d)) return "expected YYYY-MM-DD";
    if (mo < 1 || mo > 12) return "month " + std::to_string(mo) + " does not exist";
    if (d < 1 || d > daysInMonth(y, mo))
      return "day " + std::to_string(d) + " does not exist in " + std::to_string(y) + "-" + two(mo);
    out.dateOnly = at_ == s_.size();
    int64_t offset = 0;
    if (!out.dateOnly) {
      if (!(lit('T') || lit('t') || lit(' '))) return "expected T between the date and the time";
      if (!digits(2, h) || !lit(':') || !digits(2, mi)) return "expected hh:mm after the date";
      if (lit(':') && !digits(2, sec)) return "expected two digits of seconds";
      if (lit('.') && !fractionDigits(fraction)) return "expected digits after the decimal point";
      if (h > 23 || mi > 59 || sec > 59)
        return "the time " + two(h) + ":" + two(mi) + ":" + two(sec) + " does not exist";
      std::string zone = parseZone(offset);
      if (!zone.empty()) return zone;
    }
    if (at_ != s_.size()) return "unexpected text after the date";
    out.seconds = static_cast<double>(daysFromCivil(y, mo, d) * kDay + h * 3600 + mi * 60 + sec - offset) + fraction;
    out.text = true;
    return "";
  }

 private:
  static std::string two(int v) { return (v < 10 ? "0" : "") + std::to_string(v); }
  bool lit(char c) {
    if (at_ < s_.size() && s_[at_] == c) return ++at_, true;
    return false;
  }
  template <class T>
  bool digits(size_t count, T& value) {
    value = 0;
    for (size_t k = 0; k < count; ++k, ++at_) {
      if (at_ >= s_.size() || s_[at_] < '0' || s_[at_] > '9') return false;
      value = value * 10 + (s_[at_] - '0');
    }
    return true;
  }
  bool fractionDigits(double& fraction) {
    double scale = 0.1;
    size_t start = at_;
    for (; at_ < s_.size() && s_[at_] >= '0' && s_[at_] <= '9'; ++at_, scale /= 10) fraction += (s_[at_] - '0') * scale;
    return at_ > start;
  }
  // Z, ±hh:mm, ±hhmm or ±hh; none means UTC.
  std::string parseZone(int64_t& offset) {
    if (at_ == s_.size() || lit('Z') || lit('z')) return "";
    int sign = lit('+') ? 1 : (lit('-') ? -1 : 0);
    int oh = 0, om = 0;
    if (sign == 0 || !digits(2, oh)) return "expected Z or an offset such as +02:00";
    if (at_ < s_.size()) {
      lit(':');
      if (!digits(2, om)) return "expected an offset such as +02:00";
    }
    if (oh > 23 || om > 59) return "the offset " + two(oh) + ":" + two(om) + " does not exist";
    offset = sign * (oh * 3600 + om * 60);
    return "";
  }

  const std::string& s_;
  size_t at_ = 0;
};

[[noreturn]] void notADate(const Node& n, const Value& v, const std::string& why) {
  throwExecution(ErrorCode::InvalidDate, n,
                 quoted(n) + " cannot read " + shortJson(v, 40) + " as a date: " + why +
                     ". Dates are ISO 8601 texts such as \"2024-03-15\" or \"2024-03-15T10:30:00Z\" (offsets "
                     "like +02:00 allowed), or epoch seconds");
}

Instant instantOf(const Node& n, const Value& v) {
  Instant out;
  if (v.isNumber()) {
    out.seconds = v.asDouble();
    if (out.seconds < kMinSeconds || out.seconds >= kMaxSeconds) notADate(n, v, "it is outside the years 0000-9999");
    return out;
  }
  if (!v.isString()) notADate(n, v, std::string("it is a ") + typeName(v));
  std::string why = IsoParser(v.str()).parse(out);
  if (!why.empty()) notADate(n, v, why);
  return out;
}

// ---- results ----

Value seconds(const Node& n, double s) {
  if (!(s >= kMinSeconds && s < kMaxSeconds))
    throwExecution(ErrorCode::DateOutOfRange, n, quoted(n) + " produced a date outside the years 0000-9999");
  if (s == std::floor(s)) return Value::integer(static_cast<int64_t>(s));
  return Value::number(s);
}

std::string isoText(double s, const std::string& format) {
  double whole = std::floor(s);
  int64_t total = static_cast<int64_t>(whole);
  int64_t days = (total >= 0 ? total : total - (kDay - 1)) / kDay;
  int64_t rest = total - days * kDay;
  Civil c = civilFromDays(days);
  auto two = [](int64_t v) { return digitsOf(static_cast<uint64_t>(v), 2); };
  std::string out = digitsOf(static_cast<uint64_t>(c.year), 4) + "-" + two(c.month);  // years 0000-9999
  if (format == "month") return out;
  out += "-" + two(c.day);
  if (format == "date") return out;
  out += "T" + two(rest / 3600) + ":" + two(rest / 60 % 60) + ":" + two(rest % 60);
  int millis = static_cast<int>(std::lround((s - whole) * 1000));
  if (millis > 0) out += "." + digitsOf(static_cast<uint64_t>(std::min(millis, 999)), 3);
  return out + "Z";
}

// A date result in the kind of the input: text (date-only when asked and on a
// day boundary) or epoch seconds.
Value dateResult(const Node& n, const Instant& in, double s, bool dateOnly) {
  Value v = seconds(n, s);
  if (!in.text) return v;
  bool wholeDay = std::fmod(s, static_cast<double>(kDay)) == 0;
  return Value::string(isoText(s, dateOnly && wholeDay ? "date" : "datetime"));
}

double unitSeconds(const std::string& unit) {
  if (unit == "second") return 1;
  if (unit == "minute") return 60;
  if (unit == "hour") return 3600;
  if (unit == "day") return kDay;
  return 7 * kDay;  // week
}

Value dateDiff(const Node& n, const Instant& from, const Value& toValue) {
  if (toValue.isNull()) return Value();
  Instant to = instantOf(n, toValue);
  double r = (to.seconds - from.seconds) / unitSeconds(n.name.str());
  return r == std::floor(r) && std::fabs(r) < 9e15 ? Value::integer(static_cast<int64_t>(r)) : Value::number(r);
}

Value dateAdd(const Node& n, const Instant& in, const Value& amount, const std::string& unit) {
  if (!amount.isNumber())
    throwExecution(ErrorCode::TypeMismatch, n,
                   quoted(n) + " needs 'amount' to be a number, got " + describeValue(amount));
  double a = amount.asDouble();
  bool calendar = unit == "month" || unit == "year";
  if (calendar && a != std::floor(a))
    throwExecution(ErrorCode::BadArgument, n,
                   quoted(n) + " needs a whole number of " + unit + "s, got " + shortJson(amount, 20));
  if (std::fabs(a) > 1e12)
    throwExecution(ErrorCode::DateOutOfRange, n, quoted(n) + " produced a date outside the years 0000-9999");
  if (!calendar)
    return dateResult(n, in, in.seconds + a * unitSeconds(unit),
                      in.dateOnly && unit != "second" && unit != "minute" && unit != "hour");
  double whole = std::floor(in.seconds);
  int64_t days = static_cast<int64_t>(std::floor(whole / kDay));
  double timeOfDay = in.seconds - static_cast<double>(days * kDay);
  Civil c = civilFromDays(days);
  int64_t months = c.year * 12 + (c.month - 1) + static_cast<int64_t>(a) * (unit == "year" ? 12 : 1);
  int64_t y = months >= 0 ? months / 12 : (months - 11) / 12;
  int m = static_cast<int>(months - y * 12) + 1;
  if (y < 0 || y > 9999)
    throwExecution(ErrorCode::DateOutOfRange, n, quoted(n) + " produced a date outside the years 0000-9999");
  int d = std::min(c.day, daysInMonth(y, m));
  return dateResult(n, in, static_cast<double>(daysFromCivil(y, m, d) * kDay) + timeOfDay, in.dateOnly);
}

// date_range: date_add of k * step units to the start for k = 0, 1, ... while
// the date has not passed `to` (months from the start, so Jan 31 gives Feb 29,
// then Mar 31). Bounded: at most kMaxDates dates (the years 0000-9999 in days).
constexpr int64_t kMaxDates = 3700000;

Value dateRange(const Node& n, const Instant& from, const Value& toValue, const Value& stepValue) {
  if (toValue.isNull()) return Value();
  const Instant to = instantOf(n, toValue);
  const std::string unit = n.name.isString() ? n.name.str() : "day";
  const Value step = stepValue.isNull() ? Value::integer(1) : stepValue;
  if (!step.isInt() || step.asInt() == 0)
    throwExecution(ErrorCode::BadArgument, n,
                   "'date_range' needs 'step' to be a whole number other than 0, got " + shortJson(step, 20));
  const int64_t k = step.asInt();
  ListBuilder out;
  for (int64_t i = 0; i < kMaxDates; ++i) {
    tickDeadline();
    Value date =
        i == 0 ? dateResult(n, from, from.seconds, from.dateOnly) : dateAdd(n, from, Value::integer(i * k), unit);
    const double at = instantOf(n, date).seconds;
    if (k > 0 ? at > to.seconds : at < to.seconds) return out.build();
    out.push_back(std::move(date));
  }
  throwExecution(
      ErrorCode::BadArgument, n,
      "'date_range' would make more than " + std::to_string(kMaxDates) + " dates: use a larger step or unit");
}

// ISO 8601 week number: the week (Monday to Sunday) holding the date's
// Thursday, counted in that Thursday's year (so 2024-12-30 is week 1 of 2025).
int64_t isoWeek(int64_t days) {
  int64_t weekday = ((days % 7 + 7) % 7 + 3) % 7;  // 0 = Monday
  int64_t thursday = days - weekday + 3;
  int64_t thursdayYear = civilFromDays(thursday).year;
  return (thursday - daysFromCivil(thursdayYear, 1, 1)) / 7 + 1;
}

Value datePart(const Node& n, const Instant& in) {
  const std::string& part = n.name.str();
  int64_t total = static_cast<int64_t>(std::floor(in.seconds));
  int64_t days = (total >= 0 ? total : total - (kDay - 1)) / kDay;
  int64_t rest = total - days * kDay;
  Civil c = civilFromDays(days);
  int64_t r = 0;
  if (part == "year") r = c.year;
  else if (part == "quarter") r = (c.month - 1) / 3 + 1;
  else if (part == "month") r = c.month;
  else if (part == "day") r = c.day;
  else if (part == "weekday") r = ((days % 7 + 7) % 7 + 3) % 7 + 1;  // 1970-01-01 was a Thursday (4)
  else if (part == "day_of_year") r = days - daysFromCivil(c.year, 1, 1) + 1;
  else if (part == "iso_week") r = isoWeek(days);
  else if (part == "hour") r = rest / 3600;
  else if (part == "minute") r = rest / 60 % 60;
  else r = rest % 60;  // second
  return Value::integer(r);
}

Value dateTrunc(const Node& n, const Instant& in) {
  const std::string& unit = n.name.str();
  int64_t total = static_cast<int64_t>(std::floor(in.seconds));
  int64_t days = (total >= 0 ? total : total - (kDay - 1)) / kDay;
  Civil c = civilFromDays(days);
  int64_t start = 0;
  if (unit == "minute") start = total - ((total % 60) + 60) % 60;
  else if (unit == "hour") start = total - ((total % 3600) + 3600) % 3600;
  else if (unit == "day") start = days * kDay;
  else if (unit == "week") start = (days - (((days % 7 + 7) % 7 + 3) % 7)) * kDay;  // back to Monday
  else if (unit == "month") start = daysFromCivil(c.year, c.month, 1) * kDay;
  else if (unit == "quarter") start = daysFromCivil(c.year, (c.month - 1) / 3 * 3 + 1, 1) * kDay;
  else start = daysFromCivil(c.year, 1, 1) * kDay;  // year
  return dateResult(n, in, static_cast<double>(start), unit != "hour" && unit != "minute");
}

}  // namespace

namespace {

// A date op on its input (valueInput) as an instant: a missing date (null) stays missing.
template <typename F>
Value onDate(const Node& n, const Value& in, const Value* args, F f) {
  Value v = valueInput(n, in, args);
  return v.isNull() ? v : f(instantOf(n, v));
}

}  // namespace

Value applyToTimestamp(const Node& n, const Value& in, const Value* args, size_t) {
  return onDate(n, in, args, [&](const Instant& date) { return seconds(n, date.seconds); });
}

Value applyFormatDate(const Node& n, const Value& in, const Value* args, size_t) {
  return onDate(n, in, args, [&](const Instant& date) {
    return Value::string(isoText(date.seconds, n.name.isString() ? n.name.str() : "datetime"));
  });
}

Value applyDateDiff(const Node& n, const Value& in, const Value* args, size_t) {
  return onDate(n, in, args, [&](const Instant& date) { return dateDiff(n, date, operand(n, args, kFirstExtra)); });
}

Value applyDateAdd(const Node& n, const Value& in, const Value* args, size_t) {
  return onDate(n, in, args,
                [&](const Instant& date) { return dateAdd(n, date, operand(n, args, kFirstExtra), n.name.str()); });
}

Value applyDatePart(const Node& n, const Value& in, const Value* args, size_t) {
  return onDate(n, in, args, [&](const Instant& date) { return datePart(n, date); });
}

Value applyDateTrunc(const Node& n, const Value& in, const Value* args, size_t) {
  return onDate(n, in, args, [&](const Instant& date) { return dateTrunc(n, date); });
}

Value applyDateRange(const Node& n, const Value& in, const Value* args, size_t) {
  return onDate(n, in, args, [&](const Instant& date) {
    return dateRange(n, date, operand(n, args, kFirstExtra), operand(n, args, kFirstExtra + 2));
  });
}

}  // namespace ptc
