// The op table as text: an op's shape for messages and prompts, the whole
// table as JSON for the package (prompts, schema, docs, completion), and the
// lookups of ops and fields by name.
#include <string>
#include <string_view>

#include "core/json.h"
#include "ptc_json/op_table.h"

namespace ptc {

using K = FieldKind;
using P = Presence;

namespace {

const char* placeholder(FieldKind kind) {
  switch (kind) {
    case K::Expr: return "<expr>";
    case K::ExprList: return "[<expr>, ...]";
    case K::ExprFields: return "{\"key\": <expr>, ...}";
    case K::Json: return "<json>";
    case K::Name:
    case K::ItemField: return "\"<name>\"";
    case K::FieldName: return "\"<field>\"";
    case K::Names: return "[\"<name>\", ...]";
    case K::Count: return "<integer >= 0 | expr>";
    case K::Precision: return "<integer 0-15>";
    case K::Order: return "\"asc\"|\"desc\"";
    case K::SortKeys: return "[{\"field\": ..., \"order\": ...}, ...]";
    case K::Percent: return "<0-100>";
    case K::Method: return "\"linear\"|\"nearest\"";
    case K::Choice: return "<choice>";  // opShape writes the choices
    case K::Text: return "\"<text>\"";
    case K::Iterations: return "<1-1000>";
    case K::Key: return "\"<field>\"";
  }
  return "<expr>";
}

const char* presenceName(Presence p) { return p == P::Required ? "required" : (p == P::OneOf ? "one_of" : "optional"); }

}  // namespace

std::string choiceList(const FieldSpec& f) {
  std::string out;
  for (const char* c : f.choices) out += std::string(out.empty() ? "" : "|") + "\"" + c + "\"";
  return out;
}

namespace {

// {"op": "name", fields...}, or the keyed form {"name": <its field>, other fields...}.
std::string shapeOf(const OpSpec& spec, bool keyed) {
  std::string out = keyed ? "{\"" : "{\"op\": \"";
  out += spec.name;
  out += keyed ? "\": " : "\"";
  if (keyed) out += placeholder(findField(spec, spec.keyed)->kind);
  for (const FieldSpec& f : spec.fields) {
    if (keyed && f.name == std::string_view(spec.keyed)) continue;
    out += ", ";
    if (f.presence != P::Required) out += "[";
    out += "\"";
    out += f.name;
    out += "\": ";
    if (f.kind == K::Choice) out += choiceList(f);
    else out += placeholder(f.kind);
    if (f.presence != P::Required) out += "]";
  }
  out += "}";
  return out;
}

}  // namespace

std::string opShape(const OpSpec& spec) { return shapeOf(spec, false); }

std::string keyedShape(const OpSpec& spec) { return shapeOf(spec, spec.keyed != nullptr); }

std::string opTableJson() {
  std::string out = "[";
  bool firstOp = true;
  for (const OpSpec& s : opTable()) {
    if (!firstOp) out += ",";
    firstOp = false;
    out += "{\"name\":";
    appendJsonString(out, s.name);
    out += ",\"category\":";
    appendJsonString(out, s.category);
    out += ",\"readsInput\":";
    out += s.readsInput ? "true" : "false";
    out += ",\"description\":";
    appendJsonString(out, s.description);
    out += ",\"example\":";
    out += s.example;  // already JSON text
    out += ",\"shape\":";
    appendJsonString(out, opShape(s));
    if (s.keyed) {  // its keyed form: the field its key holds, and the form's shape
      out += ",\"keyed\":";
      appendJsonString(out, s.keyed);
      out += ",\"keyedShape\":";
      appendJsonString(out, keyedShape(s));
    }
    out += ",\"fields\":[";
    bool firstField = true;
    for (const FieldSpec& f : s.fields) {
      if (!firstField) out += ",";
      firstField = false;
      out += "{\"name\":";
      appendJsonString(out, f.name);
      out += ",\"kind\":";
      appendJsonString(out, fieldKindName(f.kind));
      out += ",\"presence\":";
      appendJsonString(out, presenceName(f.presence));
      out += ",\"description\":";
      appendJsonString(out, f.description);
      out += ",\"role\":";
      appendJsonString(out, f.role == Role::Predicate ? "predicate" : (f.role == Role::Step ? "step" : "value"));
      if (f.kind == K::Choice) {
        out += ",\"choices\":[";
        for (size_t i = 0; i < f.choices.size(); ++i) {
          if (i) out += ",";
          appendJsonString(out, f.choices[i]);
        }
        out += "]";
      }
      out += "}";
    }
    out += "]}";
  }
  out += "]";
  return out;
}

const OpSpec* findOp(std::string_view name) {
  for (const OpSpec& s : opTable())
    if (name == s.name) return &s;
  return nullptr;
}

const FieldSpec* findField(const OpSpec& spec, std::string_view name) {
  for (const FieldSpec& f : spec.fields)
    if (name == f.name) return &f;
  return nullptr;
}

int fieldIndex(const OpSpec& spec, std::string_view name) {
  for (size_t i = 0; i < spec.fields.size(); ++i)
    if (name == spec.fields[i].name) return static_cast<int>(i);
  return -1;
}

const char* fieldKindName(FieldKind kind) {
  switch (kind) {
    case K::Expr: return "expr";
    case K::ExprList: return "expr_list";
    case K::ExprFields: return "expr_fields";
    case K::Json: return "json";
    case K::Name:
    case K::ItemField: return "string";
    case K::FieldName: return "field";
    case K::Names: return "string_list";
    case K::Count: return "non_negative_integer";
    case K::Precision: return "precision";
    case K::Order: return "order";
    case K::SortKeys: return "sort_keys";
    case K::Percent: return "percent";
    case K::Method: return "percentile_method";
    case K::Choice: return "choice";
    case K::Text: return "text";
    case K::Iterations: return "iterations";
    case K::Key: return "string";
  }
  return "expr";
}

}  // namespace ptc
