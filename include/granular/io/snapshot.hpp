// Snapshots of packings for OVITO and ParaView (docs/outputs.md, "snapshots/"): a frame of one
// packing (md::PackingFrame) appended to a LAMMPS text dump or a GSD trajectory, or written as
// one VTK XML PolyData file of a series that a ParaView collection (.pvd) lists. All continue a
// resumed run from what its checkpoint recorded, so that they end byte-identical to an
// uninterrupted run's.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/io/snapshot.hpp is host-only"
#endif

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "granular/io/file.hpp"
#include "granular/md/frame.hpp"

namespace granular::io {

// The disk types of the dump and the GSD file: a packing's distinct radii, ascending
// (snapshot_types.cpp), and the type of a disk of radius r, 1 + the rank of r among them.
std::vector<double> distinct_radii(const md::PackingFrame& f);
int radius_type(const std::vector<double>& radii, double r);

// A LAMMPS text dump (https://docs.lammps.org/dump.html, "custom" style) of one packing, one
// frame after the other: TIME the state's time, as `dump_modify time yes` writes it (before
// TIMESTEP), TIMESTEP the state's step, the box's x bounds the side walls, its lower y bound the
// bottom wall's height at the frame, its upper y bound the highest disk top, z ±(largest
// radius); atoms `id type radius x y vx vy omegaz theta`, id = disk index within the packing
// + 1, type = 1 + rank of the disk's radius among the packing's radii. No z column: OVITO reads
// a dump without one as a 2D cell.
class LammpsDump {
 public:
  // Creates the file, or, resuming, cuts it back to `keep` bytes (a line's end) and appends.
  LammpsDump(const std::filesystem::path& path, std::optional<std::uint64_t> keep);
  void frame(const md::PackingFrame& f);
  // Bytes written so far, handed to the OS first (a checkpoint records them).
  std::uint64_t bytes();
  void close() { file_.close(); }

 private:
  OutputFile file_;
};

// The VTK XML PolyData text of one frame (https://docs.vtk.org/en/latest/design_documents/
// VTKFileFormats.html): appended raw binary data, little-endian, UInt64 block headers. Field
// data: TimeValue, the frame's time (VTK's name for it, which ParaView shows). Points:
// the disks' centres (z = 0) in their order, then the contact points on walls, then the walls'
// end points. Point data: disk (index within the packing, −1 for other points), radius,
// velocity (3 components), omega, theta (0 for other points). Line cells: the disk–disk
// contacts (centre to centre), the disk–wall contacts (centre to the point on the wall), the
// walls; cell data: kind (0 disk–disk, 1 disk–wall, 2 wall), wall (its id, −1 for disk–disk),
// normal_force and tangential_force (0 for walls).
std::string vtp_text(const md::PackingFrame& f);

// A series of VTK frames of one packing: `<dir>/<stem>_<frame>.vtp` (frame numbered from 0,
// six digits) and the collection `<dir>/<stem>.pvd` listing them with their times, rewritten
// atomically after every frame. A checkpoint records the collection's size without its two
// closing lines; a resumed series starts from those bytes of the collection found.
class VtkSeries {
 public:
  VtkSeries(const std::filesystem::path& dir, const std::string& stem,
            std::optional<std::uint64_t> keep);
  void frame(const md::PackingFrame& f);
  // The bytes of the collection's entries so far, which a checkpoint records.
  std::uint64_t bytes() const { return entries_.size(); }
  const std::filesystem::path& collection() const { return pvd_; }

 private:
  std::filesystem::path dir_;
  std::string stem_;
  std::filesystem::path pvd_;
  std::string entries_;  // the collection's head and its DataSet lines
  std::int64_t frames_ = 0;
};

// A GSD trajectory of one packing (HOOMD-blue's format, schema "hoomd" 1.4, which every GSD
// reader takes; written by the gsd library), one frame after the other, each complete:
// configuration/step, dimensions = 2, box [Lx, Ly, 0, 0, 0, 0] = the dump's x and y extent;
// particles/N, types ("1", "2", ...: the dump's types), typeid, diameter, position (relative to
// the box's centre, as HOOMD's boxes are centred; z = 0), orientation (the rotation by θ about
// z), velocity, all float32 as the schema has them; log/Time (the frame's time, which GSD has no
// chunk for; OVITO's attribute Time, as the dump's TIME), log/bottom_y (the bottom wall's
// height), log/particles/omega and log/particles/theta, float64: the state's doubles.
//
// GSD rewrites its index and name list in place, so the file is no stream with a stable prefix:
// a checkpoint records the whole file's size and checksum (after every frame the file is
// flushed and complete), and a resumed trajectory writes the frames the file found holds again,
// chunk by chunk through the same calls, into a new file until it has that size, and goes on
// only if it has that checksum too.
class GsdTrajectory {
 public:
  struct Mark {
    std::uint64_t bytes;
    std::uint64_t checksum;
  };
  GsdTrajectory(const std::filesystem::path& path, std::optional<Mark> keep);
  ~GsdTrajectory();
  GsdTrajectory(const GsdTrajectory&) = delete;
  GsdTrajectory& operator=(const GsdTrajectory&) = delete;
  void frame(const md::PackingFrame& f);
  // The file's size, complete after the last frame (a checkpoint records it and its checksum).
  std::uint64_t bytes() const;
  void close();

 private:
  struct Handle;
  std::filesystem::path path_;
  std::unique_ptr<Handle> handle_;
};

}  // namespace granular::io
