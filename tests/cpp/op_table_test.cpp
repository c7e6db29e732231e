// The op table against the enum and the conformance corpus: one entry per Op
// in enum order (specOf indexes by it), unique names, and every operation
// exercised by at least one conformance case that runs to a result.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "core/json.h"
#include "ptc_json/op_table.h"
#include "test_support.h"

namespace {

TEST(OpTable, HoldsOneEntryPerOpInEnumOrder) {
  const std::span<const ptc::OpSpec> table = ptc::opTable();
  ASSERT_EQ(table.size(), ptc::kOpCount);
  std::set<std::string> names;
  for (size_t i = 0; i < table.size(); ++i) {
    const ptc::Op op = static_cast<ptc::Op>(i);
    EXPECT_EQ(table[i].op, op) << "entry " << i << " ('" << table[i].name << "') is out of enum order";
    EXPECT_EQ(&ptc::specOf(op), &table[i]);
    EXPECT_TRUE(names.insert(table[i].name).second) << "two operations named '" << table[i].name << "'";
    EXPECT_EQ(ptc::findOp(table[i].name), &table[i]);
  }
}

bool isOperation(const ptc::Value& v) { return v.isObject() && v.find("op"); }

// The operations an expression evaluates, found through expression positions
// only (the table's field kinds): an "op" inside literal data does not count.
void collectOps(const ptc::Value& v, std::set<std::string>& out) {
  if (!v.isObject()) return;  // literal data
  const ptc::OpSpec* spec = isOperation(v) && v.field("op").isString() ? ptc::findOp(v.field("op").str()) : nullptr;
  if (!spec) {  // an implicit object: its operation values are evaluated
    for (ptc::MemberRef m : v.members())
      if (isOperation(m.value)) collectOps(m.value, out);
    return;
  }
  out.insert(spec->name);
  for (const ptc::FieldSpec& f : spec->fields) {
    const ptc::Value* value = v.find(f.name);
    if (!value) continue;
    if (f.kind == ptc::FieldKind::Expr) collectOps(*value, out);
    if (f.kind == ptc::FieldKind::ExprList && value->isArray())
      for (const ptc::Value& item : value->items()) collectOps(item, out);
    if (f.kind == ptc::FieldKind::ExprFields) collectOps(*value, out);
  }
}

TEST(OpTable, EveryOperationHasAConformanceCaseThatRunsToAResult) {
  std::set<std::string> exercised;
  for (const ptc::testing::Case& c : ptc::testing::loadCases(PTC_CONFORMANCE_DIR))
    if (!c.data.field("validateOnly").truthy() && !c.data.field("expect").find("error"))
      collectOps(c.data.field("program").field("program"), exercised);
  for (const ptc::OpSpec& spec : ptc::opTable())
    EXPECT_TRUE(exercised.count(spec.name))
        << "no case in tests/conformance runs '" << spec.name << "' to a result: add one";
}

}  // namespace

