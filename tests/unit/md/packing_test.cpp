// Tests for md/packing.cpp: the advancing-front packing constructor (spec
// thesis-packings-ch2-3.md §2).
#include "granular/md/packing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

namespace granular::md {
namespace {

constexpr double pi = 3.141592653589793238462643383280;
constexpr double thesis_width = 0.40;  // [m], about 10 mean diameters (spec §1)
constexpr double contact_gap = 1e-9;   // [m], a contact is closer than this

// the thesis set: 20 disks each of radius 1.5, 2.0 and 2.5 cm (spec §1)
std::vector<double> thesis_radii() {
  std::vector<double> radii;
  for (const double r : {0.015, 0.020, 0.025}) radii.insert(radii.end(), 20, r);
  return radii;
}

// radii uniform in [0.015, 0.025] m from the raw mt19937_64 stream, which the standard fixes
std::vector<double> polydisperse_radii(int n) {
  std::mt19937_64 engine(12345);
  std::vector<double> radii(n);
  for (auto& r : radii) r = 0.015 + 0.010 * static_cast<double>(engine() >> 11) * 0x1.0p-53;
  return radii;
}

// pairs (i, j), i < j, whose gap is below `gap` [m], by a sweep over x
std::vector<std::pair<int, int>> close_pairs(const PackingLayout& p,
                                             const std::vector<double>& radii, double gap) {
  const int n = static_cast<int>(radii.size());
  const double r_max = *std::max_element(radii.begin(), radii.end());
  std::vector<int> by_x(n);
  std::iota(by_x.begin(), by_x.end(), 0);
  std::sort(by_x.begin(), by_x.end(), [&](int a, int b) { return p.x[a] < p.x[b]; });
  std::vector<std::pair<int, int>> pairs;
  for (int s = 0; s < n; ++s) {
    const int i = by_x[s];
    for (int t = s + 1; t < n && p.x[by_x[t]] - p.x[i] <= 2.0 * r_max + gap; ++t) {
      const int j = by_x[t];
      const double d = std::hypot(p.x[i] - p.x[j], p.y[i] - p.y[j]);
      if (d - (radii[i] + radii[j]) < gap) pairs.emplace_back(std::min(i, j), std::max(i, j));
    }
  }
  return pairs;
}

// every disk inside the box: R <= x <= W - R, y >= R
void expect_inside_box(const PackingLayout& p, const std::vector<double>& radii, double width) {
  ASSERT_EQ(p.x.size(), radii.size());
  ASSERT_EQ(p.y.size(), radii.size());
  for (std::size_t i = 0; i < radii.size(); ++i) {
    EXPECT_GE(p.x[i], radii[i]) << "disk " << i;
    EXPECT_LE(p.x[i], width - radii[i]) << "disk " << i;
    EXPECT_GE(p.y[i], radii[i] - 1e-12) << "disk " << i;
  }
}

// no pair closer than R_i + R_j - 1e-9
void expect_no_overlap(const PackingLayout& p, const std::vector<double>& radii) {
  for (const auto& [i, j] : close_pairs(p, radii, 0.0)) {
    const double d = std::hypot(p.x[i] - p.x[j], p.y[i] - p.y[j]);
    EXPECT_GE(d, radii[i] + radii[j] - 1e-9) << "disks " << i << " and " << j;
  }
}

// every disk rests: it touches the bottom, or two of the elements it touches (disks, side
// walls) have contact normals whose cone holds the upward vertical, so both contact points are
// never above its centre and two repulsive forces can carry its weight
void expect_all_resting(const PackingLayout& p, const std::vector<double>& radii, double width) {
  const int n = static_cast<int>(radii.size());
  std::vector<std::vector<std::pair<double, double>>> normals(n);
  for (int i = 0; i < n; ++i) {
    if (p.x[i] - radii[i] < contact_gap) normals[i].emplace_back(1.0, 0.0);
    if (width - radii[i] - p.x[i] < contact_gap) normals[i].emplace_back(-1.0, 0.0);
  }
  for (const auto& [i, j] : close_pairs(p, radii, contact_gap)) {
    const double dx = p.x[i] - p.x[j];
    const double dy = p.y[i] - p.y[j];
    const double d = std::hypot(dx, dy);
    normals[i].emplace_back(dx / d, dy / d);
    normals[j].emplace_back(-dx / d, -dy / d);
  }
  int floating = 0;
  for (int i = 0; i < n; ++i) {
    if (p.y[i] - radii[i] < contact_gap) continue;
    bool rests = false;
    for (std::size_t a = 0; a < normals[i].size() && !rests; ++a) {
      for (std::size_t b = a + 1; b < normals[i].size() && !rests; ++b) {
        auto u = normals[i][a];
        auto v = normals[i][b];
        if (u.first * v.second - u.second * v.first < 0.0) std::swap(u, v);
        rests =
            u.first * v.second - u.second * v.first > 1e-9 && u.first >= -1e-6 && v.first <= 1e-6;
      }
    }
    // report the first few only: a broken packing has thousands
    if (!rests && ++floating <= 5) {
      ADD_FAILURE() << "disk " << i << " at (" << p.x[i] << ", " << p.y[i] << ") with "
                    << normals[i].size() << " contacts does not rest";
    }
  }
  EXPECT_EQ(floating, 0) << "disks that do not rest";
}

// disk area over the box area up to the highest disk top
double area_fraction(const PackingLayout& p, const std::vector<double>& radii, double width) {
  double area = 0.0;
  double top = 0.0;
  for (std::size_t i = 0; i < radii.size(); ++i) {
    area += pi * radii[i] * radii[i];
    top = std::max(top, p.y[i] + radii[i]);
  }
  return area / (width * top);
}

TEST(PackingThesisSet, InsideBoxWithoutOverlapsAndResting) {
  const auto radii = thesis_radii();
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    SCOPED_TRACE(seed);
    const PackingLayout p = advancing_front(radii, thesis_width, seed);
    expect_inside_box(p, radii, thesis_width);
    expect_no_overlap(p, radii);
    expect_all_resting(p, radii, thesis_width);
  }
}

TEST(PackingThesisSet, IsDense) {
  // 2D random packings reach about 0.8; the ragged top of a 6-layer packing costs some of it:
  // seeds 0-199 give 0.69 to 0.76 (mean 0.73)
  const auto radii = thesis_radii();
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    SCOPED_TRACE(seed);
    EXPECT_GT(area_fraction(advancing_front(radii, thesis_width, seed), radii, thesis_width), 0.65);
  }
}

