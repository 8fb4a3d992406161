#include "granular/io/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace granular::io {
namespace {

constexpr std::size_t buffer_bytes = 1 << 20;

[[noreturn]] void fail_at(const std::filesystem::path& path, const std::string& what, int error) {
  throw FileError(path.string() + ": " + what + ": " + std::strerror(error));
}

// Writes all of [data, data + n) to fd, through partial writes and interrupts.
void write_all(int fd, const char* data, std::size_t n, const std::filesystem::path& path) {
  while (n > 0) {
    const ssize_t written = ::write(fd, data, n);
    if (written < 0) {
      if (errno == EINTR) continue;
      fail_at(path, "cannot write", errno);
    }
    data += written;
    n -= static_cast<std::size_t>(written);
  }
}

// Makes a rename in `dir` durable; file systems that cannot sync a folder are left as they are.
void sync_folder(const std::filesystem::path& dir) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  const int rc = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  if (rc != 0 && error != EINVAL && error != EROFS) fail_at(dir, "cannot sync the folder", error);
}

}  // namespace

OutputFile::OutputFile(const std::filesystem::path& path, Mode mode) : path_(path) {
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (mode == Mode::append ? O_APPEND : O_TRUNC);
  do {
    fd_ = ::open(path.c_str(), flags, 0644);
  } while (fd_ < 0 && errno == EINTR);
  if (fd_ < 0) fail_at(path, "cannot open for writing", errno);
  if (mode == Mode::append) {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
      const int error = errno;
      ::close(fd_);
      fd_ = -1;
      fail_at(path, "cannot read its size", error);
    }
    size_ = static_cast<std::uint64_t>(st.st_size);
  }
  buffer_.reserve(buffer_bytes);
}

OutputFile::~OutputFile() {
  if (fd_ < 0) return;
  try {
    flush();
  } catch (const FileError&) {
    // the owner did not close(): it is unwinding from an error of its own
  }
  ::close(fd_);
}

void OutputFile::fail(const char* what) const { fail_at(path_, what, errno); }

void OutputFile::write(const char* data, std::size_t n) {
  if (fd_ < 0) throw FileError(path_.string() + ": cannot write: the file is closed");
  size_ += n;
  if (buffer_.size() + n <= buffer_bytes) {
    buffer_.append(data, n);
    return;
  }
  flush();
  if (n >= buffer_bytes) {
    write_all(fd_, data, n, path_);
  } else {
    buffer_.append(data, n);
  }
}

void OutputFile::flush() {
  if (fd_ < 0 || buffer_.empty()) return;
  // the buffer is dropped even when the write fails: the file is broken either way, and a
  // destructor must not try again
  const std::string pending = std::move(buffer_);
  buffer_.clear();
  buffer_.reserve(buffer_bytes);
  write_all(fd_, pending.data(), pending.size(), path_);
}

void OutputFile::sync() {
  flush();
  if (fd_ >= 0 && ::fsync(fd_) != 0 && errno != EINVAL) fail("cannot sync");
}

void OutputFile::close() {
  if (fd_ < 0) return;
  sync();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && errno != EINTR) fail("cannot close");
}

void write_file_atomic(const std::filesystem::path& path,
                       const std::function<void(OutputFile&)>& fill) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  try {
    OutputFile out(tmp, OutputFile::Mode::create);
    fill(out);
    out.close();
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
      throw FileError(path.string() + ": cannot rename " + tmp.filename().string() +
                      " into place: " + ec.message());
    }
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw;
  }
  sync_folder(path.parent_path());
}

void write_file_atomic(const std::filesystem::path& path, const std::string& text) {
  write_file_atomic(path, [&](OutputFile& out) { out.write(text); });
}

void truncate_file(const std::filesystem::path& path, std::uint64_t bytes) {
  if (::truncate(path.c_str(), static_cast<off_t>(bytes)) != 0) fail_at(path, "cannot cut", errno);
}

void check_writable_folder(const std::filesystem::path& dir) {
  // the first folder of the path that does not exist yet: removed again if the check fails
  std::filesystem::path created;
  for (std::filesystem::path p = dir; !p.empty(); p = p.parent_path()) {
    std::error_code ec;
    if (std::filesystem::exists(p, ec)) break;
    created = p;
    if (p == p.parent_path()) break;
  }
  const auto undo = [&] {
    std::error_code ignored;
    if (!created.empty()) std::filesystem::remove_all(created, ignored);
  };
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    undo();
    throw FileError(dir.string() + ": cannot create the folder: " + ec.message());
  }
  // a probe file, written and synced: a read-only or full file system fails here
  const std::filesystem::path probe =
      dir / (".granular-write-test-" + std::to_string(static_cast<long>(::getpid())));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int error = fd < 0 ? errno : 0;
  if (fd >= 0) {
    if (::write(fd, "granular\n", 9) != 9 || ::fsync(fd) != 0) error = errno != 0 ? errno : EIO;
    if (::close(fd) != 0 && error == 0) error = errno;
    std::error_code ignored;
    std::filesystem::remove(probe, ignored);
  }
  if (error != 0) {
    undo();
    fail_at(dir, "cannot write files in it", error);
  }
}

}  // namespace granular::io
