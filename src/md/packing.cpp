// Advancing-front packing constructor (thesis §2.1.1, spec thesis-packings-ch2-3.md §2).
//
// Each new disk is placed touching two elements of the front (front disks, the side walls
// x = 0 and x = W, the bottom y = 0) without overlapping any placed disk. Assumptions beyond the
// thesis text, chosen so that the packing grows layer by layer and rests under gravity:
// - among all valid candidates the lowest one (smallest y) is taken; candidates within
//   1e-9 R of the lowest are ties, broken by a draw from the seed;
// - a candidate is valid only if it rests on its two supports: the upward vertical lies in the
//   cone spanned by the two contact normals, so that two repulsive contact forces can carry the
//   disk's weight without friction (a disk touching the bottom always rests). In exact
//   arithmetic the lowest free candidate always rests, since one that does not could roll lower
//   on a support; the check keeps that true for near-ties and rounding. Should no resting
//   candidate exist, the lowest free one is taken;
// - the seed shuffles the insertion order (Fisher-Yates), places the first disk on the bottom
//   at a uniform x and breaks ties. The generator is xoshiro256** seeded by splitmix64, written
//   out here, so layouts do not depend on the standard library's distributions.
// The front is the set of disks that a disk of the smallest radius still to come can touch
// without overlap; a disk leaves it for good once it is buried, since free space only shrinks.
//
// The thesis' construction scans the whole front for every new disk: O(N x front), minutes for
// 10^6 disks. Here a bed of a few distinct radii (a case's species) keeps one queue of candidate
// positions per radius instead, ordered as the scan would sort them (height, then the scan's
// generation order, which breaks exact ties): a candidate joins once, when the later of its two
// supports is placed, and leaves once covered or unsupported, both for good, so each insertion
// pops only the lowest few. The beds are the scan's, bit for bit (tests pin them); a bed of
// many radii is still built by the scan.
#include "granular/md/packing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>

#include "granular/constants.hpp"
#include "granular/vec2.hpp"

namespace granular::md {

// the builder's placement, shared with the 3-disk system (packing.hpp)
bool touch_two_disks(Vec2 a, double r_ia, Vec2 b, double r_ib, Vec2& out) {
  // order the pair left to right: the solution on the left of a->b is then the upper one
  if (b.x < a.x) {
    std::swap(a, b);
    std::swap(r_ia, r_ib);
  }
  const Vec2 d = b - a;
  const double l2 = dot(d, d);
  const double product =
      (l2 - (r_ia - r_ib) * (r_ia - r_ib)) * ((r_ia + r_ib) * (r_ia + r_ib) - l2);
  if (l2 <= 0.0 || product < 0.0) return false;
  const double root = std::sqrt(product);
  const double along = l2 + r_ia * r_ia - r_ib * r_ib;
  out = a + (1.0 / (2.0 * l2)) * Vec2{along * d.x - root * d.y, along * d.y + root * d.x};
  return true;
}

namespace {

// relative tolerances: overlaps and box bounds (in radii), ties between candidates (in radii),
// and directions in the resting test
constexpr double overlap_tol = 1e-9;
constexpr double tie_tol = 1e-9;
constexpr double direction_tol = 1e-9;

// most distinct radii that get a candidate queue each (Packer::Queue)
constexpr std::size_t max_queues = 16;

// xoshiro256** (Blackman & Vigna), state seeded by splitmix64
class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    for (auto& word : s_) {
      seed += 0x9e3779b97f4a7c15ULL;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      word = z ^ (z >> 31);
    }
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // uniform in [0, 1) with 53 random bits
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // uniform in [0, n), n > 0, unbiased by rejection
  std::size_t below(std::size_t n) {
    const std::uint64_t bound = n;
    const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() -
                                std::numeric_limits<std::uint64_t>::max() % bound;
    std::uint64_t v = next();
    while (v >= limit) v = next();
    return static_cast<std::size_t>(v % bound);
  }

