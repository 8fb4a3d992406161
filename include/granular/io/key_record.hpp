// What a case's loader reads, key by key: while a KeyRecording lives on a thread, every
// JsonObject accessor (json_reader.hpp) reports the key it reads with its type, bound, choices
// and default, and every allow_only the keys it accepts. The case schema (cases/schema.hpp) is
// built from these records, so that it says what the loader checks and is written nowhere else.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/io/key_record.hpp is host-only"
#endif

#include <climits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace granular::io {

// From the least to the most specific: a later kind refines an earlier one.
enum class KeyKind { any, string, number, integer, object, choice };

// One key as the loader read it, within one load of a case.
struct KeyRead {
  explicit KeyRead(KeyKind kind_ = KeyKind::any, bool required_ = true)
      : kind(kind_), required(required_) {}

  KeyKind kind = KeyKind::any;
  bool required = true;              // read with no default and without asking has() first
  bool positive = false;             // numbers: > 0
  bool non_negative = false;         // numbers: >= 0
  long long at_least = LLONG_MIN;    // integers
  std::vector<std::string> options;  // choices
  nlohmann::json fallback;           // the default, null when none
};

// One object of a case as the loader read it.
struct ObjectRead {
  std::optional<std::vector<std::string>> allowed;  // allow_only's keys, in its order
  std::map<std::string, KeyRead> keys;
  std::set<std::string> asked;  // keys has() was asked about: optional
};

// One load of a case: its objects by JSON pointer, array indices written "*"
// ("/packing/species/*").
using LoadRead = std::map<std::string, ObjectRead>;

// Records the reads of the loads on this thread while it lives (not nested).
class KeyRecording {
 public:
  KeyRecording();
  ~KeyRecording();
  KeyRecording(const KeyRecording&) = delete;
  KeyRecording& operator=(const KeyRecording&) = delete;

  // One entry per case document read (a JsonObject of the document's root begins one).
  std::vector<LoadRead> loads;
};

// The recording of this thread, or null (for JsonObject's accessors).
KeyRecording* active_key_recording();

// `pointer` with its array indices as "*".
std::string schema_pointer(const std::string& pointer);

// Merges `read` into what is known of the key: the more specific kind, the stricter bound, the
// choices joined, required only when both are.
void merge_key_read(KeyRead& into, const KeyRead& read);

}  // namespace granular::io