// What an op does is table data (OpSpec: apply or control, runs, rows...):
// every op goes through the preflight analysis and the projection, and the
// claims the analysis makes from the table hold for the corpus.
namespace {

const char* kNoOptions = "{}";

TEST(OpBehaviour, EveryOpWalksThroughAnalysisAndProjection) {
  for (const ptc::OpSpec& spec : ptc::opTable()) {
    // The example after a load of rows: the analysis walks it, the projection follows the rows into it.
    const std::string program =
        std::string(R"({"program": {"op": "pipe", "steps": [{"op": "load", "name": "rows"}, )") + spec.example + "]}}";
    ptc::Engine engine;
    ptc::Value status = ptc::parseJson(engine.analyze(program, kNoOptions), "status");
    ASSERT_TRUE(status.field("ok").truthy()) << spec.name << ": " << ptc::toJson(status);
    const ptc::Value& analysis = status.field("analysis");
    EXPECT_GE(analysis.field("nodes").asInt(), 3) << spec.name;
    EXPECT_GE(analysis.field("context").items().size(), 1u) << spec.name << ": the load of rows";
  }
}

TEST(OpBehaviour, EveryOpIsStrictOrControlAndOnlyControlOpsRunPerItem) {
  for (const ptc::OpSpec& spec : ptc::opTable()) {
    EXPECT_NE(spec.apply == nullptr, spec.control == ptc::Control::None) << spec.name;
    if (spec.runs == ptc::Runs::PerItem) {
      EXPECT_NE(spec.control, ptc::Control::None) << spec.name;
    }
    if (spec.setsMapItem) {
      EXPECT_EQ(spec.runs, ptc::Runs::PerItem) << spec.name;
    }
  }
}

// The op whose value a program's value is: a pipe's last step, a let's `in`.
ptc::Value finalOp(const ptc::Value& op) {
  const ptc::Value& name = op.field("op");
  if (name.isString() && name.str() == "pipe" && op.field("steps").isArray() && !op.field("steps").items().empty())
    return finalOp(op.field("steps").items().back());
  if (name.isString() && name.str() == "let" && op.find("in")) return finalOp(op.field("in"));
  return op;
}

// Whether v holds a return op anywhere: its value, not the last op's, may be the program's.
bool hasReturn(const ptc::Value& v) {
  if (v.isObject() && v.field("op").isString() && v.field("op").str() == "return") return true;
  if (v.isArray()) return std::any_of(v.items().begin(), v.items().end(), hasReturn);
  if (v.isObject())
    return std::any_of(v.members().begin(), v.members().end(), [](ptc::MemberRef m) { return hasReturn(m.value); });
  return false;
}

// neverAnObject lets analyze() say a program writes no memory: no case whose
// value is such an op's may give an object (analysis counts a return's value apart).
TEST(OpBehaviour, NeverAnObjectHoldsForEveryCaseThatRunsToAResult) {
  std::set<std::string> checked;
  for (const ptc::testing::Case& c : ptc::testing::loadCases(PTC_CONFORMANCE_DIR)) {
    if (c.data.field("validateOnly").truthy() || !c.data.field("expect").find("result")) continue;
    if (hasReturn(c.data.field("program"))) continue;
    const ptc::Value last = finalOp(c.data.field("program").field("program"));
    if (!isOperation(last) || !last.field("op").isString()) continue;
    const ptc::OpSpec* spec = ptc::findOp(last.field("op").str());
    if (!spec || !spec->neverAnObject) continue;
    checked.insert(spec->name);
    EXPECT_FALSE(c.data.field("expect").field("result").isObject())
        << c.id << ": '" << spec->name << "' gave an object, but its entry says neverAnObject";
  }
  EXPECT_GE(checked.size(), 20u);
}

}  // namespace

namespace {

bool warnsAt(const ptc::Value& status, const std::string& path, const std::string& field) {
  const ptc::Value* warnings = status.find("warnings");
  if (!warnings) return false;
  for (const ptc::Value& w : warnings->items())
    if (w.field("code").str() == "unknown_result_field" && w.field("path").str() == path &&
        w.field("message").str().find("'" + field + "'") != std::string::npos)
      return true;
  return false;
}

// The item flow an entry declares (sees, readsItemFields, gives) is what the
// check of declared tool results follows: after a tool whose items have only
// "zz", an op said to read fields of its items warns of its example's field,
// and an op said to give items lets a misread of them further on be warned of.
TEST(OpBehaviour, DeclaredResultsAreFollowedThroughEachOpAsItsEntrySays) {
  const char* options =
      R"({"returns": {"t": {"type": "array", "items": {"type": "object", "properties": {"zz": {"type": "string"}}}}}})";
  size_t checked = 0;
  for (const ptc::OpSpec& spec : ptc::opTable()) {
    std::string after;
    std::string path = "/program/steps/2";
    if (spec.gives == ptc::Gives::SameItems) {
      after = R"(, {"op": "first"}, {"op": "get", "field": "nope"})";
      path = "/program/steps/3";
    } else if (spec.gives == ptc::Gives::OneItem) {
      after = R"(, {"op": "get", "field": "nope"})";
    } else if (!spec.readsItemFields) {
      continue;
    }
    const std::string program = std::string(R"({"program": {"op": "pipe", "steps": [{"op": "call", "tool": "t"}, )") +
                                spec.example + after + "]}}";
    ptc::Engine engine;
    const ptc::Value status = ptc::parseJson(engine.validate(program, options), "status");
    ASSERT_TRUE(status.field("ok").truthy()) << spec.name << ": " << ptc::toJson(status);
    if (!after.empty()) {
      EXPECT_TRUE(warnsAt(status, path, "nope")) << spec.name << ": " << ptc::toJson(status);
    }
    if (spec.readsItemFields) {
      const ptc::Value* warnings = status.find("warnings");
      EXPECT_TRUE(warnings && !warnings->items().empty()) << spec.name << ": no field of its items read";
    }
    ++checked;
  }
  EXPECT_GE(checked, 20u);
}

}  // namespace