 private:
  static std::uint64_t rotl(std::uint64_t v, int k) { return (v << k) | (v >> (64 - k)); }
  std::uint64_t s_[4];
};

// a front element a new disk can touch: a disk index >= 0, or a wall
enum Wall : int { left_wall = -1, right_wall = -2, bottom_wall = -3 };

struct Candidate {
  Vec2 p;     // centre [m]
  int first;  // supports: disk index or Wall
  int second;
  // rank in the order the thesis' scan generates candidates (the two corners, then each front
  // disk a in placement order: bottom, walls, pairs (a, b > a) in grid order), which breaks
  // ties in y: slot (0 corners, else 1 + a's placement rank) << 32 | kind << 28 | b's rank
  std::uint64_t order;
};

// the lowest first, then the scan's order: a total order
bool lower(const Candidate& a, const Candidate& b) {
  return a.p.y < b.p.y || (a.p.y == b.p.y && a.order < b.order);
}

// candidate kinds within a disk's slot; a pair's kind is pair_kind + its grid offset (0..8)
enum Kind : std::uint64_t {
  bottom_left = 0,
  bottom_right = 1,
  at_left_wall = 2,
  at_right_wall = 3,
  pair_kind = 4
};

std::uint64_t order_of(std::uint64_t slot, std::uint64_t kind, std::uint64_t partner_rank) {
  return slot << 32 | kind << 28 | partner_rank;
}

// uniform grid of the placed disks; cells of side >= 4 R_max, so the 3x3 block around a point
// holds every disk a new disk there can overlap (reach <= 2 R_max) and every disk pair a new disk
// can touch at once (|r_a - r_b| <= R_a + R_b + 2 R_i <= 4 R_max); rows are added as it grows
class Grid {
 public:
  Grid(double box_width, double cell) : cell_(cell) {
    cols_ = std::max(1, static_cast<int>(std::ceil(box_width / cell)));
  }

  void insert(int disk, Vec2 p) {
    const int row = row_of(p.y);
    if (row >= rows_) {
      cells_.resize(static_cast<std::size_t>(row + 1) * cols_);
      rows_ = row + 1;
    }
    cells_[static_cast<std::size_t>(row) * cols_ + col_of(p.x)].push_back(disk);
  }

  // calls f(disk) for every disk in the 3x3 block of cells around p
  template <class F>
  void for_near(Vec2 p, F&& f) const {
    const int row = row_of(p.y);
    const int col = col_of(p.x);
    for (int r = std::max(0, row - 1); r <= std::min(rows_ - 1, row + 1); ++r) {
      for (int c = std::max(0, col - 1); c <= std::min(cols_ - 1, col + 1); ++c) {
        for (int disk : cells_[static_cast<std::size_t>(r) * cols_ + c]) f(disk);
      }
    }
  }

  // where b's cell comes in the 3x3 block around a's cell that for_near(a) walks (0..8); b must
  // lie in that block
  int block_offset(Vec2 a, Vec2 b) const {
    return 3 * (row_of(b.y) - row_of(a.y) + 1) + (col_of(b.x) - col_of(a.x) + 1);
  }

 private:
  int row_of(double y) const { return std::max(0, static_cast<int>(y / cell_)); }
  int col_of(double x) const { return std::clamp(static_cast<int>(x / cell_), 0, cols_ - 1); }

  double cell_;
  int cols_ = 1;
  int rows_ = 0;
  std::vector<std::vector<int>> cells_;
};

// direction from a support to the centre p of the disk it touches
Vec2 contact_normal(int support, Vec2 p, const std::vector<Vec2>& centres) {
  switch (support) {
    case left_wall:
      return {1.0, 0.0};
    case right_wall:
      return {-1.0, 0.0};
    case bottom_wall:
      return {0.0, 1.0};
    default:
      return p - centres[support];
  }
}

// true when a disk at p rests on its two supports: the upward vertical g lies in the cone of the
// two contact normals u, v (with u x v > 0: u x g >= 0 and g x v >= 0), so non-negative normal
// forces can balance its weight; anything touching the bottom rests
bool rests_on(const Candidate& c, const std::vector<Vec2>& centres) {
  if (c.first == bottom_wall || c.second == bottom_wall) return true;
  Vec2 u = contact_normal(c.first, c.p, centres);
  Vec2 v = contact_normal(c.second, c.p, centres);
  if (cross(u, v) < 0.0) std::swap(u, v);
  const double nu = norm(u);
  const double nv = norm(v);
  return cross(u, v) > direction_tol * nu * nv && u.x >= -direction_tol * nu &&
         v.x <= direction_tol * nv;
}

// the packing under construction: placed centres, the grid and the front
class Packer {
 public:
  Packer(const std::vector<double>& radii, double box_width, double r_max)
      : radii_(radii),
        width_(box_width),
        grid_(box_width, 4.0 * r_max),
        centres_(radii.size()),
        rank_(radii.size(), 0),
        in_front_(radii.size(), 0),
        tested_with_(radii.size(), 0.0) {}

