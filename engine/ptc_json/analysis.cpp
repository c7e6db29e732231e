#include "ptc_json/analysis.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "core/json.h"
#include "ptc_json/op_fields.h"
#include "ptc_json/op_table.h"

namespace ptc {

namespace {

struct CallSite {
  std::string path;
  std::vector<std::string> repeats;  // outermost first: "per item of /p", "at most N times"
  bool caught = false;               // inside a try's expr: its failure is handled
};

// Ops that run their expressions once per item of their list (the current value).
bool perItem(Op op) { return specOf(op).runs == Runs::PerItem; }

// The field of n whose expressions include kid i (Node::slots), or -1.
int fieldOfKid(const Node& n, size_t i) {
  int field = -1;
  for (size_t f = 0; f < n.slots.size(); ++f)
    if (n.slots[f] >= 0 && static_cast<size_t>(n.slots[f]) <= i) field = static_cast<int>(f);
  return field;
}

constexpr FieldRef kTryExpr = fieldRef(Op::Try, "expr");
constexpr FieldRef kLoopInit = fieldRef(Op::Loop, "init");
constexpr FieldRef kReturnValue = fieldRef(Op::Return, "value");

class Analysis {
 public:
  void walk(const Node& n, const std::string& input, int depth) {
    ++nodes_;
    depth_ = std::max(depth_, depth);
    const Control control = specOf(n.op).control;
    if (control == Control::Call) tools_[n.name.str()].push_back(CallSite{n.path, repeats_, caught_ > 0});
    if ((control == Control::Var && !bound(n.name.str())) || (control == Control::Load && n.memoryFirst))
      memoryReads_.insert(n.name.str());
    if (control == Control::Return) returns_.push_back(n.kid(kReturnValue));  // a final value too
    if (control == Control::Pipe) return pipe(n, input, depth);
    for (size_t i = 0; i < n.kids.size(); ++i) kid(n, i, input, depth);
  }

  std::string json(const Program& program) {
    std::string out = "{\"tools\":[";
    bool first = true;
    for (const auto& [name, sites] : tools_) {
      if (!first) out += ",";
      first = false;
      out += "{\"name\":";
      appendJsonString(out, name);
      out += ",\"calls\":[";
      for (size_t i = 0; i < sites.size(); ++i) out += (i ? "," : "") + siteJson(sites[i]);
      out += "]}";
    }
    out += "],\"context\":[";
    for (size_t i = 0; i < program.loads.size(); ++i) {
      out += i ? ",{\"key\":" : "{\"key\":";
      appendJsonString(out, program.loads[i]);
      if (auto p = program.projections.find(program.loads[i]); p != program.projections.end())
        out += ",\"fields\":" + stringList(p->second);
      out += "}";
    }
    std::set<std::string> writes;
    bool unknown = false;
    finalWrites(*program.root, writes, unknown);
    for (const Node* value : returns_) finalWrites(*value, writes, unknown);
    out += "],\"memory\":{\"reads\":" + stringList(memoryReads_) + ",\"writes\":" + stringList(writes) +
           ",\"writesUnknown\":" + (unknown ? "true" : "false") + "},\"depth\":" + std::to_string(depth_) +
           ",\"nodes\":" + std::to_string(nodes_) + "}";
    return out;
  }

 private:
  // Each step's current value is the previous step's value: a per-item op's
  // list is the step before it.
  void pipe(const Node& n, const std::string& input, int depth) {
    for (size_t i = 0; i < n.kids.size(); ++i) walk(*n.kids[i], i ? n.kids[i - 1]->path : input, depth + 1);
  }

  void kid(const Node& n, size_t i, const std::string& input, int depth) {
    const Node& k = *n.kids[i];
    size_t scope = names_.size();
    size_t repeats = repeats_.size();
    const int field = fieldOfKid(n, i);
    const Control control = specOf(n.op).control;
    bool inTry = control == Control::Try && &k == n.kid(kTryExpr);  // its failure is caught
    boundNames(n, field, i);
    if (perItem(n.op)) repeats_.push_back("per item of " + input);
    if (control == Control::Loop && &k != n.kid(kLoopInit))  // next and while repeat
      repeats_.push_back("at most " + std::to_string(n.count) + " times");
    if (control == Control::Retry)  // expr (and when) are tried again
      repeats_.push_back("at most " + std::to_string(n.count) + " tries");
    caught_ += inTry;
    walk(k, perItem(n.op) ? "an item of " + input : input, depth + 1);
    caught_ -= inTry;
    names_.resize(scope);
    repeats_.resize(repeats);
  }

