// The strict ops' functions over their evaluated operands (OpSpec::apply),
// each defined in its family's file, ptc_json/ops/<family>.cpp, and named by
// its entry in op_table_entries.h. One declared here and defined nowhere does not link.
#pragma once

#include <cstddef>

#include "core/value.h"

namespace ptc {

struct Node;

// collections.cpp
Value applySelect(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applySortBy(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyFirst(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyLast(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyNth(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyTake(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyDrop(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyDistinct(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyCount(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyChunk(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyFilterIn(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyRejectIn(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyReverse(const Node& n, const Value& in, const Value* args, size_t nargs);
// ranks.cpp (issue 35: ranks and trees)
Value applyRank(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyDescendants(const Node& n, const Value& in, const Value* args, size_t nargs);
// stats.cpp
Value applySum(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyAvg(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyMin(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyMax(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyMinBy(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyMaxBy(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyMedian(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyPercentile(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyCountDistinct(const Node& n, const Value& in, const Value* args, size_t nargs);
// access.cpp
Value applyGet(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyKeys(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyTypeof(const Node& n, const Value& in, const Value* args, size_t nargs);
// comparison.cpp
Value applyEq(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyNeq(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyGt(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyGte(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyLt(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyLte(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyContains(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyIn(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyNot(const Node& n, const Value& in, const Value* args, size_t nargs);
// arithmetic.cpp
Value applyAdd(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applySub(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyMul(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyDiv(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyRound(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyFloor(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyCeil(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyPct(const Node& n, const Value& in, const Value* args, size_t nargs);
// combine.cpp
Value applyObject(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyMerge(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyConcat(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyZip(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyList(const Node& n, const Value& in, const Value* args, size_t nargs);
// convert.cpp
Value applyToNumber(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyToString(const Node& n, const Value& in, const Value* args, size_t nargs);
// groups.cpp
Value applyToEntries(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyFlatten(const Node& n, const Value& in, const Value* args, size_t nargs);
// text.cpp
Value applyLength(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyLower(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyUpper(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyTrim(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applySlice(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applySplit(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyJoin(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyStartsWith(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyEndsWith(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyReplace(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyFormat(const Node& n, const Value& in, const Value* args, size_t nargs);
// dates.cpp
Value applyToTimestamp(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyFormatDate(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyDateDiff(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyDateAdd(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyDatePart(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyDateTrunc(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyDateRange(const Node& n, const Value& in, const Value* args, size_t nargs);
// parse.cpp
Value applyParseJson(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyParseCsv(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyParseKv(const Node& n, const Value& in, const Value* args, size_t nargs);
Value applyRange(const Node& n, const Value& in, const Value* args, size_t nargs);

}  // namespace ptc