  void place(int disk, Vec2 p) {
    centres_[disk] = p;
    rank_[disk] = static_cast<std::uint32_t>(placed_.size());
    placed_.push_back(disk);
    grid_.insert(disk, p);
    in_front_[disk] = 1;
    front_.push_back(disk);
  }

  // drops from the front the disks near `disk` that a disk of radius r_next can no longer touch
  void update_front(int disk, double r_next) {
    const Vec2 p = centres_[disk];
    grid_.for_near(p, [&](int a) {
      if (!in_front_[a]) return;
      // a front disk whose circle of reachable centres the new disk leaves alone keeps its
      // arcs, and with the same r_next the answer of its last test (not buried)
      if (a != disk && tested_with_[a] == r_next) {
        const double d = norm(p - centres_[a]);
        if (d >= radii_[a] + r_next + (radii_[disk] + r_next)) return;
      }
      tested_with_[a] = r_next;
      if (is_buried(a, r_next)) {
        in_front_[a] = 0;
        ++buried_in_list_;
      }
    });
    // the list keeps buried disks until they are half of it: amortized O(1) per disk
    if (2 * buried_in_list_ > front_.size()) {
      front_.erase(
          std::remove_if(front_.begin(), front_.end(), [&](int a) { return !in_front_[a]; }),
          front_.end());
      buried_in_list_ = 0;
    }
  }

  // the scan of the thesis: every position where a disk of radius r touches two front
  // elements, inside the box, in the scan's order
  std::vector<Candidate> candidates(double r) const {
    std::vector<Candidate> out;
    auto add = [&](const Candidate& c) { out.push_back(c); };
    corners(r, add);
    for (int a : front_) {
      if (!in_front_[a]) continue;
      own_candidates(a, r, add);
      grid_.for_near(centres_[a], [&](int b) {
        if (b > a && in_front_[b]) pair_candidate(a, b, r, add);
      });
    }
    return out;
  }

  // candidates of one radius, kept between insertions: each is added once, after the later
  // of its supports is placed (`lowest` catches up), if it is free and rests; it leaves when a
  // placed disk covers it or a support leaves the front, both for good, so a query pops only
  // the lowest
  class Queue {
   public:
    explicit Queue(double r) : r_(r) {}

   private:
    friend class Packer;
    void push(const Candidate& c) {
      heap_.push_back(c);
      std::push_heap(heap_.begin(), heap_.end(), higher);
    }
    Candidate pop() {
      std::pop_heap(heap_.begin(), heap_.end(), higher);
      const Candidate c = heap_.back();
      heap_.pop_back();
      return c;
    }
    static bool higher(const Candidate& a, const Candidate& b) { return lower(b, a); }

    double r_;
    std::size_t seen_ = 0;  // placements whose candidates are in the heap
    std::vector<Candidate> heap_;
  };

  Queue make_queue(double r) const {
    Queue q(r);
    corners(r, [&](const Candidate& c) {
      if (rests_on(c, centres_)) q.push(c);
    });
    return q;
  }

  // the free resting candidates of q within tie_tol r of the lowest, in the scan's order: what
  // the scan would find, without visiting the whole front
  std::vector<Candidate> lowest(Queue& q) const {
    const double r = q.r_;
    for (; q.seen_ < placed_.size(); ++q.seen_) {
      const int d = placed_[q.seen_];
      if (!in_front_[d]) continue;
      auto add = [&](const Candidate& c) {
        if (rests_on(c, centres_) && is_free(c.p, r)) q.push(c);
      };
      own_candidates(d, r, add);
      grid_.for_near(centres_[d], [&](int b) {
        if (rank_[b] < q.seen_ && in_front_[b])
          pair_candidate(std::min(d, b), std::max(d, b), r, add);
      });
    }
    std::vector<Candidate> ties;
    while (!q.heap_.empty()) {
      if (!ties.empty() && q.heap_.front().p.y > ties.front().p.y + tie_tol * r) break;
      const Candidate c = q.pop();
      if (supported(c) && is_free(c.p, r)) ties.push_back(c);
    }
    for (const Candidate& c : ties) q.push(c);  // free until the chosen one is placed
    return ties;
  }

