// What the engine's fuzz targets share: the framing of an input into parts,
// answering a run's tool calls from those parts (as tests/cpp/test_support.cpp
// answers them from a case's mocks), and the checks that a run ended within its
// limits. A failed check prints what was not held and aborts: libFuzzer keeps
// the input as a crash, and a regression replays it (scripts/fuzz.sh).
#pragma once

#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "api/engine.h"
#include "core/json.h"
#include "core/json_fast.h"
#include "core/value.h"

namespace ptc::fuzz {

// The parts of an input are separated by a line "---" ("\n---\n"), which no
// JSON text holds outside a string, and a string holds no raw newline: a
// regression case reads as its parts one after another.
inline std::vector<std::string_view> splitParts(std::string_view data) {
  static constexpr std::string_view kSeparator = "\n---\n";
  std::vector<std::string_view> parts;
  for (;;) {
    size_t at = data.find(kSeparator);
    if (at == std::string_view::npos) break;
    parts.push_back(data.substr(0, at));
    data.remove_prefix(at + kSeparator.size());
  }
  parts.push_back(data);
  return parts;
}

inline std::string_view partOr(const std::vector<std::string_view>& parts, size_t i, std::string_view fallback) {
  return i < parts.size() && !parts[i].empty() ? parts[i] : fallback;
}

// Small limits, so that a run that outgrows them does so quickly. Both are
// checked after every run (checkEnd).
constexpr int64_t kTimeoutMs = 50;
constexpr uint64_t kMaxHeapBytes = 1 << 20;
// More calls than any useful input makes: past them a run is cancelled.
constexpr int kMaxAnswers = 2000;

inline std::string limitsJson(std::string_view more = {}) {
  std::string out =
      "{\"timeoutMs\":" + std::to_string(kTimeoutMs) + ",\"maxHeapBytes\":" + std::to_string(kMaxHeapBytes);
  if (!more.empty()) out += std::string(",") + std::string(more);
  return out + "}";
}

[[noreturn]] inline void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "\n== ptc fuzz finding: %s\n%s\n", what, detail.substr(0, 2000).c_str());
  std::abort();
}

inline Value parseStatus(const std::string& status) {
  try {
    return parseJson(status, "status");
  } catch (const PtcError& e) {
    finding("the engine answered a status that is not JSON", e.error.message + "\n" + status);
  }
}

// A tool's error message as a host gives it: text (the package's are
// JavaScript strings), so a byte that is not UTF-8 becomes '?'. The engine
// writes a host's message into the status as it is (core/json_writer.cpp).
inline std::string hostText(std::string_view s) {
  std::string out;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    size_t n = *p < 0x80 ? 1 : utf8Sequence(p, end);
    if (n == 0) {
      out.push_back('?');
      ++p;
    } else {
      out.append(reinterpret_cast<const char*>(p), n);
      p += n;
    }
  }
  return out;
}

// Answers each call with the next part, oldest call first: "!message" fails
// it, "?timeout", "?abort" and "?fault" cancel the run as the package's host
// does, anything else is its result (JSON text, or not: the engine must say
// so). Once the parts run out a call fails. Returns the final status.
inline std::string driveRun(Engine& engine, const RunStatus& first, const std::vector<std::string_view>& answers) {
  std::string status = first.text;
  std::deque<int> out;
  size_t next = 0;
  const int run = first.run;  // beside the first status, not in it
  for (int answered = 0;; ++answered) {
    Value s = parseStatus(status);
    if (s.field("state").str() != "call") return status;
    for (const Value& c : s.field("calls").items()) out.push_back(static_cast<int>(c.field("id").asInt()));
    if (out.empty()) finding("a run waits with no call out", status);
    const int id = out.front();
    out.pop_front();
    if (answered >= kMaxAnswers) {
      status = engine.cancel(run, "abort", "the fuzz input made too many calls", id);
      continue;
    }
    std::string_view a = next < answers.size() ? answers[next++] : std::string_view("!no more answers");
    if (a.substr(0, 1) == "!") status = engine.fail(run, hostText(a.substr(1)), id);
    else if (a.substr(0, 1) == "?")
      status = engine.cancel(run,
                             a.substr(1) == "abort"   ? "abort"
                             : a.substr(1) == "fault" ? "fault"
                                                      : "timeout",
                             "by the fuzz input", id);
    else status = engine.resume(run, a, id);
  }
}

// Whether checkEnd compares a run's time with its limit: PTC_FUZZ_CHECK_TIME=0
// turns it off (the smoke run in npm test, which must not depend on the
// machine's load); campaigns keep it.
inline bool checkTime() {
  static const bool on = [] {
    const char* v = std::getenv("PTC_FUZZ_CHECK_TIME");
    return !v || std::string_view(v) != "0";
  }();
  return on;
}

// The time a run costs is its thread's CPU time, not the wall clock: on a
// shared machine a campaign at nice 19 sits descheduled for hundreds of
// milliseconds, and a trivial input then "took" 300 ms. The engine stops at
// its (wall-clock) deadline, so its CPU time is within it too unless some loop
// does not check the deadline: that is the finding.
struct Clock {
  using time_point = double;  // ms of CPU time
  static time_point now() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
  }
};

// The most a step-function trace entry writes beyond what is charged (its
// names, error and values are): `{"function":,"path":,"step":100000,
// "kind":"compensate","durationMs":<a double's 24 characters>,"outcome":
// "compensated"},` is 118 bytes. That part is bounded by the step limit, not
// by maxHeapBytes (docs/step-functions.md, Limits), so that the spec's 100,000
// steps run under the default limit.
constexpr uint64_t kTraceEntryFixedBytes = 128;

// A finished run held its limits: its peak bytes within maxHeapBytes, its
// status text no larger than those bytes allow (everything a run writes is
// charged while written, but a trace entry's fixed part), and, measured from
// prepare to the end, its time within timeoutMs with slack for the sanitizers
// and a loaded machine (2x + 50 ms of CPU time: a limit not held by that much
// is a finding).
inline void checkEnd(const std::string& status, Clock::time_point started) {
  const double ms = Clock::now() - started;
  if (checkTime() && ms > 2.0 * kTimeoutMs + 50)
    finding("a run outran timeoutMs",
            std::to_string(ms) + " ms of CPU time against timeoutMs " + std::to_string(kTimeoutMs));
  Value s = parseStatus(status);
  // Bookkeeping bounded otherwise (an error's message, metrics, warnings).
  constexpr uint64_t kSlack = 64 * 1024;
  const Value& trace = s.field("trace");
  const uint64_t entries = trace.isArray() ? trace.items().size() : 0;
  if (status.size() > kMaxHeapBytes + kSlack + entries * kTraceEntryFixedBytes)
    finding("a status outgrew maxHeapBytes", std::to_string(status.size()) + " bytes of status, " +
                                                 std::to_string(entries) + " trace entries, against maxHeapBytes " +
                                                 std::to_string(kMaxHeapBytes));
  const Value& peak = s.field("metrics").field("memoryBytes");
  if (peak.isNumber() && peak.asDouble() > static_cast<double>(kMaxHeapBytes))
    finding("a run's peak bytes outgrew maxHeapBytes", toJson(s.field("metrics")));
}

}  // namespace ptc::fuzz
