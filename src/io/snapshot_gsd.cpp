// GSD trajectories of packings through the gsd library (include/granular/io/snapshot.hpp).
#include <gsd.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <string>
#include <system_error>
#include <vector>

#include "granular/io/file.hpp"
#include "granular/io/file_record.hpp"
#include "granular/io/json_reader.hpp"
#include "granular/io/snapshot.hpp"

namespace granular::io {

struct GsdTrajectory::Handle {
  gsd_handle gsd{};
  bool open = false;
};

namespace {

// One chunk of a frame as gsd_write_chunk takes it.
struct Chunk {
  const char* name;
  gsd_type type;
  std::uint64_t n;
  std::uint32_t m;
  std::vector<char> data;
};

template <class T>
Chunk chunk(const char* name, gsd_type type, std::uint32_t m, const std::vector<T>& v) {
  Chunk c{name, type, v.size() / m, m, {}};
  c.data.resize(v.size() * sizeof(T));
  std::memcpy(c.data.data(), v.data(), c.data.size());
  return c;
}

// The chunks of every frame, in the order they are written: a resumed trajectory copies them
// from the file found by these names.
constexpr const char* chunk_names[] = {
    "configuration/step",    "configuration/dimensions", "configuration/box",  "particles/N",
    "particles/types",       "particles/typeid",         "particles/diameter", "particles/position",
    "particles/orientation", "particles/velocity",       "log/Time",           "log/bottom_y",
    "log/particles/omega",   "log/particles/theta"};

std::vector<Chunk> frame_chunks(const md::PackingFrame& f) {
  const std::size_t n = f.x.size();
  // the types as the dump's (named "1", "2", ...; typeid counts from 0)
  const std::vector<double> radii = distinct_radii(f);
  std::vector<std::string> names;
  std::size_t width = 1;
  for (std::size_t k = 0; k < radii.size(); ++k) {
    names.push_back(std::to_string(k + 1));
    width = std::max(width, names.back().size() + 1);
  }
  std::vector<char> types(radii.size() * width, '\0');
  for (std::size_t k = 0; k < names.size(); ++k)
    std::memcpy(types.data() + k * width, names[k].data(), names[k].size());

  // HOOMD's box is centred on the origin: positions are relative to the box's centre
  const double cx = 0.5 * f.box_width;
  const double cy = 0.5 * (f.bottom_y + f.top);
  // the schema's particle and box data are float32 (each value rounded once from the double)
  const auto single = [](double v) { return static_cast<float>(v); };
  std::vector<std::uint32_t> typeid_(n);
  std::vector<float> diameter(n), position(3 * n), orientation(4 * n), velocity(3 * n);
  for (std::size_t i = 0; i < n; ++i) {
    typeid_[i] = static_cast<std::uint32_t>(radius_type(radii, f.radius[i]) - 1);
    diameter[i] = single(2.0 * f.radius[i]);
    position[3 * i] = single(f.x[i] - cx);
    position[3 * i + 1] = single(f.y[i] - cy);
    // the rotation by θ about z as a unit quaternion (w, x, y, z)
    orientation[4 * i] = single(std::cos(0.5 * f.theta[i]));
    orientation[4 * i + 3] = single(std::sin(0.5 * f.theta[i]));
    velocity[3 * i] = single(f.vx[i]);
    velocity[3 * i + 1] = single(f.vy[i]);
  }
  std::vector<Chunk> chunks;
  chunks.push_back(chunk("configuration/step", GSD_TYPE_UINT64, 1,
                         std::vector<std::uint64_t>{static_cast<std::uint64_t>(f.step)}));
  chunks.push_back(
      chunk("configuration/dimensions", GSD_TYPE_UINT8, 1, std::vector<std::uint8_t>{2}));
  // Lz = 0: a 2D box
  chunks.push_back(
      chunk("configuration/box", GSD_TYPE_FLOAT, 1,
            std::vector<float>{single(f.box_width), single(f.top - f.bottom_y), 0, 0, 0, 0}));
  chunks.push_back(chunk("particles/N", GSD_TYPE_UINT32, 1,
                         std::vector<std::uint32_t>{static_cast<std::uint32_t>(n)}));
  chunks.push_back(
      chunk("particles/types", GSD_TYPE_INT8, static_cast<std::uint32_t>(width), types));
  chunks.push_back(chunk("particles/typeid", GSD_TYPE_UINT32, 1, typeid_));
  chunks.push_back(chunk("particles/diameter", GSD_TYPE_FLOAT, 1, diameter));
  chunks.push_back(chunk("particles/position", GSD_TYPE_FLOAT, 3, position));
  chunks.push_back(chunk("particles/orientation", GSD_TYPE_FLOAT, 4, orientation));
  chunks.push_back(chunk("particles/velocity", GSD_TYPE_FLOAT, 3, velocity));
  chunks.push_back(chunk("log/Time", GSD_TYPE_DOUBLE, 1, std::vector<double>{f.t}));
  chunks.push_back(chunk("log/bottom_y", GSD_TYPE_DOUBLE, 1, std::vector<double>{f.bottom_y}));
  chunks.push_back(chunk("log/particles/omega", GSD_TYPE_DOUBLE, 1, f.omega));
  chunks.push_back(chunk("log/particles/theta", GSD_TYPE_DOUBLE, 1, f.theta));
  return chunks;
}

std::string reason(int code) {
  switch (code) {
    case GSD_ERROR_IO:
      return std::strerror(errno);
    case GSD_ERROR_MEMORY_ALLOCATION_FAILED:
      return "out of memory";
    case GSD_ERROR_NOT_A_GSD_FILE:
      return "not a GSD file";
    case GSD_ERROR_INVALID_GSD_FILE_VERSION:
      return "a GSD file version gsd cannot read";
    case GSD_ERROR_FILE_CORRUPT:
      return "a damaged GSD file";
    default:
      return "gsd error " + std::to_string(code);
  }
}

void check(int code, const std::filesystem::path& path) {
  if (code != GSD_SUCCESS) throw FileError(path.string() + ": cannot write: " + reason(code));
}

// The chunks, one frame, and the file flushed: after every frame the file is complete.
void write_frame(gsd_handle& h, const std::vector<Chunk>& chunks,
                 const std::filesystem::path& path) {
  for (const Chunk& c : chunks)
    check(gsd_write_chunk(&h, c.name, c.type, c.n, c.m, 0, c.data.data()), path);
  check(gsd_end_frame(&h), path);
  check(gsd_flush(&h), path);
}

void create(gsd_handle& h, const std::filesystem::path& path) {
  check(gsd_create_and_open(&h, path.c_str(), "granular " GRANULAR_VERSION, "hoomd",
                            gsd_make_version(1, 4), GSD_OPEN_READWRITE, 0),
        path);
}

}  // namespace

GsdTrajectory::GsdTrajectory(const std::filesystem::path& path, std::optional<Mark> keep)
    : path_(path), handle_(std::make_unique<Handle>()) {
  if (!keep) {
    create(handle_->gsd, path_);
    handle_->open = true;
    return;
  }
  const auto refuse = [&] {
    throw CaseError(path.string(), "",
                    "does not hold the " + std::to_string(keep->bytes) +
                        " bytes of frames the checkpoint recorded (cut, replaced or changed "
                        "since): cannot resume; run again without --resume");
  };
  gsd_handle found{};
  if (gsd_open(&found, path.c_str(), GSD_OPEN_READONLY) != GSD_SUCCESS) refuse();
  // the frames found, again through the same calls, until the file is as large as it was
  const std::filesystem::path tmp = path.string() + ".tmp";
  create(handle_->gsd, tmp);
  handle_->open = true;
  bool same = true;
  for (std::uint64_t k = 0; same && bytes() < keep->bytes && k < gsd_get_nframes(&found); ++k) {
    std::vector<Chunk> chunks;
    for (const char* name : chunk_names) {
      const gsd_index_entry* e = gsd_find_chunk(&found, k, name);
      if (e == nullptr) {
        same = false;
        break;
      }
      Chunk c{name, static_cast<gsd_type>(e->type), e->N, e->M, {}};
      c.data.resize(e->N * e->M * gsd_sizeof_type(c.type));
      if (gsd_read_chunk(&found, c.data.data(), e) != GSD_SUCCESS) {
        same = false;
        break;
      }
      chunks.push_back(std::move(c));
    }
    if (same) write_frame(handle_->gsd, chunks, tmp);
  }
  gsd_close(&found);
  same = same && bytes() == keep->bytes && file_checksum(tmp) == keep->checksum;
  if (!same) {
    gsd_close(&handle_->gsd);
    handle_->open = false;
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    refuse();
  }
  // the handle writes on into the file renamed
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw FileError(path.string() + ": cannot replace it: " + ec.message());
}

GsdTrajectory::~GsdTrajectory() {
  if (handle_ && handle_->open) gsd_close(&handle_->gsd);
}

void GsdTrajectory::frame(const md::PackingFrame& f) {
  write_frame(handle_->gsd, frame_chunks(f), path_);
}

std::uint64_t GsdTrajectory::bytes() const {
  struct stat st {};
  if (::fstat(handle_->gsd.fd, &st) != 0)
    throw FileError(path_.string() + ": cannot read its size: " + std::strerror(errno));
  return static_cast<std::uint64_t>(st.st_size);
}

void GsdTrajectory::close() {
  if (!handle_->open) return;
  handle_->open = false;
  check(gsd_close(&handle_->gsd), path_);
}

}  // namespace granular::io