TEST(PackingDeterminism, SameSeedGivesBitwiseIdenticalLayout) {
  const auto radii = thesis_radii();
  const PackingLayout a = advancing_front(radii, thesis_width, 42);
  const PackingLayout b = advancing_front(radii, thesis_width, 42);
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.y, b.y);
}

TEST(PackingDeterminism, DifferentSeedsGiveDifferentLayouts) {
  const auto radii = thesis_radii();
  std::vector<PackingLayout> layouts;
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    layouts.push_back(advancing_front(radii, thesis_width, seed));
  }
  for (std::size_t a = 0; a < layouts.size(); ++a) {
    for (std::size_t b = a + 1; b < layouts.size(); ++b) {
      EXPECT_NE(layouts[a].x, layouts[b].x) << "seeds " << a << " and " << b;
    }
  }
}

TEST(PackingOrder, PositionsFollowTheInputRadii) {
  // a disk as wide as the box can only sit at the centre line
  std::vector<double> radii(11, 0.02);
  radii[5] = thesis_width / 2.0;
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    SCOPED_TRACE(seed);
    const PackingLayout p = advancing_front(radii, thesis_width, seed);
    EXPECT_EQ(p.x[5], thesis_width / 2.0);
    expect_inside_box(p, radii, thesis_width);
    expect_no_overlap(p, radii);
    expect_all_resting(p, radii, thesis_width);
  }
}

TEST(PackingLarge, TenThousandPolydisperseDisks) {
  // about 100 mean diameters wide
  const auto radii = polydisperse_radii(10000);
  const double width = 4.0;
  const PackingLayout p = advancing_front(radii, width, 7);
  expect_inside_box(p, radii, width);
  expect_no_overlap(p, radii);
  expect_all_resting(p, radii, width);
  // seeds 0, 1, 2 and 7 all give about 0.82
  EXPECT_GT(area_fraction(p, radii, width), 0.75);
}

// FNV-1a over the bytes of x, then y: a layout's bits in one number
std::uint64_t layout_hash(const PackingLayout& p) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const std::vector<double>* v : {&p.x, &p.y}) {
    for (const double d : *v) {
      unsigned char bytes[sizeof d];
      std::memcpy(bytes, &d, sizeof d);
      for (const unsigned char b : bytes) h = (h ^ b) * 1099511628211ULL;
    }
  }
  return h;
}

