// The op table's entries of lookups, quantifiers, ranks and trees (issue 35):
// lookup (a join read by key), any and all, rank, descendants. Kept in their
// own header so that op_table_entries.h stays under the file-size limit;
// included by it after the entry builders, each named in buildTable's list in
// enum order.
#pragma once

namespace ptc {

namespace op_entry {

// clang-format off
constexpr Entry lookupEntry() {
  return does({.control = Control::Lookup, .runs = Runs::Once},
           valueOp(Op::Lookup, "lookup", "access",
              "A join: the first item of `in` whose `key` equals the input, or its `get` field (null when none).",
              R"({"op": "lookup", "field": "order_id", "in": "$orders", "key": "id", "get": "total"})",
              {field("in", K::Expr, P::Required, "the list of objects to search, e.g. \"$customers\""),
               field("key", K::Key, P::Required, "the field of its items that must equal the input"),
               field("get", K::Key, P::Optional, "the field of the found item to return (omit: the whole item)")}));
}

constexpr Entry anyEntry() {
  return does({.control = Control::Quantify, .runs = Runs::PerItem, .neverAnObject = true, .refusesCalls = true,
            .scopes = {{.binds = Binds::As, .seenBy = "where"}}},
           listOp(Op::Any, "any", "collections",
             "Whether `where` holds for some item (false when empty).",
             R"({"op": "any", "where": {"op": "gt", "field": "total", "value": 1000}})",
             {predicate("where", K::Expr, "condition evaluated with each item as the current value"), asName()}));
}

constexpr Entry allEntry() {
  return does({.control = Control::Quantify, .runs = Runs::PerItem, .rejects = true, .neverAnObject = true,
            .refusesCalls = true, .scopes = {{.binds = Binds::As, .seenBy = "where"}}},
           listOp(Op::All, "all", "collections",
             "Whether `where` holds for every item (true when empty).",
             R"({"op": "all", "where": {"op": "eq", "field": "status", "value": "paid"}})",
             {predicate("where", K::Expr, "condition evaluated with each item as the current value"), asName()}));
}

constexpr Entry rankEntry() {
  return does({.apply = applyRank, .neverAnObject = true},
           listOp(Op::Rank, "rank", "collections",
             "Sorts objects by `field`, adding \"rank\": ties share it (1,2,2,4; dense 1,2,2,3; row 1,2,3,4); nulls last.",
             R"({"op": "rank", "field": "score", "order": "desc", "method": "dense"})",
             {field("field", K::ItemField, P::Required, "field to rank by"),
              field("order", K::Order, P::Optional, "\"asc\" (default) or \"desc\""),
              choice("method", P::Optional, "\"rank\" (default), \"dense\" or \"row\"", kRankMethods)}));
}

constexpr Entry descendantsEntry() {
  return does({.apply = applyDescendants, .neverAnObject = true},
           listOp(Op::Descendants, "descendants", "collections",
             "The items under id `of` at any depth by `parent` ids, breadth first (each once: a cycle ends).",
             R"({"op": "descendants", "of": 7, "parent": "manager_id"})",
             {field("of", K::Expr, P::Required, "the id of the item whose descendants are wanted"),
              field("parent", K::Key, P::Required, "the field holding an item's parent id"),
              field("id", K::Key, P::Optional, "the field holding an item's own id (default \"id\")")}));
}
// clang-format on

}  // namespace op_entry

}  // namespace ptc
