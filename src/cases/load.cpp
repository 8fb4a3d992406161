#include <algorithm>
#include <cctype>
#include <filesystem>

#include "granular/cases/case.hpp"
#include "granular/cases/scan.hpp"
#include "granular/cases/shipped.hpp"
#include "granular/io/suggest.hpp"
#include "granular/md/backend.hpp"

namespace granular::cases {

using io::CaseError;
using io::excerpt;
using io::is_valid_utf8;
using io::JsonObject;
using io::pointer_token;

namespace {

// Splits an override "/a/b=value" into its pointer tokens and value.
struct ParsedOverride {
  std::string pointer;
  std::vector<std::string> tokens;
  nlohmann::json value;
};

ParsedOverride parse_override(const std::string& text) {
  const std::string where = "--set " + excerpt(text);
  // a file's strings are checked by the JSON parser; a command line's are not
  if (!is_valid_utf8(text)) throw CaseError("", where, "not valid UTF-8");
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos) throw CaseError("", where, "expected /json/pointer=value");
  ParsedOverride o;
  o.pointer = text.substr(0, eq);
  if (o.pointer.size() < 2 || o.pointer[0] != '/')
    throw CaseError("", where, "the pointer must start with \"/\" and name a key");
  // tokens, with RFC 6901 escapes
  std::size_t start = 1;
  while (true) {
    const std::size_t slash = o.pointer.find('/', start);
    const std::string raw = o.pointer.substr(start, slash - start);
    std::string token;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '~') {
        token += raw[i];
      } else if (i + 1 < raw.size() && (raw[i + 1] == '0' || raw[i + 1] == '1')) {
        token += raw[++i] == '0' ? '~' : '/';
      } else {
        throw CaseError("", where, "bad escape in the pointer (use ~0 for ~ and ~1 for /)");
      }
    }
    if (token.empty()) throw CaseError("", where, "empty key in the pointer");
    o.tokens.push_back(token);
    if (o.tokens.size() >= static_cast<std::size_t>(io::max_json_depth))
      throw CaseError("", where,
                      "the pointer is nested deeper than a case may be (" +
                          std::to_string(io::max_json_depth) + " levels)");
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  // the value: JSON if it parses, else a string; with the pointer's levels, no deeper than a
  // case may nest
  const std::string value = text.substr(eq + 1);
  io::JsonParse parsed =
      io::parse_json(value, io::max_json_depth - static_cast<int>(o.tokens.size()));
  if (parsed.too_deep)
    throw CaseError("", where,
                    "the value nests deeper than a case may (" +
                        std::to_string(io::max_json_depth) + " levels with the pointer's)");
  if (parsed.ok) {
    o.value = std::move(parsed.doc);
  } else if (parsed.out_of_range) {
    throw CaseError("", where, "the number is out of the range of a double");
  } else {
    o.value = value;
  }
  return o;
}

// Index of an array element addressed by a pointer token; npos when not a plain index.
std::size_t array_index(const std::string& token) {
  if (token.empty() || token.size() > 9 ||
      !std::all_of(token.begin(), token.end(),
                   [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }) ||
      (token.size() > 1 && token[0] == '0'))
    return std::string::npos;
  return static_cast<std::size_t>(std::stoul(token));
}

// True when the pointers name the same value or one lies inside the other.
bool related(const std::string& a, const std::string& b) {
  const auto inside = [](const std::string& outer, const std::string& inner) {
    return inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 &&
           inner[outer.size()] == '/';
  };
  return a == b || inside(a, b) || inside(b, a);
}

}  // namespace

void Case::check_run(const RunContext& ctx) const {
  if (ctx.request.resume)
    throw CaseError("", "--resume", "only packing_ensemble runs write checkpoints");
  if (ctx.request.backend != "cpu")
    throw CaseError("", "--backend " + ctx.request.backend,
                    "only packing_ensemble runs offer a backend choice; this model runs on the "
                    "CPU");
  if (ctx.request.packings)
    throw CaseError("", "--packings", "only packing_ensemble runs split into shards");
}

void check_backend(const RunRequest& request) {
  if (request.backend != "cpu" && request.backend != "cuda")
    throw CaseError("", "--backend", "expected cpu or cuda, got " + io::quoted(request.backend));
  if (request.backend == "cuda" && !md::cuda_device_available())
    throw CaseError("", "--backend cuda",
                    "no CUDA device is available: " + md::cuda_unavailable_reason());
}

