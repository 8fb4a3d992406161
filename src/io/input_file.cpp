#include "granular/io/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "granular/io/json_reader.hpp"

namespace granular::io {

namespace fs = std::filesystem;

namespace {

std::string kind_of(mode_t mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "not a regular file: a folder";
  if (S_ISFIFO(mode)) return "not a regular file: a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "not a regular file: a device";
  if (S_ISSOCK(mode)) return "not a regular file: a socket";
  return "not a regular file";
}

// Closes a descriptor on every way out.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string not_a_regular_file(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "missing";  // links followed
  return kind_of(st.st_mode);
}

std::string read_input_file(const fs::path& path, std::uint64_t max_bytes) {
  const std::string file = path.string();
  // O_NONBLOCK: opening a FIFO with no writer returns at once, and fstat then refuses it
  const Descriptor d{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (d.fd < 0) throw CaseError(file, "", std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(d.fd, &st) != 0)
    throw CaseError(file, "", std::string("cannot read: ") + std::strerror(errno));
  const std::string irregular = kind_of(st.st_mode);
  if (!irregular.empty()) throw CaseError(file, "", irregular);
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes)
    throw CaseError(file, "",
                    std::to_string(size) + " bytes, more than an input file may hold (" +
                        std::to_string(max_bytes) + ")");
  std::string bytes(static_cast<std::size_t>(size), '\0');
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::read(d.fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw CaseError(file, "", std::string("cannot read: ") + std::strerror(errno));
    if (n == 0) break;  // shrank since fstat: what is there
    got += static_cast<std::size_t>(n);
  }
  bytes.resize(got);
  return bytes;
}

}  // namespace granular::io
