// Disk–disk forces evaluated once per touching pair, a pair per thread: the force schedule of a
// CUDA block (block_step.hpp). Per-disk forces with full lists evaluate every pair twice and
// leave a warp's lanes idle while a few disks work through their contacts; here the contact law
// runs on as many lanes as there are touching pairs, and each disk then sums its pairs' forces
// in ascending partner order, gravity first and walls last: the order of the CPU's pairwise
// pass (step.hpp, packing_forces_pairwise), so every force and history is bitwise the same.
//
// Per step (block_step.hpp, forces_on_block, says where the barriers fall):
//   book (per disk)     the disk's touching partners in ascending order, each given its history
//                       slot (opened when new, as the CPU opens them), stale slots freed; the
//                       count of its pairs with higher partners
//   number (per packing) pair indices: an exclusive sum of those counts in disk order (the
//                       pairs are listed as the CPU meets them, by lower disk then partner)
//   list (per disk)     the disk's pairs with higher partners into the packing's pair list
//   evaluate (per pair) the contact law on the lower disk's history copy, written to both
//                       copies; the force kept with the pair and the pair's index given to both
//                       disks' partner lists
//   sum (per disk)      gravity, the pairs in partner order, the walls
// A disk whose history slots are all taken stops its packing with contact_overflow, as on the
// CPU; the overflowing contact is left out of both disks' forces. (The slot bookkeeping of such
// a stopped packing may then differ from the CPU's; its trajectory ends there.)
#pragma once

#include <cstdint>

#include "granular/hd.hpp"
#include "granular/md/step.hpp"
#include "granular/md/view.hpp"

