// Files written through the operating system directly, so that every failure carries its reason
// ("out/energy.csv: cannot write: No space left on device"), whole files appear atomically
// (a temporary, fsync, rename, fsync of the folder) and a failed atomic write leaves nothing.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/io/file.hpp is host-only"
#endif

#include <cstdint>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>

namespace granular::io {

// A failed file operation; what() is "<path>: <what was tried>: <the OS's reason>".
class FileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A file written sequentially through a buffer. Every error throws FileError naming the file and
// the OS reason; the destructor closes without throwing (call close() to learn of errors).
class OutputFile {
 public:
  enum class Mode {
    create,  // a new, empty file (an existing one is truncated)
    append,  // writes go after the file's current end
  };

  OutputFile(const std::filesystem::path& path, Mode mode);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(const char* data, std::size_t n);
  void write(const std::string& text) { write(text.data(), text.size()); }
  // Hands the buffer to the OS, so that a full disk is found now rather than at close.
  void flush();
  // flush(), then fsync: the bytes are on the disk.
  void sync();
  // sync() and close; further writes are errors.
  void close();

  // Bytes in the file, the buffer included.
  std::uint64_t size() const { return size_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  [[noreturn]] void fail(const char* what) const;

  std::filesystem::path path_;
  int fd_ = -1;
  std::string buffer_;
  std::uint64_t size_ = 0;
};

// Writes a file atomically: `fill` writes its content into a temporary beside `path`, which is
// synced and renamed into place. On any failure the temporary is removed and FileError thrown.
void write_file_atomic(const std::filesystem::path& path,
                       const std::function<void(OutputFile&)>& fill);
void write_file_atomic(const std::filesystem::path& path, const std::string& text);

// Cuts the file at `path` to its first `bytes` bytes (FileError with the reason on failure).
void truncate_file(const std::filesystem::path& path, std::uint64_t bytes);

// Creates `dir` if needed and proves that files can be created, written and removed in it;
// throws FileError with the OS reason otherwise. A run calls it before computing anything.
void check_writable_folder(const std::filesystem::path& dir);

}  // namespace granular::io