// What a control op binds is declared in its entry (OpSpec::scopes), read by
// the compiler, the analysis, the check of declared results and both
// evaluators; and an entry is only what `does` builds (issue 34).
#include <type_traits>

#include "ptc_json/op_fields.h"

namespace {

const ptc::ScopeSpec* scopeOf(const ptc::OpSpec& spec, ptc::Binds binds) {
  for (const ptc::ScopeSpec& s : spec.scopes)
    if (s.binds == binds) return &s;
  return nullptr;
}

bool sees(const ptc::OpSpec& spec, const ptc::ScopeSpec* s, const char* field) {
  const int i = ptc::fieldIndex(spec, field);
  return s && i >= 0 && s->seenByField(static_cast<size_t>(i));
}

TEST(OpScopes, AnOpWithAnAsFieldDeclaresWhichFieldsSeeIt) {
  for (const ptc::OpSpec& spec : ptc::opTable()) {
    const ptc::ScopeSpec* as = scopeOf(spec, ptc::Binds::As);
    EXPECT_EQ(as != nullptr, ptc::bindsAs(spec)) << spec.name;
    if (as) {
      EXPECT_NE(as->fields, 0) << spec.name << ": an `as` no field sees";
    }
    if (!spec.scopes.empty()) {
      EXPECT_NE(spec.control, ptc::Control::None) << spec.name;
    }
  }
}

TEST(OpScopes, TheLiteralNamesAreSeenByTheirFieldsOnly) {
  const ptc::OpSpec& scan = ptc::specOf(ptc::Op::Scan);
  const ptc::OpSpec& reduce = ptc::specOf(ptc::Op::Reduce);
  const ptc::OpSpec& tryOp = ptc::specOf(ptc::Op::Try);
  for (const ptc::OpSpec* spec : {&scan, &reduce}) {
    const ptc::ScopeSpec* acc = scopeOf(*spec, ptc::Binds::Literal);
    ASSERT_NE(acc, nullptr) << spec->name;
    EXPECT_STREQ(acc->name, "acc");
    EXPECT_TRUE(sees(*spec, acc, "expr"));
    EXPECT_FALSE(sees(*spec, acc, "init"));
  }
  const ptc::ScopeSpec* error = scopeOf(tryOp, ptc::Binds::Literal);
  ASSERT_NE(error, nullptr);
  EXPECT_STREQ(error->name, "error");
  EXPECT_TRUE(sees(tryOp, error, "catch"));
  EXPECT_FALSE(sees(tryOp, error, "expr"));
  const ptc::OpSpec& let = ptc::specOf(ptc::Op::Let);
  EXPECT_TRUE(sees(let, scopeOf(let, ptc::Binds::Bindings), "in"));
  const ptc::OpSpec& groupBy = ptc::specOf(ptc::Op::GroupBy);
  EXPECT_TRUE(sees(groupBy, scopeOf(groupBy, ptc::Binds::As), "key"));
  EXPECT_FALSE(sees(groupBy, scopeOf(groupBy, ptc::Binds::As), "aggs"));
}

// Fields by name, checked while compiling: loop's `while` is its third field.
static_assert(ptc::fieldRef(ptc::Op::Loop, "while").index == 2);
static_assert(ptc::fieldRef(ptc::Op::Reduce, "expr").op == ptc::Op::Reduce);

// Only `does` makes an entry, and an apply function is named, never null.
static_assert(!std::is_constructible_v<ptc::op_entry::Entry, ptc::OpSpec>);
static_assert(!std::is_constructible_v<ptc::op_entry::Apply, std::nullptr_t>);

TEST(OpEntries, TheFlowARowRoleImpliesIsDerived) {
  for (const ptc::OpSpec& spec : ptc::opTable()) {
    if (std::optional<ptc::op_entry::Flow> flow = ptc::op_entry::flowOfRole(spec.rows)) {
      EXPECT_EQ(spec.sees, flow->sees) << spec.name;
      EXPECT_EQ(spec.readsItemFields, flow->readsItemFields) << spec.name;
      EXPECT_EQ(spec.gives, flow->gives) << spec.name;
    }
    if (spec.gives == ptc::Gives::SameItems || spec.gives == ptc::Gives::EachResult) {
      EXPECT_TRUE(spec.neverAnObject) << spec.name;
    }
    EXPECT_NE(spec.apply == nullptr, spec.control == ptc::Control::None) << spec.name;
  }
}

}  // namespace