// the bench's bed: equal thirds of 1.5, 2.0 and 2.5 cm, 0.40 m x sqrt(N / 60) wide
std::vector<double> bench_radii(int n) {
  std::vector<double> radii;
  for (int i = 0; i < n; ++i) radii.push_back(0.015 + 0.005 * (3 * i / n));
  return radii;
}

// Layouts pinned bit for bit from the construction that scanned the whole front at every
// insertion (commit de9070b, O(N x front)). Beds of at most 16 distinct radii are now built
// from a candidate queue per radius, others still by the scan; both must give these bits.
TEST(PackingPinned, BenchBedsAsTheFrontScanBuiltThem) {
  const std::vector<std::pair<int, std::uint64_t>> beds = {{1000, 1}, {1000, 7}, {10000, 1}};
  const std::vector<std::uint64_t> hashes = {0xb75b1811007c3a8eULL, 0x6bec98527af0c776ULL,
                                             0x202796474f51acf0ULL};
  for (std::size_t i = 0; i < beds.size(); ++i) {
    const auto [n, seed] = beds[i];
    SCOPED_TRACE(n);
    EXPECT_EQ(layout_hash(advancing_front(bench_radii(n), 0.40 * std::sqrt(n / 60.0), seed)),
              hashes[i]);
  }
}

TEST(PackingPinned, ThesisSetOverTwoHundredSeeds) {
  std::uint64_t h = 0;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    h = h * 31 + layout_hash(advancing_front(thesis_radii(), thesis_width, seed));
  }
  EXPECT_EQ(h, 0x377f65fecbd598feULL);
}

TEST(PackingPinned, EqualDisksWithExactTies) {
  // one radius: candidates at equal heights are common, so the ties' order is pinned too
  const std::vector<std::uint64_t> hashes = {0x100b162bf76b3060ULL, 0xe9760ef0a3c86d8dULL,
                                             0x3f3a0d3e83118c5eULL};
  for (std::uint64_t seed = 0; seed < 3; ++seed) {
    EXPECT_EQ(layout_hash(advancing_front(std::vector<double>(2000, 0.02),
                                          0.40 * std::sqrt(2000 / 60.0), seed)),
              hashes[seed]);
  }
}

TEST(PackingPinned, SixteenSpeciesByQueuesTwentyByTheScan) {
  std::vector<double> sixteen;
  std::vector<double> twenty;
  for (int i = 0; i < 2000; ++i) {
    sixteen.push_back(0.015 + 0.0005 * (i % 16));
    twenty.push_back(0.015 + 0.0005 * (i % 20));
  }
  EXPECT_EQ(layout_hash(advancing_front(sixteen, 1.0, 5)), 0xa22d818c34d4f322ULL);
  EXPECT_EQ(layout_hash(advancing_front(twenty, 1.0, 5)), 0x8efd94d026764ac6ULL);
  EXPECT_EQ(layout_hash(advancing_front(polydisperse_radii(2000), 1.0, 3)), 0xa79aff7715db0c21ULL);
}

TEST(PackingPinned, IntruderAmongTwoSizes) {
  // a disk 5 x wider than the others, in a narrow box
  std::vector<double> radii(300, 0.01);
  radii[17] = 0.05;
  for (int i = 0; i < 100; ++i) radii[3 * i] = 0.014;
  const std::vector<std::uint64_t> hashes = {0x1a55610e90a3097cULL, 0x0e798f146b05cb0bULL,
                                             0x537d0e9209a95eeaULL};
  for (std::uint64_t seed = 0; seed < 3; ++seed) {
    EXPECT_EQ(layout_hash(advancing_front(radii, 0.3, seed)), hashes[seed]);
  }
}

// The places of each radius's disks, sorted: what a relabelling among equal disks keeps.
std::vector<std::vector<std::pair<double, double>>> places_by_radius(
    const PackingLayout& p, const std::vector<double>& radii) {
  std::vector<double> distinct(radii);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::vector<std::vector<std::pair<double, double>>> places(distinct.size());
  for (std::size_t i = 0; i < radii.size(); ++i) {
    const auto k = std::lower_bound(distinct.begin(), distinct.end(), radii[i]) - distinct.begin();
    places[k].emplace_back(p.x[i], p.y[i]);
  }
  for (auto& v : places) std::sort(v.begin(), v.end());
  return places;
}

// median |i − j| over the touching pairs (i, j) of equal radius
double median_label_gap(const PackingLayout& p, const std::vector<double>& radii) {
  std::vector<double> gaps;
  for (const auto& [i, j] : close_pairs(p, radii, contact_gap)) {
    if (radii[i] == radii[j]) gaps.push_back(j - i);
  }
  std::nth_element(gaps.begin(), gaps.begin() + gaps.size() / 2, gaps.end());
  return gaps[gaps.size() / 2];
}