  // true when a disk of radius r at p overlaps no placed disk (contacts allowed)
  bool is_free(Vec2 p, double r) const {
    bool free = true;
    grid_.for_near(p, [&](int d) {
      const Vec2 e = p - centres_[d];
      const double reach = radii_[d] + r * (1.0 - overlap_tol);
      if (dot(e, e) < reach * reach) free = false;
    });
    return free;
  }

  const std::vector<Vec2>& centres() const { return centres_; }

 private:
  // emits c when it lies inside the box
  template <class Emit>
  void emit_inside(const Candidate& c, double r, Emit& emit) const {
    if (c.p.x < r * (1.0 - overlap_tol) || c.p.x > width_ - r * (1.0 - overlap_tol) ||
        c.p.y < r * (1.0 - overlap_tol)) {
      return;
    }
    emit(c);
  }

  // the two bottom corners
  template <class Emit>
  void corners(double r, Emit&& emit) const {
    emit_inside({{r, r}, left_wall, bottom_wall, order_of(0, 0, 0)}, r, emit);
    emit_inside({{width_ - r, r}, right_wall, bottom_wall, order_of(0, 1, 0)}, r, emit);
  }

  // the candidates that touch disk a and the bottom or a side wall
  template <class Emit>
  void own_candidates(int a, double r, Emit&& emit) const {
    const Vec2 pa = centres_[a];
    const double r_ia = radii_[a] + r;
    const std::uint64_t slot = rank_[a] + 1;

    // bottom and disk a: y = r, |x - x_a| from the contact distance
    const double dy = pa.y - r;
    if (std::abs(dy) <= r_ia) {
      const double dx = std::sqrt(r_ia * r_ia - dy * dy);
      emit_inside({{pa.x - dx, r}, bottom_wall, a, order_of(slot, bottom_left, 0)}, r, emit);
      emit_inside({{pa.x + dx, r}, bottom_wall, a, order_of(slot, bottom_right, 0)}, r, emit);
    }

    // side wall and disk a, upper solution (eqs. 2.5-2.6 with n = +x or -x)
    for (const int wall : {left_wall, right_wall}) {
      const double x = wall == left_wall ? r : width_ - r;
      const double dx = pa.x - x;
      if (std::abs(dx) <= r_ia) {
        const std::uint64_t kind = wall == left_wall ? at_left_wall : at_right_wall;
        emit_inside(
            {{x, pa.y + std::sqrt(r_ia * r_ia - dx * dx)}, wall, a, order_of(slot, kind, 0)}, r,
            emit);
      }
    }
  }

  // the candidate touching disks a < b, in a's slot
  template <class Emit>
  void pair_candidate(int a, int b, double r, Emit&& emit) const {
    Candidate c;
    if (!touch_two_disks(centres_[a], radii_[a] + r, centres_[b], radii_[b] + r, c.p)) return;
    c.first = a;
    c.second = b;
    c.order =
        order_of(rank_[a] + 1, pair_kind + grid_.block_offset(centres_[a], centres_[b]), rank_[b]);
    emit_inside(c, r, emit);
  }

  // both supports still in the front (walls always are)
  bool supported(const Candidate& c) const {
    return (c.first < 0 || in_front_[c.first]) && (c.second < 0 || in_front_[c.second]);
  }

