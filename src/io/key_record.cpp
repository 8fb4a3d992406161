#include "granular/io/key_record.hpp"

#include <algorithm>
#include <cctype>

namespace granular::io {

namespace {
thread_local KeyRecording* recording = nullptr;
}  // namespace

KeyRecording::KeyRecording() { recording = this; }
KeyRecording::~KeyRecording() { recording = nullptr; }

KeyRecording* active_key_recording() { return recording; }

std::string schema_pointer(const std::string& pointer) {
  std::string out;
  std::size_t start = 0;
  while (start < pointer.size()) {
    const std::size_t slash = pointer.find('/', start + 1);
    const std::string token = pointer.substr(
        start + 1, slash == std::string::npos ? std::string::npos : slash - start - 1);
    const bool index = !token.empty() && std::all_of(token.begin(), token.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c));
    });
    out += "/" + (index ? std::string("*") : token);
    if (slash == std::string::npos) break;
    start = slash;
  }
  return out;
}

void merge_key_read(KeyRead& into, const KeyRead& read) {
  into.kind = std::max(into.kind, read.kind);
  into.required = into.required && read.required;
  into.positive = into.positive || read.positive;
  into.non_negative = into.non_negative || read.non_negative;
  into.at_least = std::max(into.at_least, read.at_least);
  for (const std::string& o : read.options)
    if (std::find(into.options.begin(), into.options.end(), o) == into.options.end())
      into.options.push_back(o);
  if (into.fallback.is_null()) into.fallback = read.fallback;
}

}  // namespace granular::io
