// The collision model as a case (docs/cases.md, docs/outputs.md): one disk–wall or disk–disk
// collision through the MD engine, measured against the closed forms of contact_law.hpp;
// a run writes collision.csv and summary.json.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/cases/collision.hpp is host-only"
#endif

#include "granular/cases/case.hpp"
#include "granular/md/collision/collision.hpp"

namespace granular::cases {

// Runs one collision and writes summary.json (measured and predicted e_n, e_t, t_c, status)
// and collision.csv into ctx.out_dir; the table of measured against predicted values goes to
// *ctx.progress.
void run_collision_case(const md::CollisionCase& c, const RunContext& ctx);

class Collision : public Case {
 public:
  explicit Collision(md::CollisionCase c) : c_(c) {}
  const md::CollisionCase& collision() const { return c_; }
  void describe(Description& d) const override;
  RunEnd run(const RunContext& ctx) const override {
    run_collision_case(c_, ctx);
    return RunEnd::complete;
  }

 private:
  md::CollisionCase c_;
};

}  // namespace granular::cases
