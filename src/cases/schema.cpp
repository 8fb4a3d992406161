#include "granular/cases/schema.hpp"

#include <algorithm>
#include <climits>
#include <map>
#include <stdexcept>
#include <vector>

#include "granular/cases/case.hpp"
#include "granular/cases/scan.hpp"
#include "granular/cases/shipped.hpp"
#include "granular/io/json_reader.hpp"
#include "granular/io/key_record.hpp"
#include "granular/io/suggest.hpp"

namespace granular::cases {

namespace {

using json = nlohmann::ordered_json;
using io::KeyKind;
using io::KeyRead;

// What the loads of one model's cases read of one key of one object.
struct KeyKnown {
  KeyRead read;
  int required_in = 0;  // loads that read it with no default, without asking has()
};

// ... of one object.
struct ObjectKnown {
  int loads = 0;                   // loads that read this object
  bool closed = false;             // allow_only was called on it
  std::vector<std::string> order;  // its keys: allow_only's order, then the others as read
  std::map<std::string, KeyKnown> keys;
};

using ModelKnown = std::map<std::string, ObjectKnown>;  // by io::schema_pointer

void add_key(ObjectKnown& o, const std::string& key) {
  if (std::find(o.order.begin(), o.order.end(), key) == o.order.end()) o.order.push_back(key);
}

void add_load(ModelKnown& known, const io::LoadRead& load) {
  for (const auto& [pointer, object] : load) {
    ObjectKnown& o = known[pointer];
    ++o.loads;
    if (object.allowed) {
      o.closed = true;
      for (const std::string& key : *object.allowed) add_key(o, key);
    }
    for (const auto& [key, read] : object.keys) {
      add_key(o, key);
      const auto [at, fresh] = o.keys.emplace(key, KeyKnown{read});
      if (!fresh) io::merge_key_read(at->second.read, read);
      if (read.required && !object.asked.count(key)) ++at->second.required_in;
    }
  }
}

// Every model's records, from loading each shipped case.
std::map<std::string, ModelKnown> record_shipped_cases() {
  std::map<std::string, ModelKnown> known;
  for (const ShippedCase& c : shipped_cases()) {
    io::KeyRecording recording;
    const LoadedCase lc = load_case_json(shipped_case_json(c), std::string(c.name) + ".json");
    for (const io::LoadRead& load : recording.loads) add_load(known[lc.model], load);
  }
  return known;
}

json leaf_schema(const KeyRead& r) {
  json s = json::object();
  switch (r.kind) {
    case KeyKind::number:
      s["type"] = "number";
      if (r.positive) s["exclusiveMinimum"] = 0;
      if (r.non_negative && !r.positive) s["minimum"] = 0;
      break;
    case KeyKind::integer:
      s["type"] = "integer";
      if (r.at_least != LLONG_MIN) s["minimum"] = r.at_least;
      break;
    case KeyKind::string:
      s["type"] = "string";
      break;
    case KeyKind::object:
      s["type"] = "object";
      break;
    case KeyKind::choice:
      s["enum"] = r.options;
      break;
    case KeyKind::any:
      break;
  }
  if (!r.fallback.is_null()) s["default"] = r.fallback;
  return s;
}

json object_schema(const ModelKnown& known, const std::string& pointer) {
  const ObjectKnown& o = known.at(pointer);
  json properties = json::object();
  json required = json::array();
  for (const std::string& key : o.order) {
    const std::string child = pointer + "/" + io::pointer_token(key);
    const auto read = o.keys.find(key);
    json s;
    if (known.count(child)) {
      s = object_schema(known, child);
    } else if (known.count(child + "/*")) {
      s = json{{"type", "array"}, {"items", object_schema(known, child + "/*")}};
    } else if (read != o.keys.end()) {
      s = leaf_schema(read->second.read);
    } else {
      s = json{{"description",
                "accepted; no shipped case reads it, so its type is not "
                "recorded (the loader checks it)"}};
    }
    properties[key] = s;
    if (read != o.keys.end() && read->second.required_in == o.loads) required.push_back(key);
  }
  json s{{"type", "object"}, {"properties", properties}};
  if (!required.empty()) s["required"] = required;
  if (o.closed) s["additionalProperties"] = false;
  return s;
}

json model_schema(const std::string& model, const ModelKnown& known) {
  json s = object_schema(known, "");
  s["title"] = model;
  s["properties"]["model"] = json{{"const", model}};
  s["properties"]["$schema"] =
      json{{"type", "string"}, {"description", "the schema an editor checks the case with"}};
  s["properties"]["scan"] = scan_schema();
  return s;
}

const char* const kDialect = "https://json-schema.org/draft/2020-12/schema";

std::string schema_description() {
  return std::string("granular ") + GRANULAR_VERSION +
         ": the case files' keys as the loaders read them (recorded from the shipped cases; "
         "granular validate checks what a schema cannot say, such as relations between keys)";
}

}  // namespace

json case_schema(const std::string& model) {
  std::vector<std::string> names;
  for (const Model& m : models()) names.push_back(m.name);
  if (!model.empty() && std::find(names.begin(), names.end(), model) == names.end())
    throw io::CaseError("", "schema",
                        "unknown model " + io::quoted(model) + io::did_you_mean(model, names) +
                            " (expected one of the models)");
  const std::map<std::string, ModelKnown> known = record_shipped_cases();
  const auto schema_of = [&](const std::string& name) {
    const auto it = known.find(name);
    if (it == known.end())
      throw std::logic_error("no shipped case records the keys of model " + name);
    return model_schema(name, it->second);
  };
  if (!model.empty()) {
    json s{{"$schema", kDialect}, {"description", schema_description()}};
    s.update(schema_of(model));
    return s;
  }
  json defs = json::object();
  json one_of = json::array();
  for (const std::string& name : names) {
    defs[name] = schema_of(name);
    one_of.push_back(json{{"$ref", "#/$defs/" + name}});
  }
  return json{{"$schema", kDialect},
              {"title", "granular case"},
              {"description", schema_description()},
              {"oneOf", one_of},
              {"$defs", defs}};
}

}  // namespace granular::cases
