// Nesting (§10: the engine's limits). Each for loop and each call of a function
// of the file runs one level deeper on the engine's native stack: a file nesting
// more levels than kMaxStepNesting along any path (counted through the functions
// it calls) is refused here, before it runs, rather than exhausting that stack.
#include <algorithm>

#include "core/error.h"
#include "step_functions/compile.h"

namespace ptc::step_functions {

namespace {

class NestingCheck {
 public:
  explicit NestingCheck(const File& wf) : wf_(wf), nesting_(wf.functions.size(), -1) {}

  // Levels below a function's steps; `above` levels lead to it (at `path`).
  // Memoized: the call graph has no cycle (checkNoRecursion).
  int functionNesting(int f, int above, const std::string& path) {
    int& known = nesting_[static_cast<size_t>(f)];
    if (known < 0) known = blockNesting(wf_.functions[static_cast<size_t>(f)].steps, above);
    if (above + known > kMaxStepNesting) tooDeep(path);
    return known;
  }

 private:
  int blockNesting(const std::vector<Step>& steps, int above) {
    int deepest = 0;
    for (const Step& s : steps) {
      auto call = [&](const Call& c) {
        if (c.function < 0) return;
        if (above + 1 > kMaxStepNesting) tooDeep(c.path);
        deepest = std::max(deepest, 1 + functionNesting(c.function, above + 1, c.path));
      };
      if (s.kind == Step::Kind::Call) call(s.call);
      if (s.onError) {
        for (const Call& c : s.onError->compensate) call(c);
        if (!s.onError->then.empty()) {  // the handler's steps are a level, as an if's blocks are
          if (above + 1 > kMaxStepNesting) tooDeep(s.path);
          deepest = std::max(deepest, 1 + blockNesting(s.onError->then, above + 1));
        }
      }
      for (const Call& c : s.compensate) call(c);
      if (s.kind == Step::Kind::For || s.kind == Step::Kind::If) {  // an if's blocks are levels too
        if (above + 1 > kMaxStepNesting) tooDeep(s.path);
        deepest = std::max(deepest, 1 + blockNesting(s.body, above + 1));
        deepest = std::max(deepest, 1 + blockNesting(s.elseBody, above + 1));
      }
    }
    return deepest;
  }

  const File& wf_;
  std::vector<int> nesting_;  // per function: levels below its steps, or -1 until known
};

}  // namespace

void tooDeep(const std::string& path) {
  fail(
      ErrorCode::TooDeep, path,
      "Steps nest more than " + std::to_string(kMaxStepNesting) +
          " levels deep here (each for loop, each block of an 'if' and each call of a function of the file is a level, counted "
          "through the functions called); flatten the loops or shorten the chain of calls");
}

void checkNesting(const File& wf) {
  NestingCheck check(wf);
  for (size_t f = 0; f < wf.functions.size(); ++f) check.functionNesting(static_cast<int>(f), 0, wf.functions[f].path);
}

}  // namespace ptc::step_functions