namespace granular::md {

// One touching pair (i < j) of a step and what the contact law gave it.
struct PairContact {
  int i;       // lower disk
  int j;       // higher disk
  int slot_i;  // i's history slot for j
  int pad;
  double fx, fy;    // force on i [N] (on j: the opposite)
  double torque_i;  // [N m]
  double torque_j;  // [N m]
};

// Pairs a packing's list can hold per disk: each pair takes a history slot of both its disks.
GRANULAR_HD inline int pairs_per_disk(int max_contacts) { return (max_contacts + 1) / 2; }

// Scratch of the pair schedule, indexed by global disk index (per-disk arrays, max_contacts
// entries per disk for the partner lists) and by packing; pairs of packing p start at
// offset[p] · pairs_per_disk(max_contacts).
struct PairScratch {
  int* touch_count;           // touching partners this step (n_disks)
  unsigned char* touch_slot;  // their history slots, ascending partner (n_disks × max_contacts)
  int* touch_pair;            // their pairs' indices, or −1 (n_disks × max_contacts)
  std::uint64_t* fresh;       // bit k: slot k opened this step (n_disks)
  int* pair_first;            // pairs with higher partners: count, then first index (n_disks)
  PairContact* pairs;         // (n_disks × pairs_per_disk)
};

// book: disk i's touching partners in ascending order with their history slots. Returns false
// when a new contact found no free slot.
GRANULAR_HD inline bool book_disk_contacts(const EnsembleView& v, const PairScratch& s, int i) {
  ContactSlot* slots = v.contacts + i * v.max_contacts;
  unsigned char* touch = s.touch_slot + i * v.max_contacts;
  int* touch_pair = s.touch_pair + i * v.max_contacts;
  const int* list = v.neighbors + i * v.max_neighbors;
  std::uint64_t in_contact = 0;
  std::uint64_t fresh = 0;
  int count = 0;
  int upper = 0;
  bool ok = true;
  for (int n = 0; n < v.neighbor_count[i]; ++n) {
    const int j = list[n];
    if (!touching(v, i, j)) continue;
    bool opened;
    const int k = find_or_open_slot(slots, v.slots_used[i], v.max_contacts, j, opened);
    if (k < 0) {
      ok = false;
      continue;
    }
    in_contact |= 1ull << k;
    fresh |= opened ? 1ull << k : 0;
    touch[count] = static_cast<unsigned char>(k);
    touch_pair[count] = -1;
    ++count;
    upper += j > i ? 1 : 0;
  }
  free_opened_slots(slots, v.slots_used[i], in_contact);
  s.touch_count[i] = count;
  s.fresh[i] = fresh;
  s.pair_first[i] = upper;
  return ok;
}

// The index of packing p's first pair in the pair list.
GRANULAR_HD inline int first_pair_index(const EnsembleView& v, int p) {
  return v.offset[p] * pairs_per_disk(v.max_contacts);
}

// list: disk i's pairs with higher partners, ascending, into the packing's pair list.
GRANULAR_HD inline void list_disk_pairs(const EnsembleView& v, const PairScratch& s, int i) {
  const ContactSlot* slots = v.contacts + i * v.max_contacts;
  const unsigned char* touch = s.touch_slot + i * v.max_contacts;
  int q = s.pair_first[i];
  for (int t = 0; t < s.touch_count[i]; ++t) {
    const int j = slots[touch[t]].partner;
    if (j > i) s.pairs[q++] = {i, j, touch[t], 0, 0.0, 0.0, 0.0, 0.0};
  }
}

// Position of history slot k in a disk's touching list (it is there: book put it).
GRANULAR_HD inline int touch_position(const unsigned char* touch, int count, int k) {
  int t = 0;
  while (t < count && touch[t] != k) ++t;
  return t;
}

// evaluate: pair q of packing p (q counted from the packing's first pair).
GRANULAR_HD inline void evaluate_pair(const EnsembleView& v, const PairScratch& s, int p, int q) {
  const int index = first_pair_index(v, p) + q;
  PairContact& pair = s.pairs[index];
  const int i = pair.i;
  const int j = pair.j;
  ContactSlot* slots_i = v.contacts + i * v.max_contacts;
  ContactSlot* slots_j = v.contacts + j * v.max_contacts;
  // j's copy of the history: booked by j for partner i, unless j's slots were full
  int slot_j = -1;
  for (std::uint64_t used = v.slots_used[j]; used != 0 && slot_j < 0; used &= used - 1) {
    const int k = lowest_bit(used);
    if (slots_j[k].partner == i) slot_j = k;
  }
  if (slot_j < 0) return;                // left out, as the CPU leaves it out; the packing stops
  slots_i[pair.slot_i].mirror = slot_j;  // the CPU pass's hint, kept the same
  const bool fresh = (s.fresh[i] >> pair.slot_i) & 1u;
  SkinHistory history = slots_i[pair.slot_i].skin;
  const ContactResult c = disk_disk_contact(v.packings[p].disk_disk, disk_kinematics(v, i),
                                            disk_kinematics(v, j), fresh, history);
  slots_i[pair.slot_i].skin = history;
  slots_j[slot_j].skin = history;
  pair.fx = c.force_a.x;
  pair.fy = c.force_a.y;
  pair.torque_i = c.torque_a;
  pair.torque_j = c.torque_b;
  const unsigned char* touch_i = s.touch_slot + i * v.max_contacts;
  const unsigned char* touch_j = s.touch_slot + j * v.max_contacts;
  s.touch_pair[i * v.max_contacts + touch_position(touch_i, s.touch_count[i], pair.slot_i)] = index;
  s.touch_pair[j * v.max_contacts + touch_position(touch_j, s.touch_count[j], slot_j)] = index;
}

// sum: disk i's force and torque: gravity, its pairs in ascending partner order, its walls.
GRANULAR_HD inline void sum_disk_forces(const EnsembleView& v, const PairScratch& s, int p, int i,
                                        const PackingEnvironment& env) {
  Vec2 force = {v.mass[i] * env.gravity.x, v.mass[i] * env.gravity.y};
  double torque = 0.0;
  const int* touch_pair = s.touch_pair + i * v.max_contacts;
  for (int t = 0; t < s.touch_count[i]; ++t) {
    if (touch_pair[t] < 0) continue;
    const PairContact& pair = s.pairs[touch_pair[t]];
    const Vec2 f = {pair.fx, pair.fy};
    force = pair.i == i ? force + f : force - f;
    torque += pair.i == i ? pair.torque_i : pair.torque_j;
  }
  add_external_forces(v, p, i, env, force, torque);
  v.fx[i] = force.x;
  v.fy[i] = force.y;
  v.torque[i] = torque;
}

}  // namespace granular::md
