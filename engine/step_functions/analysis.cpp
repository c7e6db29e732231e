#include "step_functions/analysis.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "core/json.h"

namespace ptc::step_functions {

namespace {

struct CallSite {
  std::string path;
  std::string function;              // the file function the call is written in
  std::vector<std::string> repeats;  // enclosing for steps, outermost first
  bool caught = false;               // it has an on-error
  // A call step after this one (in the order steps run) whose failure may stop
  // the function without running any compensation, leaving a write here standing.
  std::string uncompensatedAfter;
};

class Analysis {
 public:
  void function(const Function& fn) {
    function_ = fn.name;
    resultFunction_ = fn.output.isResult();
    flow_.clear();
    stepSites_.clear();
    steps(fn.steps, 1);
    markUncompensated();
  }

  std::string json() const {
    std::string out = "{\"tools\":[";
    bool first = true;
    for (const auto& [name, sites] : tools_) {
      out += first ? "{\"name\":" : ",{\"name\":";
      first = false;
      appendJsonString(out, name);
      out += ",\"calls\":[";
      for (size_t i = 0; i < sites.size(); ++i) out += (i ? "," : "") + siteJson(sites[i]);
      out += "]}";
    }
    out += "],\"input\":[";
    first = true;
    for (const std::string& f : input_) {
      if (!first) out += ",";
      first = false;
      appendJsonString(out, f);
    }
    return out + "],\"depth\":" + std::to_string(depth_) + ",\"nodes\":" + std::to_string(nodes_) + "}";
  }

 private:
  void steps(const std::vector<Step>& body, int depth) {
    for (const Step& s : body) step(s, depth);
  }

  void step(const Step& s, int depth) {
    ++nodes_;
    depth_ = std::max(depth_, depth);
    flow_.push_back(&s);
    expr(s.expr);
    for (const auto& c : s.cases) expr(c.second);
    expr(s.ifReturn);
    if (s.kind == Step::Kind::Call && call(s.call, s.onError != nullptr))
      stepSites_.push_back({flow_.size() - 1, s.call.target, tools_[s.call.target].size() - 1});
    for (const Call& c : s.compensate) call(c, false);
    if (s.onError) {
      for (const Call& c : s.onError->compensate) call(c, false);
      expr(s.onError->returnValue);
      steps(s.onError->then, depth + 1);  // runs once, where the call failed
    }
    expr(s.where);
    for (const auto& st : s.state) expr(st.second);
    if (s.kind == Step::Kind::If) {  // a block runs once, where the if is
      steps(s.body, depth + 1);
      steps(s.elseBody, depth + 1);
    }
    if (s.kind != Step::Kind::For) return;
    repeats_.push_back("per item of " + s.path + "/in");
    steps(s.body, depth + 1);
    repeats_.pop_back();
  }

  // True when the call is a host tool's (listed as a call site).
  bool call(const Call& c, bool caught) {
    if (c.hasArgs) expr(c.args);
    if (c.function >= 0) return false;  // a file function: its own calls are listed under it
    tools_[c.target].push_back(CallSite{c.path, function_, repeats_, caught, {}});
    return true;
  }

  // A call step whose failure stops the function and rolls nothing back: no
  // on-error, or one that returns without compensating (continue and break go on by design).
  static bool failsUncompensated(const Step& s) {
    if (s.kind != Step::Kind::Call) return false;
    return !s.onError || (s.onError->compensate.empty() && s.onError->then.empty() && !s.onError->continueLoop &&
                          !s.onError->breakLoop);
  }

  // For each call step of the function, the first later step (in the order
  // steps run: a for's body right after the for) that may fail uncompensated.
  void markUncompensated() {
    for (const StepSite& site : stepSites_) {
      const bool undone = !flow_[site.flowIndex]->compensate.empty();  // its "undo" runs if the function fails
      for (size_t later = site.flowIndex + 1; later < flow_.size(); ++later)
        if (undone ? returnsUndoing(*flow_[later]) : failsUncompensated(*flow_[later])) {
          tools_[site.tool][site.index].uncompensatedAfter = flow_[later]->path;
          break;
        }
    }
  }

  // A call with an "undo" is undone when the function fails; a later on-error
  // that returns (not {"error"} of a result function) without compensating ends
  // it normally, undoing nothing.
  bool returnsUndoing(const Step& s) const {
    return s.kind == Step::Kind::Call && s.onError && s.onError->hasReturn && s.onError->compensate.empty() &&
           !resultFunction_;
  }

  void ref(const Ref& r) {
    if (r.root == Ref::Root::Input && !r.segs.empty()) input_.insert(r.segs[0]);
  }

  void expr(const Expr& e) {
    if (e.kind == Expr::Kind::Ref) ref(e.ref);
    for (const Ref& r : e.refs) ref(r);
    for (const Expr& item : e.items) expr(item);
  }

  static std::string siteJson(const CallSite& s) {
    std::string out = "{\"path\":";
    appendJsonString(out, s.path);
    out += ",\"function\":";
    appendJsonString(out, s.function);
    std::string count;
    for (const auto& r : s.repeats) count += (count.empty() ? "" : ", ") + r;
    out += ",\"count\":";
    appendJsonString(out, count.empty() ? "once" : count);
    out += std::string(",\"bounded\":") + (s.repeats.empty() ? "true" : "false");
    if (s.caught) out += ",\"caught\":true";
    if (!s.uncompensatedAfter.empty()) {
      out += ",\"uncompensatedAfter\":";
      appendJsonString(out, s.uncompensatedAfter);
    }
    return out + "}";
  }

  struct StepSite {
    size_t flowIndex;  // in flow_
    std::string tool;  // the site is tools_[tool][index]
    size_t index;
  };

  std::string function_;
  bool resultFunction_ = false;
  std::vector<const Step*> flow_;    // the current function's steps in the order they run
  std::vector<StepSite> stepSites_;  // its call steps of host tools
  std::map<std::string, std::vector<CallSite>> tools_;
  std::set<std::string> input_;
  std::vector<std::string> repeats_;
  int depth_ = 0;
  int nodes_ = 0;
};

}  // namespace

std::string analyzeFile(const File& wf) {
  Analysis a;
  for (const Function& fn : wf.functions) a.function(fn);
  return a.json();
}

}  // namespace ptc::step_functions
