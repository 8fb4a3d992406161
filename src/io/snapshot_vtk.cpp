// VTK XML PolyData frames of packings and their ParaView collection
// (include/granular/io/snapshot.hpp).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "granular/io/json_reader.hpp"
#include "granular/io/snapshot.hpp"
#include "granular/io/table.hpp"

namespace granular::io {
namespace {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the VTK files declare little-endian raw data and copy it from memory");

// The appended data of a file: each array a block of a UInt64 byte count and the raw values;
// `xml` collects the DataArray elements that point into it.
class Appended {
 public:
  template <class T>
  std::string array(const char* type, const char* name, int components, const std::vector<T>& v) {
    char head[200];
    std::snprintf(head, sizeof head,
                  "<DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" "
                  "format=\"appended\" offset=\"%zu\"/>\n",
                  type, name, components, data_.size());
    append(v);
    return head;
  }
  // a field-data array: VTK counts its tuples, not its components
  std::string field(const char* name, const std::vector<double>& v) {
    char head[200];
    std::snprintf(head, sizeof head,
                  "<DataArray type=\"Float64\" Name=\"%s\" NumberOfTuples=\"%zu\" "
                  "format=\"appended\" offset=\"%zu\"/>\n",
                  name, v.size(), data_.size());
    append(v);
    return head;
  }
  const std::string& data() const { return data_; }

 private:
  template <class T>
  void append(const std::vector<T>& v) {
    const std::uint64_t bytes = v.size() * sizeof(T);
    data_.append(reinterpret_cast<const char*>(&bytes), sizeof bytes);
    data_.append(reinterpret_cast<const char*>(v.data()), bytes);
  }

  std::string data_;
};

const char* const collection_tail = "  </Collection>\n</VTKFile>\n";

std::string collection_head() {
  return "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\" "
         "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n  <Collection>\n";
}

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CaseError(path.string(), "", "missing, the checkpoint needs it; cannot resume");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

std::string vtp_text(const md::PackingFrame& f) {
  const std::size_t n = f.x.size();
  // points: disk centres, contact points on walls, wall ends
  std::vector<double> points;
  std::vector<std::int64_t> disk, connectivity, offsets;
  std::vector<double> radius = f.radius, omega = f.omega, theta = f.theta, velocity;
  std::vector<std::int32_t> kind, wall;
  std::vector<double> normal, tangential;
  for (std::size_t i = 0; i < n; ++i) {
    points.insert(points.end(), {f.x[i], f.y[i], 0.0});
    velocity.insert(velocity.end(), {f.vx[i], f.vy[i], 0.0});
    disk.push_back(static_cast<std::int64_t>(i));
  }
  const auto add_point = [&](Vec2 r) {
    points.insert(points.end(), {r.x, r.y, 0.0});
    velocity.insert(velocity.end(), {0.0, 0.0, 0.0});
    disk.push_back(-1);
    radius.push_back(0.0);
    omega.push_back(0.0);
    theta.push_back(0.0);
    return static_cast<std::int64_t>(disk.size() - 1);
  };
  const auto add_line = [&](std::int64_t a, std::int64_t b, int k, int w, double fn, double ft) {
    connectivity.insert(connectivity.end(), {a, b});
    offsets.push_back(static_cast<std::int64_t>(connectivity.size()));
    kind.push_back(k);
    wall.push_back(w);
    normal.push_back(fn);
    tangential.push_back(ft);
  };
  for (const md::FrameContact& c : f.contacts) {
    if (c.b >= 0) {
      add_line(c.a, c.b, 0, -1, c.normal, c.tangential);
    } else {
      add_line(c.a, add_point(c.point), 1, c.wall, c.normal, c.tangential);
    }
  }
  for (const md::FrameWall& w : f.walls) {
    const std::int64_t a = add_point(w.from);
    add_line(a, add_point(w.to), 2, w.wall, 0.0, 0.0);
  }

  Appended data;
  std::string xml =
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"1.0\" "
      "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n<PolyData>\n<FieldData>\n";
  // the frame's time as VTK's readers take it from a lone file (ParaView's time of a .vtp)
  xml += data.field("TimeValue", {f.t});
  xml += "</FieldData>\n<Piece NumberOfPoints=\"" + std::to_string(disk.size()) +
         "\" NumberOfVerts=\"0\" NumberOfLines=\"" + std::to_string(kind.size()) +
         "\" NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n"
         "<PointData Scalars=\"radius\" Vectors=\"velocity\">\n";
  xml += data.array("Int64", "disk", 1, disk);
  xml += data.array("Float64", "radius", 1, radius);
  xml += data.array("Float64", "velocity", 3, velocity);
  xml += data.array("Float64", "omega", 1, omega);
  xml += data.array("Float64", "theta", 1, theta);
  xml += "</PointData>\n<CellData Scalars=\"normal_force\">\n";
  xml += data.array("Int32", "kind", 1, kind);
  xml += data.array("Int32", "wall", 1, wall);
  xml += data.array("Float64", "normal_force", 1, normal);
  xml += data.array("Float64", "tangential_force", 1, tangential);
  xml += "</CellData>\n<Points>\n";
  xml += data.array("Float64", "Points", 3, points);
  xml += "</Points>\n<Lines>\n";
  xml += data.array("Int64", "connectivity", 1, connectivity);
  xml += data.array("Int64", "offsets", 1, offsets);
  xml += "</Lines>\n</Piece>\n</PolyData>\n<AppendedData encoding=\"raw\">\n_";
  xml += data.data();
  xml += "\n</AppendedData>\n</VTKFile>\n";
  return xml;
}

VtkSeries::VtkSeries(const std::filesystem::path& dir, const std::string& stem,
                     std::optional<std::uint64_t> keep)
    : dir_(dir), stem_(stem), pvd_(dir / (stem + ".pvd")), entries_(collection_head()) {
  if (!keep) {
    // an empty collection from the start: a checkpoint before the first frame resumes too
    write_file_atomic(pvd_, entries_ + collection_tail);
    return;
  }
  // the entries up to the checkpoint, as the collection found holds them
  const std::string found = read_all(pvd_);
  if (*keep < entries_.size() || *keep > found.size() ||
      found.compare(0, entries_.size(), entries_) != 0 || found[*keep - 1] != '\n') {
    throw CaseError(pvd_.string(), "",
                    "does not hold the " + std::to_string(*keep) +
                        " bytes of entries the checkpoint recorded; cannot resume");
  }
  entries_ = found.substr(0, *keep);
  for (std::size_t at = entries_.find("<DataSet"); at != std::string::npos;
       at = entries_.find("<DataSet", at + 1)) {
    ++frames_;
  }
  write_file_atomic(pvd_, entries_ + collection_tail);
}

void VtkSeries::frame(const md::PackingFrame& f) {
  char number[16];
  std::snprintf(number, sizeof number, "_%06lld", static_cast<long long>(frames_));
  const std::string file = stem_ + number + ".vtp";
  write_file_atomic(dir_ / file, vtp_text(f));
  entries_ +=
      "    <DataSet timestep=\"" + round_trip(f.t) + "\" part=\"0\" file=\"" + file + "\"/>\n";
  ++frames_;
  write_file_atomic(pvd_, entries_ + collection_tail);
}

}  // namespace granular::io
