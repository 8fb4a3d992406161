#include "granular/io/checkpoint.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <type_traits>

#include "granular/io/checksum.hpp"
#include "granular/io/file.hpp"
#include "granular/io/file_record.hpp"
#include "granular/io/input_file.hpp"
#include "granular/io/json_reader.hpp"
#include "granular/md/reach.hpp"

namespace granular::io {
namespace {

using md::CellGrid;
using md::ContactSlot;
using md::EnsembleModel;
using md::EnsembleState;
using md::RotationStats;
using md::RunPosition;

constexpr char magic[8] = {'G', 'R', 'A', 'N', 'C', 'K', 'P', 'T'};
constexpr std::uint32_t version = 7;  // 7: XXH64 checksums (io/checksum.hpp)

// The element sizes a file must agree on: a build with another layout reads garbage otherwise.
constexpr std::uint32_t layout[] = {sizeof(double), sizeof(ContactSlot), sizeof(CellGrid),
                                    sizeof(RotationStats)};

static_assert(std::is_trivially_copyable_v<ContactSlot> && std::is_trivially_copyable_v<CellGrid> &&
                  std::is_trivially_copyable_v<RotationStats>,
              "checkpoints store these as raw bytes");

// Writes plain values and arrays into a file, summing every byte for the trailing checksum.
class Writer {
 public:
  explicit Writer(io::OutputFile& out) : out_(out) {}
  template <class T>
  void value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    raw(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void text(const std::string& s) {
    value(static_cast<std::uint64_t>(s.size()));
    raw(s.data(), s.size());
  }
  template <class T, class Allocator>
  void array(const std::vector<T, Allocator>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    value(static_cast<std::uint64_t>(v.size()));
    raw(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  void raw(const char* data, std::size_t n) {
    sum_.add(data, n);
    out_.write(data, n);
  }
  // The checksum of everything written, itself written last.
  void checksum() {
    const std::uint64_t sum = sum_.value();
    out_.write(reinterpret_cast<const char*>(&sum), sizeof sum);
  }

 private:
  io::OutputFile& out_;
  io::Checksum sum_;
};

// Reads plain values and arrays back; every shortfall is an error naming the file.
class Reader {
 public:
  Reader(const std::filesystem::path& path, std::uint64_t max_bytes) : path_(path) {
    // a regular file, read whole (a FIFO or a link to a device is refused, never waited on)
    const std::string irregular = io::not_a_regular_file(path);
    if (irregular == "missing") fail("no checkpoint (cannot open: No such file or directory)");
    if (irregular == "not a regular file: a folder") fail("is a folder, not a checkpoint");
    if (!irregular.empty()) fail(irregular + ", not a checkpoint");
    bytes_ = io::read_input_file(path, max_bytes);
  }

  // Compares the trailing checksum with the bytes before it, which are then all that is read.
  void verify_checksum() {
    std::uint64_t stored = 0;
    if (bytes_.size() < sizeof stored) fail("truncated checkpoint (the file ends early)");
    const std::size_t body = bytes_.size() - sizeof stored;
    std::memcpy(&stored, bytes_.data() + body, sizeof stored);
    io::Checksum sum;
    sum.add(bytes_.data(), body);
    if (sum.value() != stored) {
      fail("damaged or truncated checkpoint (its checksum does not match its contents)");
    }
    bytes_.resize(body);
  }

  // A checkpoint that cannot be resumed is bad input: one line naming the file (exit 2).
  [[noreturn]] void fail(const std::string& what) const {
    throw io::CaseError(path_.string(), "", what);
  }

  const char* take(std::size_t n) {
    if (n > bytes_.size() - pos_) fail("truncated checkpoint (the file ends early)");
    const char* p = bytes_.data() + pos_;
    pos_ += n;
    return p;
  }
  template <class T>
  T value() {
    T v;
    std::memcpy(&v, take(sizeof v), sizeof v);
    return v;
  }
  std::string text() {
    const auto n = value<std::uint64_t>();
    if (n > bytes_.size()) fail("truncated checkpoint (the file ends early)");
    return std::string(take(n), n);
  }
  std::vector<double> numbers() {
    const auto n = value<std::uint64_t>();
    if (n > bytes_.size() / sizeof(double)) fail("truncated checkpoint (the file ends early)");
    std::vector<double> v(n);
    for (double& x : v) x = value<double>();
    return v;
  }
  std::vector<StreamSize> streams() {
    const auto n = value<std::uint64_t>();
    // each entry takes at least a length, a size and a checksum
    if (n > bytes_.size() / (3 * sizeof(std::uint64_t)))
      fail("truncated checkpoint (the file ends early)");
    std::vector<StreamSize> v(n);
    for (StreamSize& s : v) {
      s.name = text();
      s.bytes = value<std::uint64_t>();
      s.checksum = value<std::uint64_t>();
    }
    return v;
  }
  // Fills `v`, whose size the model fixes; a different count in the file is an error.
  template <class T, class Allocator>
  void array(const char* name, std::vector<T, Allocator>& v) {
    const auto n = value<std::uint64_t>();
    if (n != v.size()) {
      fail(std::string("array ") + name + " has " + std::to_string(n) +
           " elements, the case needs " + std::to_string(v.size()) + " (made by a different case)");
    }
    const char* bytes = take(n * sizeof(T));
    if (n > 0) std::memcpy(static_cast<void*>(v.data()), bytes, n * sizeof(T));
  }
  bool at_end() const { return pos_ == bytes_.size(); }

 private:
  std::filesystem::path path_;
  std::string bytes_;
  std::size_t pos_ = 0;
};

// Checks the file's identity and checksum, then reads the header.
CheckpointHeader read_header(Reader& in) {
  if (std::memcmp(in.take(sizeof magic), magic, sizeof magic) != 0) {
    in.fail("not a granular checkpoint");
  }
  const auto v = in.value<std::uint32_t>();
  if (v != version) {
    in.fail("checkpoint version " + std::to_string(v) + ", this build reads version " +
            std::to_string(version));
  }
  in.verify_checksum();
  for (std::uint32_t size : layout) {
    if (in.value<std::uint32_t>() != size) in.fail("written by a build with other data layouts");
  }
  CheckpointHeader h;
  h.fingerprint = in.text();
  h.backend = in.text();
  h.streams = in.streams();
  RunPosition& p = h.position;
  p.phase = in.value<int>();
  p.phase_steps_left = in.value<std::int64_t>();
  p.steps_done = in.value<std::int64_t>();
  p.particle_steps = in.value<double>();
  p.advance_time_s = in.value<double>();
  p.wall_time_s = in.value<double>();
  if (p.phase < 0 || p.phase > 2 || p.phase_steps_left < 0 || p.steps_done < 0) {
    in.fail("damaged checkpoint (run position out of range)");
  }
  // the counts and times of the run so far: finite, not negative
  for (const double v : {p.particle_steps, p.advance_time_s, p.wall_time_s})
    if (!(v >= 0.0 && std::isfinite(v)))
      in.fail("damaged checkpoint (particle-steps or times of the run are not numbers >= 0)");
  h.gammas = in.numbers();
  for (const double gamma : h.gammas)
    if (!(gamma >= 0.0 && std::isfinite(gamma)))
      in.fail("damaged checkpoint (its drive is not a finite Γ >= 0 for every packing)");
  return h;
}

}  // namespace

void write_checkpoint(const std::filesystem::path& path, const CheckpointHeader& header,
                      const EnsembleState& s, const std::vector<RotationStats>& rotation) {
  io::write_file_atomic(path, [&](io::OutputFile& file) {
    Writer out(file);
    out.raw(magic, sizeof magic);
    out.value(version);
    for (std::uint32_t size : layout) out.value(size);
    out.text(header.fingerprint);
    out.text(header.backend);
    out.value(static_cast<std::uint64_t>(header.streams.size()));
    for (const StreamSize& s : header.streams) {
      out.text(s.name);
      out.value(s.bytes);
      out.value(s.checksum);
    }
    const RunPosition& p = header.position;
    out.value(p.phase);
    out.value(p.phase_steps_left);
    out.value(p.steps_done);
    out.value(p.particle_steps);
    out.value(p.advance_time_s);
    out.value(p.wall_time_s);
    out.array(header.gammas);

    // the state, then the rotation accumulators
    out.value(s.step);
    out.value(s.t0);
    md::for_each_state_array(s, s, [&](const auto& v, const auto&, const char*) { out.array(v); });
    out.array(rotation);
    out.raw(magic, sizeof magic);
    out.checksum();
  });
}

CheckpointHeader read_checkpoint_header(const std::filesystem::path& path) {
  // no model to size it by: the state of 10⁷ disks at a few kB each
  Reader in(path, std::uint64_t{1} << 36);
  return read_header(in);
}

EnsembleCheckpoint read_checkpoint(const std::filesystem::path& path, const EnsembleModel& m,
                                   const std::string& fingerprint) {
  // arrays sized as the model needs them, then filled from the file, which holds them and a
  // header (the case echo, at most a case file's size, and the streams' names)
  const std::vector<double> zeros(m.n_disks(), 0.0);
  EnsembleCheckpoint c;
  md::EnsembleState& state = c.point.state;
  std::vector<RotationStats>& rotation = c.point.rotation;
  state = md::make_state(m, zeros, zeros, 0.0);
  std::uint64_t state_bytes = 0;
  md::for_each_state_array(state, state, [&](const auto& v, const auto&, const char*) {
    state_bytes += sizeof(std::uint64_t) + v.size() * sizeof(v[0]);
  });
  const std::uint64_t header_bytes = 2 * max_document_bytes + (std::uint64_t{1} << 20);
  Reader in(path, header_bytes + state_bytes +
                      static_cast<std::uint64_t>(m.n_disks()) * sizeof(RotationStats) +
                      (static_cast<std::uint64_t>(m.n_packings()) + 64) * sizeof(double));
  c.header = read_header(in);
  if (c.header.fingerprint != fingerprint) in.fail("made by a different case");
  state.step = in.value<std::int64_t>();
  state.t0 = in.value<double>();
  md::for_each_state_array(state, state,
                           [&](auto& v, const auto&, const char* name) { in.array(name, v); });
  rotation.resize(m.n_disks());
  in.array("rotation", rotation);
  if (std::memcmp(in.take(sizeof magic), magic, sizeof magic) != 0 || !in.at_end()) {
    in.fail("damaged checkpoint (bad end marker)");
  }
  // the drive it ran with is the model's (Python's Ensemble applies a checkpoint's first)
  if (c.header.gammas.size() != static_cast<std::size_t>(m.n_packings()))
    in.fail("its drive has " + std::to_string(c.header.gammas.size()) + " packings, the case " +
            std::to_string(m.n_packings()) + " (made by a different case)");
  for (int p = 0; p < m.n_packings(); ++p)
    if (c.header.gammas[p] != m.packings[p].gamma)
      in.fail("packing " + std::to_string(p) +
              " ran with Γ = " + io::format_number(c.header.gammas[p]) + ", the case has " +
              io::format_number(m.packings[p].gamma) + " (made by a different case)");

  if (state.step != c.header.position.steps_done) {
    in.fail("damaged checkpoint (state step and run position disagree)");
  }
  // every index a step follows, checked: a checkpoint that passes its checksum but was not
  // written by this case's run must not send a step out of bounds
  const std::string defect = md::state_defect(m, state);
  if (!defect.empty()) in.fail("damaged checkpoint (" + defect + ")");
  // numbers a healthy packing cannot hold (a writer's bug rather than a disk's)
  const std::string impossible = md::state_impossible(m, state);
  if (!impossible.empty()) in.fail("damaged checkpoint (" + impossible + ")");
  const RunPosition& position = c.header.position;
  if (position.particle_steps > static_cast<double>(position.steps_done) * m.n_disks())
    in.fail("damaged checkpoint (more particle-steps than its steps and disks make)");
  for (std::size_t i = 0, p = 0; i < rotation.size(); ++i) {
    while (static_cast<int>(i) >= m.offset[p + 1]) ++p;  // disk i's packing
    const RotationStats& r = rotation[i];
    // one sample per chunk at most, and the first at the measurement's start
    if (r.count < 0 || r.count > position.steps_done + 1)
      in.fail("damaged checkpoint (rotation[" + std::to_string(i) + "] counts " +
              std::to_string(r.count) + " samples after " + std::to_string(position.steps_done) +
              " steps)");
    if (state.status[p] != md::status_ok) continue;
    for (const double v : {r.t_first, r.theta_first, r.t_last, r.theta_last, r.mean_tau, r.mean_phi,
                           r.m2_tau, r.m2_phi, r.c_tau_phi, r.mean_rate, r.m2_rate})
      if (!std::isfinite(v))
        in.fail("damaged checkpoint (rotation[" + std::to_string(i) +
                "] of a healthy packing holds a non-finite number)");
  }
  // and finite numbers beyond what the case's drive and gravity can give (md/reach.hpp)
  for (const std::string& beyond :
       {md::state_beyond_reach(m, state), md::rotation_beyond_reach(m, state, rotation)})
    if (!beyond.empty()) in.fail("damaged checkpoint (" + beyond + ")");
  c.point.position = c.header.position;
  return c;
}

}  // namespace granular::io