  // The names the op's declared scopes bind for kid i, of its field `field`
  // (a let's binding i sees the earlier ones).
  void boundNames(const Node& n, int field, size_t i) {
    const OpSpec& spec = specOf(n.op);
    for (const ScopeSpec& s : spec.scopes) {
      if (s.binds == Binds::Bindings && field >= 0 &&
          spec.fields[static_cast<size_t>(field)].kind == FieldKind::ExprFields)
        for (size_t b = 0; b < std::min(i, n.keys.size()); ++b) names_.push_back(n.keys[b].str());
      if (field < 0 || !s.seenByField(static_cast<size_t>(field))) continue;
      if (s.binds == Binds::As && n.name.isString()) names_.push_back(n.name.str());
      if (s.binds == Binds::Literal) names_.push_back(s.name);
      if (s.binds == Binds::Bindings)
        for (const Value& key : n.keys) names_.push_back(key.str());
    }
  }

  bool bound(const std::string& name) const { return std::find(names_.begin(), names_.end(), name) != names_.end(); }

  // The memory keys the final value may write (the memory contract of
  // docs/semantics.md): an object's keys but "result".
  static void finalWrites(const Node& n, std::set<std::string>& writes, bool& unknown) {
    auto keysOf = [&](const std::vector<Value>& keys) {
      for (const Value& k : keys)
        if (k.str() != "result") writes.insert(k.str());
    };
    if (specOf(n.op).control == Control::Literal && n.data.isObject()) {
      for (MemberRef m : n.data.members())
        if (m.key.str() != "result") writes.insert(m.key.str());
    } else if (specOf(n.op).gives == Gives::KeyedKids) {  // object (implicit objects compile to it): its keys
      keysOf(n.keys);
    } else if (specOf(n.op).gives == Gives::LastKid && !n.kids.empty()) {
      // the let's `in`, the pipe's last step
      finalWrites(*n.kids.back(), writes, unknown);
    } else if (specOf(n.op).gives == Gives::OneOfKids) {
      // any of its expressions but a condition: if's then and else, try's expr and catch
      for (const FieldSpec& f : specOf(n.op).fields) {
        const Node* k = f.role == Role::Predicate
                            ? nullptr
                            : n.kid(FieldRef{n.op, static_cast<uint8_t>(&f - specOf(n.op).fields.data())});
        if (k) finalWrites(*k, writes, unknown);
      }
    } else if (specOf(n.op).control != Control::Literal &&
               !specOf(n.op).neverAnObject) {  // an object of keys known only at run time
      unknown = true;
    }
  }

  static std::string siteJson(const CallSite& s) {
    std::string out = "{\"path\":";
    appendJsonString(out, s.path);
    std::string count;
    for (const auto& r : s.repeats) count += (count.empty() ? "" : ", ") + r;
    out += ",\"count\":";
    appendJsonString(out, count.empty() ? "once" : count);
    bool bounded = std::none_of(s.repeats.begin(), s.repeats.end(),
                                [](const std::string& r) { return r.rfind("per item", 0) == 0; });
    out += std::string(",\"bounded\":") + (bounded ? "true" : "false");
    if (s.caught) out += ",\"caught\":true";
    return out + "}";
  }

  template <class Strings>
  static std::string stringList(const Strings& strings) {
    std::string out = "[";
    for (const std::string& s : strings) {
      if (out.size() > 1) out += ",";
      appendJsonString(out, s);
    }
    return out + "]";
  }

  std::map<std::string, std::vector<CallSite>> tools_;
  std::set<std::string> memoryReads_;
  std::vector<std::string> names_;    // let/as/catch bindings in scope, innermost last
  std::vector<std::string> repeats_;  // the enclosing per-item ops and loops
  std::vector<const Node*> returns_;  // the values of the program's returns: final values besides the root's
  int caught_ = 0;
  int depth_ = 0;
  int nodes_ = 0;
};

}  // namespace

std::string analyzeProgram(const Program& program) {
  Analysis a;
  a.walk(*program.root, "the current value", 1);
  return a.json(program);
}

}  // namespace ptc
