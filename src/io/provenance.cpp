#include "granular/io/provenance.hpp"

#include <unistd.h>

#include <ctime>
#include <mutex>

namespace granular::io {

namespace {

std::mutex& command_line_lock() {
  static std::mutex lock;
  return lock;
}

std::string& command_line() {
  static std::string line;
  return line;
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace

int vector_bits() {
#if defined(__AVX512F__)
  return 512;
#elif defined(__AVX2__) || defined(__AVX__)
  return 256;
#else
  return 128;
#endif
}

std::string version_line() {
  const BuildInfo& b = build_info();
  std::string line = "granular " + b.version + " (commit " + b.commit + ", " +
                     (b.native ? "native " + b.arch_flags : std::string("portable x86-64")) + ", " +
                     std::to_string(vector_bits()) + "-bit vectors";
  if (b.cuda) {
    line += ", CUDA";
    std::string archs = b.cuda_architectures;
    for (std::size_t k = 0; k <= archs.size();) {
      const std::size_t end = std::min(archs.find(';', k), archs.size());
      if (end > k) line += " sm_" + archs.substr(k, end - k);
      k = end + 1;
    }
  }
  if (b.mpi) line += ", MPI";
  return line + ", " + b.compiler + ", " + b.build_type + ")";
}

std::string shell_word(const std::string& word) {
  const bool safe = !word.empty() && word.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789_-./=:,+@%") == std::string::npos;
  if (safe) return word;
  std::string quoted = "'";
  for (const char ch : word) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return quoted + "'";
}

void set_command_line(const std::string& line) {
  // a --set value can be 128 KiB: the record keeps the start
  constexpr std::size_t most = 4096;
  const std::lock_guard<std::mutex> hold(command_line_lock());
  command_line() = line.size() <= most
                       ? line
                       : line.substr(0, most) + "... (" + std::to_string(line.size()) + " bytes)";
}

nlohmann::json provenance() {
  const BuildInfo& b = build_info();
  std::string line;
  {
    const std::lock_guard<std::mutex> hold(command_line_lock());
    line = command_line();
  }
  return {{"granular_version", b.version},
          {"commit", b.commit},
          {"build",
           {{"type", b.build_type},
            {"native", b.native},
            {"arch_flags", b.arch_flags},
            {"vector_bits", vector_bits()},
            {"cuda", b.cuda},
            {"cuda_architectures", b.cuda_architectures},
            {"mpi", b.mpi},
            {"compiler", b.compiler}}},
          {"host", host_name()},
          {"date", utc_now()},
          {"command_line", line}};
}

}  // namespace granular::io
