// Calls among functions (§4): no function may reach itself through calls, even
// one the entry never calls. A depth-first walk of the call graph the step
// compiler recorded; the first cycle found fails at the call that closes it.
#include "core/error.h"
#include "step_functions/compile.h"

namespace ptc::step_functions {

namespace {

enum class Visit { New, OnPath, Done };

class CycleFinder {
 public:
  explicit CycleFinder(const FileContext& file) : file_(file), state_(file.headers.size(), Visit::New) {}

  void visit(size_t f) {
    if (state_[f] == Visit::Done) return;
    state_[f] = Visit::OnPath;
    path_.push_back(f);
    for (const CallSite& call : file_.calls[f]) {
      if (path_.size() > static_cast<size_t>(kMaxStepNesting)) tooDeep(call.path);  // and this walk stays shallow
      if (state_[call.callee] == Visit::OnPath)
        fail(ErrorCode::Recursion, call.path, "Recursion is not allowed: " + cycle(call.callee));
      visit(call.callee);
    }
    path_.pop_back();
    state_[f] = Visit::Done;
  }

 private:
  // "a -> b -> a": the functions on the path from the callee back to it.
  std::string cycle(size_t callee) const {
    std::string out;
    bool on = false;
    for (size_t f : path_) {
      on = on || f == callee;
      if (on) out += file_.headers[f].name + " -> ";
    }
    return out + file_.headers[callee].name;
  }

  const FileContext& file_;
  std::vector<Visit> state_;
  std::vector<size_t> path_;  // the functions being visited, outermost first
};

}  // namespace

void checkNoRecursion(const FileContext& file) {
  CycleFinder finder(file);
  for (size_t f = 0; f < file.headers.size(); ++f) finder.visit(f);
}

}  // namespace ptc::step_functions
