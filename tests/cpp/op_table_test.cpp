// The op table against the enum and the conformance corpus: one entry per Op
// in enum order (specOf indexes by it), unique names, and every operation
// exercised by at least one conformance case that runs to a result.
#include <gtest/gtest.h>

#include <set>
#include <string>

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
    for (const ptc::Member& m : v.members())
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
