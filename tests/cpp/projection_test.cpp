// Which fields of loaded rows a program can observe (engine/ptc_json/projection.h): the
// analysis must never claim fewer fields than the program can see.
#include <gtest/gtest.h>

#include "core/json.h"
#include "ptc_json/program.h"
#include "ptc_json/projection.h"

namespace {

std::string projectionsOf(const std::string& programJson) {
  ptc::Value doc = ptc::parseJson(programJson, "program");
  auto program = ptc::compileProgram(ptc::programOfEnvelope(doc), ptc::CompileOptions{});
  std::string out;
  for (const auto& [name, fields] : program->projections) {
    out += name + ":";
    for (const std::string& f : fields) out += f + ",";
    out += ";";
  }
  return out;
}

std::string pipeOp(const std::string& steps) { return R"({"op":"pipe","steps":[)" + steps + "]}"; }
std::string pipe(const std::string& steps) { return R"({"program":)" + pipeOp(steps) + "}"; }

const std::string kLoad = R"({"op":"load","name":"rows"})";

struct Case {
  const char* what;
  std::string program;
  const char* projections;  // "" = nothing projected
};

TEST(Projection, FieldsReadBeforeTheRowsAreGone) {
  const Case cases[] = {
      {"filter + sum",
       pipe(
           kLoad +
           R"(,{"op":"filter","where":{"op":"eq","field":"category","value":"travel"}},{"op":"sum","field":"amount"})"),
       "rows:amount,category,;"},
      {"count reads no field", pipe(kLoad + R"(,{"op":"count"})"), "rows:;"},
      {"sort, first, get",
       pipe(kLoad + R"(,{"op":"sort_by","field":"price","order":"desc"},{"op":"first"},{"op":"get","field":"name"})"),
       "rows:name,price,;"},
      {"map to a field", pipe(kLoad + R"(,{"op":"map","expr":{"op":"get","field":"name"}})"), "rows:name,;"},
      {"map to an object of fields",
       pipe(kLoad + R"(,{"op":"map","expr":{"id":{"op":"get","field":"id"},"n":{"op":"get","path":["name"]}}})"),
       "rows:id,name,;"},
      {"select", pipe(kLoad + R"(,{"op":"take","count":3},{"op":"select","fields":["a","b"]})"), "rows:a,b,;"},
      {"and / not / get in where",
       pipe(
           kLoad +
           R"(,{"op":"reject","where":{"op":"and","conditions":[{"op":"gt","field":"a","value":1},{"op":"not","condition":{"op":"get","field":"b"}}]}},{"op":"avg","field":"c"})"),
       "rows:a,b,c,;"},
      {"max_by then get",
       pipe(kLoad + R"(,{"op":"drop","count":1},{"op":"max_by","field":"score"},{"op":"get","field":"name"})"),
       "rows:name,score,;"},
      {"filter_in with a constant list",
       pipe(kLoad + R"(,{"op":"filter_in","field":"s","value":["a","b"]},{"op":"count"})"), "rows:s,;"},
      {"a var in a comparison",
       pipe(kLoad +
            R"(,{"op":"filter","where":{"op":"eq","field":"s","value":{"op":"var","name":"wanted"}}},{"op":"count"})"),
       "rows:s,;"},
      {"a load later in a pipe", pipe(R"({"op":"literal","value":1},)" + kLoad + R"(,{"op":"count"})"), "rows:;"},
      {"two loads of one key: the union of their fields",
       R"({"program":{"op":"add","left":)" + pipeOp(kLoad + R"(,{"op":"sum","field":"a"})") + R"(,"right":)" +
           pipeOp(kLoad + R"(,{"op":"max","field":"b"})") + "}}",
       "rows:a,b,;"},
      {"group_by a field with aggregates of fields",
       pipe(
           kLoad +
           R"(,{"op":"group_by","field":"category","aggs":{"total":{"op":"sum","field":"amount"},"n":{"op":"count"},"top":{"op":"pipe","steps":[{"op":"max_by","field":"amount"},{"op":"get","field":"id"}]}}})"),
       "rows:amount,category,id,;"},
      {"group_by a key built from a field",
       pipe(kLoad + R"(,{"op":"group_by","key":{"op":"get","field":"k"},"aggs":{"n":{"op":"count"}}})"), "rows:k,;"},
      {"sort_by several keys",
       pipe(kLoad +
            R"(,{"op":"sort_by","by":["a",{"field":"b","order":"desc"}]},{"op":"first"},{"op":"get","field":"c"})"),
       "rows:a,b,c,;"},
      {"a join: per order, the user whose id is the order's user_id",
       R"({"program":{"op":"pipe","steps":[{"op":"load","name":"orders"},{"op":"map","expr":{"id":{"op":"get","field":"order_id"},"name":{"op":"pipe","steps":[{"op":"load","name":"users"},{"op":"filter","where":{"op":"eq","field":"id","value":{"op":"get","field":"user_id"}}},{"op":"first"},{"op":"get","field":"name"}]}}}]}})",
       "orders:order_id,user_id,;users:id,name,;"},
      {"an as variable read through fields",
       pipe(
           kLoad +
           R"(,{"op":"filter","as":"r","where":{"op":"gt","field":"a","value":{"op":"var","name":"r","field":"b"}}},{"op":"count"})"),
       "rows:a,b,;"},
  };
  for (const Case& c : cases) EXPECT_EQ(projectionsOf(c.program), c.projections) << c.what;
}

TEST(Projection, NothingWhenARowOrAWholeItemCanBeSeen) {
  const Case cases[] = {
      {"the rows are the result", pipe(kLoad + R"(,{"op":"filter","where":{"op":"eq","field":"a","value":1}})"), ""},
      {"a row is the result", pipe(kLoad + R"(,{"op":"first"})"), ""},
      {"a comparison without a field compares whole rows",
       pipe(kLoad + R"(,{"op":"filter","where":{"op":"eq","value":1}},{"op":"count"})"), ""},
      {"a comparison value that is not constant",
       pipe(kLoad +
            R"(,{"op":"filter","where":{"op":"eq","field":"a","value":{"op":"get","field":"b"}}},{"op":"count"})"),
       ""},
      {"a join whose value reads deeper into the order",
       R"({"program":{"op":"pipe","steps":[{"op":"load","name":"orders"},{"op":"map","expr":{"op":"pipe","steps":[{"op":"load","name":"users"},{"op":"filter","where":{"op":"eq","field":"id","value":{"op":"get","path":["user","id"]}}},{"op":"count"}]}}]}})",
       ""},
      {"a comparison value reading the row outside any map",
       pipe(kLoad +
            R"(,{"op":"filter","where":{"op":"eq","field":"a","value":{"op":"get","field":"b"}}},{"op":"count"})"),
       ""},
      {"group_by without aggs holds the rows", pipe(kLoad + R"(,{"op":"group_by","field":"a"})"), ""},
      {"group_by with an aggregate that returns a row",
       pipe(kLoad + R"(,{"op":"group_by","field":"a","aggs":{"top":{"op":"first"}}})"), ""},
      {"group_by an aggregate sum of whole items",
       pipe(kLoad + R"(,{"op":"group_by","field":"a","aggs":{"s":{"op":"sum"}}})"), ""},
      {"an as variable read whole",
       pipe(
           kLoad +
           R"(,{"op":"filter","as":"r","where":{"op":"eq","field":"a","value":{"op":"var","name":"r"}}},{"op":"count"})"),
       ""},
      {"sort_by several keys, one the item itself",
       pipe(kLoad + R"(,{"op":"sort_by","by":["a"]},{"op":"sort_by"},{"op":"first"},{"op":"get","field":"c"})"), ""},
      {"distinct compares whole rows", pipe(kLoad + R"(,{"op":"distinct"},{"op":"count"})"), ""},
      {"sum without a field", pipe(kLoad + R"(,{"op":"sum"})"), ""},
      {"sort_by without a field", pipe(kLoad + R"(,{"op":"sort_by"},{"op":"take","count":1},{"op":"count"})"), ""},
      {"a path deeper than one key", pipe(kLoad + R"(,{"op":"map","expr":{"op":"get","path":["a","b"]}})"), ""},
      {"a map building something else", pipe(kLoad + R"(,{"op":"map","expr":{"op":"typeof"}})"), ""},
      {"keys of a row", pipe(kLoad + R"(,{"op":"first"},{"op":"keys"})"), ""},
      {"a load outside a pipe", R"({"program":{"op":"load","name":"rows"}})", ""},
      {"a load as a comparison value",
       pipe(
           R"({"op":"literal","value":[1]},{"op":"filter","where":{"op":"in","field":"x","value":{"op":"load","name":"rows"}}})"),
       ""},
      {"a load bound by let",
       R"({"program":{"op":"let","name":"r","value":)" + kLoad + R"(,"in":)" +
           pipeOp(R"({"op":"var","name":"r"},{"op":"count"})") + "}}",
       ""},
      {"one load of a key seen whole makes the key whole",
       R"({"program":{"op":"concat","lists":[)" + pipeOp(kLoad + R"(,{"op":"first"})") + "," +
           pipeOp(kLoad + R"(,{"op":"sum","field":"a"})") + "]}}",
       ""},
  };
  for (const Case& c : cases) EXPECT_EQ(projectionsOf(c.program), c.projections) << c.what;
}

}  // namespace