void Case::estimate(const RunContext&, Description& d) const {
  d.out << "estimate: none for this model (its runs take seconds to minutes)\n";
}

void apply_override(nlohmann::json& doc, const std::string& override_text,
                    const std::string& file) {
  const ParsedOverride o = parse_override(override_text);
  const std::string note = " (--set " + excerpt(override_text) + ")";
  // walk to the parent, creating missing objects (validation rejects keys the schema lacks)
  nlohmann::json* at = &doc;
  std::string walked;
  for (std::size_t i = 0; i + 1 < o.tokens.size(); ++i) {
    const std::string& t = o.tokens[i];
    if (at->is_object()) {
      if (!at->contains(t)) (*at)[t] = nlohmann::json::object();
      at = &(*at)[t];
    } else if (at->is_array()) {
      const std::size_t k = array_index(t);
      if (k == std::string::npos || k >= at->size())
        throw CaseError(file, walked + "/" + pointer_token(t), "no such array element" + note);
      at = &(*at)[k];
    } else {
      throw CaseError(file, walked.empty() ? "/" : walked,
                      "is not an object or array, cannot hold \"" + t + "\"" + note);
    }
    walked += "/" + pointer_token(t);
  }
  // set (or remove, for null) the last key
  const std::string& last = o.tokens.back();
  if (at->is_object()) {
    if (o.value.is_null())
      at->erase(last);
    else
      (*at)[last] = o.value;
  } else if (at->is_array()) {
    const std::size_t k = array_index(last);
    if (k == std::string::npos || k > at->size())
      throw CaseError(file, o.pointer, "no such array element" + note);
    if (o.value.is_null()) {
      if (k < at->size()) at->erase(k);
    } else if (k == at->size()) {
      at->push_back(o.value);
    } else {
      (*at)[k] = o.value;
    }
  } else {
    throw CaseError(file, walked, "is not an object or array, cannot hold \"" + last + "\"" + note);
  }
}

LoadedCase load_case_json(nlohmann::json doc, const std::string& file,
                          const std::vector<std::string>& overrides) {
  for (const std::string& o : overrides) apply_override(doc, o, file);
  // the schema a case names for its editor ("$schema": granular schema's output) is no key of
  // the case
  if (doc.is_object() && doc.contains("$schema")) {
    if (!doc["$schema"].is_string()) throw CaseError(file, "/$schema", "must be a string");
    doc.erase("$schema");
  }
  try {
    // a scan: the same case at every combination of the scanned keys' values (scan.hpp)
    if (doc.is_object() && doc.contains("scan")) {
      nlohmann::json base = doc;
      const nlohmann::json scan = base["scan"];
      base.erase("scan");
      LoadedCase out;
      out.spec = load_scan(base, file, scan);
      out.path = file;
      out.model = base.value("model", std::string());
      out.echo = std::move(doc);
      return out;
    }
    const JsonObject root(doc, file, "");
    std::vector<std::string> names;
    for (const Model& m : models()) names.push_back(m.name);
    const std::string model = root.choice("model", names, "model");
    LoadedCase out;
    for (const Model& m : models()) {
      if (model == m.name) out.spec = m.load(root, out.notes);
    }
    out.path = file;
    out.model = model;
    out.echo = std::move(doc);
    return out;
  } catch (const CaseError& e) {
    // an error at a value an override touched says so
    for (auto it = overrides.rbegin(); it != overrides.rend(); ++it) {
      const std::string pointer = it->substr(0, it->find('='));
      if (!e.pointer().empty() && related(e.pointer(), pointer))
        throw CaseError(e.file(), e.pointer(), e.detail() + " (--set " + excerpt(*it) + ")");
    }
    throw;
  }
}

LoadedCase load_case(const std::string& path, const std::vector<std::string>& overrides) {
  // a shipped case by its name where no file of that name is: `granular run demo_sweep`
  std::error_code missing;
  const bool plain_name = path.find('/') == std::string::npos && !path.empty();
  if (plain_name && !std::filesystem::exists(path, missing)) {
    const ShippedCase* shipped = find_shipped_case(path);
    if (!shipped)
      throw CaseError(path, "",
                      "no such file, and no shipped case of that name" +
                          io::did_you_mean(path, shipped_case_names()) +
                          " (granular cases lists them)");
    return load_case_json(shipped_case_json(*shipped), path, overrides);
  }
  return load_case_json(io::read_json_file(path, io::max_document_bytes), path, overrides);
}

}  // namespace granular::cases
