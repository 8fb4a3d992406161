// Where a result comes from (docs/outputs.md, "Provenance"): the engine's version and git
// commit, how it was built (native or portable, the vector width, CUDA, MPI, compiler), the
// host, the date and the command line. summary.json carries it under "provenance";
// `granular --version` prints it.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include <nlohmann/json.hpp>
#include <string>

namespace granular::io {

// The build's settings, fixed when it was compiled (cmake/build_info.cmake writes the source).
struct BuildInfo {
  std::string version;  // the project's version
  std::string
      commit;  // git commit at build time, "-modified" with uncommitted changes, or "unknown"
  std::string build_type;          // CMake's build type (Release, Debug, ...)
  bool native;                     // built for the building machine's CPU (-march=native)
  std::string arch_flags;          // the target flags ("-march=native" or "")
  bool cuda;                       // the CUDA backend is in
  std::string cuda_architectures;  // its GPU architectures ("80;90"), "" without CUDA
  bool mpi;                        // the CLI runs over MPI ranks
  std::string compiler;            // "GNU 12.2.0"
};
const BuildInfo& build_info();

// The widest vector registers the host code was compiled for: 512 (AVX-512), 256 (AVX2), 128.
int vector_bits();

// One line: "granular 0.1.0 (commit 1a2b3c4d5e6f, portable x86-64, 128-bit vectors, CUDA sm_80
// sm_90, MPI, GNU 12.2.0, Release)".
std::string version_line();

// `word` as a POSIX shell reads it back: as it is when it holds only safe characters, else in
// single quotes.
std::string shell_word(const std::string& word);

// What started this process ("granular run cases/demo.json --out out/demo"), set once by the
// entry point (the CLI, the Python module); "" until then.
void set_command_line(const std::string& line);

// {"granular_version", "commit", "build": {...}, "host", "date" (UTC, ISO 8601),
// "command_line"}, as summary.json records it.
nlohmann::json provenance();

}  // namespace granular::io