  // true when no disk of radius r can touch disk a without overlap: the circle of centres at
  // distance R_a + r around a is covered by the arcs that other disks and the walls block
  bool is_buried(int a, double r) {
    const Vec2 pa = centres_[a];
    const double rho = radii_[a] + r;
    std::vector<std::pair<double, double>>& arcs = arcs_;  // [start, end) in [0, 2 pi] [rad]
    arcs.clear();
    bool full = false;

    // the arc of half-width acos(c) around angle mid, where the circle point is blocked;
    // shrunk by a small margin so that tangent contacts count as free (conservative)
    auto block = [&](double mid, double c) {
      if (c <= -1.0) {
        full = true;
        return;
      }
      if (c >= 1.0) return;
      const double half = std::acos(c) - 1e-9;
      if (half <= 0.0) return;
      double start = std::fmod(mid - half, 2.0 * pi);
      if (start < 0.0) start += 2.0 * pi;
      const double end = start + 2.0 * half;
      if (end <= 2.0 * pi) {
        arcs.emplace_back(start, end);
      } else {
        arcs.emplace_back(start, 2.0 * pi);
        arcs.emplace_back(0.0, end - 2.0 * pi);
      }
    };

    // walls: x < r, x > W - r and y < r are forbidden for the new centre
    block(pi, (pa.x - r) / rho);
    block(0.0, (width_ - r - pa.x) / rho);
    block(-0.5 * pi, (pa.y - r) / rho);

    // other disks b: blocked where |p - r_b| < R_b + r (law of cosines)
    grid_.for_near(pa, [&](int b) {
      if (b == a) return;
      const Vec2 e = centres_[b] - pa;
      const double d = norm(e);
      const double reach = radii_[b] + r;
      if (d >= rho + reach) return;
      block(std::atan2(e.y, e.x), (rho * rho + d * d - reach * reach) / (2.0 * rho * d));
    });
    if (full) return true;

    // the circle is buried when the sorted arcs leave no gap
    std::sort(arcs.begin(), arcs.end());
    double reached = 0.0;
    for (const auto& [start, end] : arcs) {
      if (start > reached) return false;
      reached = std::max(reached, end);
    }
    return reached >= 2.0 * pi;
  }

  const std::vector<double>& radii_;
  double width_;
  Grid grid_;
  std::vector<Vec2> centres_;        // [m] (n_disks), by input index
  std::vector<std::uint32_t> rank_;  // (n_disks) placement rank
  std::vector<char> in_front_;       // (n_disks)
  std::vector<double> tested_with_;  // [m] (n_disks) r_next of a front disk's last burial test
  std::vector<int> placed_;          // disks in placement order
  std::vector<int> front_;           // the front in placement order, buried disks not yet removed
  std::size_t buried_in_list_ = 0;   // buried disks still in front_
  std::vector<std::pair<double, double>> arcs_;  // is_buried's buffer
};

void validate(const std::vector<double>& radii, double box_width) {
  // placement ranks fill 28 bits of Candidate::order
  if (radii.size() >= (std::size_t{1} << 28)) {
    throw std::invalid_argument("advancing_front: " + std::to_string(radii.size()) +
                                " disks, more than one packing can hold (2^28)");
  }
  if (!(box_width > 0.0) || !std::isfinite(box_width)) {
    throw std::invalid_argument("advancing_front: box width must be > 0 and finite, got " +
                                std::to_string(box_width));
  }
  for (std::size_t i = 0; i < radii.size(); ++i) {
    if (!(radii[i] > 0.0) || !std::isfinite(radii[i])) {
      throw std::invalid_argument("advancing_front: radius " + std::to_string(i) +
                                  " must be > 0 and finite, got " + std::to_string(radii[i]));
    }
    if (2.0 * radii[i] > box_width) {
      throw std::invalid_argument("advancing_front: disk " + std::to_string(i) + " of diameter " +
                                  std::to_string(2.0 * radii[i]) + " m is wider than the box (" +
                                  std::to_string(box_width) + " m)");
    }
  }
}

}  // namespace