TEST(PackingCellOrder, EqualDisksTradePlacesOnly) {
  // the bench's thirds (labels in blocks) and the intruder set (labels interleaved)
  std::vector<double> intruder(300, 0.01);
  intruder[17] = 0.05;
  for (int i = 0; i < 100; ++i) intruder[3 * i] = 0.014;
  for (const auto& [radii, width] :
       {std::pair{bench_radii(1000), 0.40 * std::sqrt(1000 / 60.0)}, std::pair{intruder, 0.3}}) {
    const PackingLayout front = advancing_front(radii, width, 3);
    const PackingLayout bed = build_bed(radii, width, 3);
    EXPECT_EQ(places_by_radius(bed, radii), places_by_radius(front, radii));
    EXPECT_NE(bed.x, front.x);
  }
  // the intruder, alone of its radius, keeps its place
  const PackingLayout front = advancing_front(intruder, 0.3, 3);
  const PackingLayout bed = build_bed(intruder, 0.3, 3);
  EXPECT_EQ(bed.x[17], front.x[17]);
  EXPECT_EQ(bed.y[17], front.y[17]);
}

TEST(PackingCellOrder, LabelsRiseRowByRowLeftToRightWithinARadius) {
  const std::vector<double> radii = bench_radii(1000);
  const PackingLayout bed = build_bed(radii, 0.40 * std::sqrt(1000 / 60.0), 1);
  const double row = 2.0 * 0.025;
  for (std::size_t i = 1; i < radii.size(); ++i) {
    if (radii[i] != radii[i - 1]) continue;
    const double row_a = std::floor(bed.y[i - 1] / row), row_b = std::floor(bed.y[i] / row);
    EXPECT_TRUE(row_a < row_b || (row_a == row_b && bed.x[i - 1] <= bed.x[i])) << "disk " << i;
  }
}

TEST(PackingCellOrder, TouchingDisksHaveNearbyLabels) {
  // The front labels disks in its shuffled insertion order: touching disks of a radius lie as
  // far apart in label as any two (a third of the radius's count, at random; measured 966 of
  // 3 333 and 583 of 2 000). In cell order, a row apart at most: 58 equal disks span the
  // 2 000-disk bed, and measured 50 and 56.
  const std::vector<double> thirds = bench_radii(10000);
  const double wide = 0.40 * std::sqrt(10000 / 60.0);
  EXPECT_GT(median_label_gap(advancing_front(thirds, wide, 1), thirds), 500.0);
  EXPECT_LT(median_label_gap(build_bed(thirds, wide, 1), thirds), 75.0);
  const std::vector<double> equal(2000, 0.02);
  const double width = 0.40 * std::sqrt(2000 / 60.0);
  EXPECT_GT(median_label_gap(advancing_front(equal, width, 0), equal), 300.0);
  EXPECT_LT(median_label_gap(build_bed(equal, width, 0), equal), 75.0);
}

// A change of the numbering changes every run's results at round-off level: pinned.
TEST(PackingPinned, BenchBedInCellOrder) {
  EXPECT_EQ(layout_hash(build_bed(bench_radii(1000), 0.40 * std::sqrt(1000 / 60.0), 1)),
            0x39292375184b023aULL);
}

TEST(PackingErrors, CellOrderWantsOneRadiusPerDisk) {
  EXPECT_THROW(in_cell_order({0.01, 0.01}, PackingLayout{{0.1}, {0.1}}), std::invalid_argument);
}

TEST(PackingErrors, DiskWiderThanTheBoxThrows) {
  EXPECT_THROW(advancing_front({0.02, 0.21, 0.02}, thesis_width, 1), std::invalid_argument);
}

TEST(PackingErrors, NonPositiveRadiusThrows) {
  EXPECT_THROW(advancing_front({0.02, 0.0}, thesis_width, 1), std::invalid_argument);
  EXPECT_THROW(advancing_front({-0.02}, thesis_width, 1), std::invalid_argument);
  EXPECT_THROW(advancing_front({std::nan("")}, thesis_width, 1), std::invalid_argument);
}

TEST(PackingErrors, EmptyInputGivesEmptyLayout) {
  const PackingLayout p = advancing_front({}, thesis_width, 1);
  EXPECT_TRUE(p.x.empty());
  EXPECT_TRUE(p.y.empty());
}

}  // namespace
}  // namespace granular::md