PackingLayout advancing_front(const std::vector<double>& radii, double box_width,
                              std::uint64_t seed) {
  validate(radii, box_width);
  const int n = static_cast<int>(radii.size());
  PackingLayout layout;
  if (n == 0) return layout;

  // insertion order: a seeded Fisher-Yates shuffle
  Rng rng(seed);
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  for (int k = n - 1; k > 0; --k) {
    std::swap(order[k], order[rng.below(static_cast<std::size_t>(k) + 1)]);
  }

  // smallest radius still to come after the k-th insertion, which decides who is buried
  std::vector<double> r_next(n, 0.0);
  for (int k = n - 2; k >= 0; --k) {
    r_next[k] = k == n - 2 ? radii[order[n - 1]] : std::min(r_next[k + 1], radii[order[k + 1]]);
  }

  Packer packer(radii, box_width, *std::max_element(radii.begin(), radii.end()));

  // a few distinct radii (the species of a case): one candidate queue each, O(N log N) in all;
  // many: the scan over the whole front at every insertion, O(N x front)
  std::vector<Packer::Queue> queues;
  std::vector<int> queue_of(n, -1);
  {
    std::vector<double> distinct(radii);
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    if (distinct.size() <= max_queues) {
      for (const double r : distinct) queues.push_back(packer.make_queue(r));
      for (int i = 0; i < n; ++i) {
        queue_of[i] = static_cast<int>(
            std::lower_bound(distinct.begin(), distinct.end(), radii[i]) - distinct.begin());
      }
    }
  }

  // the first disk lies on the bottom at a uniform x
  const double r0 = radii[order[0]];
  packer.place(order[0], {r0 + rng.uniform() * (box_width - 2.0 * r0), r0});
  if (n > 1) packer.update_front(order[0], r_next[0]);

  for (int k = 1; k < n; ++k) {
    const int disk = order[k];
    const double r = radii[disk];

    std::vector<Candidate> ties;
    if (queue_of[disk] >= 0) ties = packer.lowest(queues[queue_of[disk]]);
    // the scan: candidates from lowest up; the first resting one sets the level, equal ones are
    // ties; with none resting, the lowest free one (the queues hold resting ones only)
    std::optional<Candidate> fallback;
    if (ties.empty()) {
      std::vector<Candidate> cands = packer.candidates(r);
      std::sort(cands.begin(), cands.end(), lower);
      for (const Candidate& c : cands) {
        if (!ties.empty() && c.p.y > ties.front().p.y + tie_tol * r) break;
        if (!packer.is_free(c.p, r)) continue;
        if (rests_on(c, packer.centres())) {
          ties.push_back(c);
        } else if (!fallback) {
          fallback = c;
        }
      }
    }
    if (ties.empty() && !fallback) {
      throw std::logic_error("advancing_front: no free position for disk " + std::to_string(disk) +
                             " (the front lost an exposed disk)");
    }
    const Candidate& chosen = ties.empty() ? *fallback : ties[rng.below(ties.size())];

    // exact touching can leave the box by rounding; clamp into it
    const Vec2 p{std::clamp(chosen.p.x, r, box_width - r), std::max(chosen.p.y, r)};
    packer.place(disk, p);
    if (k + 1 < n) packer.update_front(disk, r_next[k]);
  }

  layout.x.resize(n);
  layout.y.resize(n);
  for (int i = 0; i < n; ++i) {
    layout.x[i] = packer.centres()[i].x;
    layout.y[i] = packer.centres()[i].y;
  }
  return layout;
}

PackingLayout in_cell_order(const std::vector<double>& radii, PackingLayout layout) {
  const std::size_t n = radii.size();
  if (layout.x.size() != n || layout.y.size() != n) {
    throw std::invalid_argument("in_cell_order: " + std::to_string(n) + " radii for a layout of " +
                                std::to_string(layout.x.size()) + " disks");
  }
  if (n == 0) return layout;
  const double row = 2.0 * *std::max_element(radii.begin(), radii.end());
  // labels grouped by radius, each group in ascending label order
  std::vector<std::size_t> labels(n);
  std::iota(labels.begin(), labels.end(), std::size_t{0});
  std::stable_sort(labels.begin(), labels.end(),
                   [&](std::size_t a, std::size_t b) { return radii[a] < radii[b]; });
  // the same places, each group's sorted in cell order (a total order: the label breaks the
  // tie of two equal centres, which the front never gives)
  std::vector<std::size_t> places(labels);
  const auto cell_before = [&](std::size_t a, std::size_t b) {
    if (radii[a] != radii[b]) return radii[a] < radii[b];
    const double row_a = std::floor(layout.y[a] / row), row_b = std::floor(layout.y[b] / row);
    if (row_a != row_b) return row_a < row_b;
    if (layout.x[a] != layout.x[b]) return layout.x[a] < layout.x[b];
    if (layout.y[a] != layout.y[b]) return layout.y[a] < layout.y[b];
    return a < b;
  };
  std::sort(places.begin(), places.end(), cell_before);
  PackingLayout out;
  out.x.resize(n);
  out.y.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    out.x[labels[k]] = layout.x[places[k]];
    out.y[labels[k]] = layout.y[places[k]];
  }
  return out;
}

PackingLayout build_bed(const std::vector<double>& radii, double box_width, std::uint64_t seed) {
  return in_cell_order(radii, advancing_front(radii, box_width, seed));
}

}  // namespace granular::md
