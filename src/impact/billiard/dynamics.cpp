// Persistent contact of the billiard (the Zeno policy, docs/billiard.md; not in the paper): the
// ball rolling or sliding on one surface of the moving boundary, its constrained equations of
// motion, the choice of mode and one mode's integration with its events.
//
// Coordinates: the foot s of the contact point, u_t = (v − w n1)·c1 and u3, with w = Aω cos ωt
// the wall's velocity (Eq. 17). The centre is the foot plus b c2, so gap = 0 and
// (v − w n1)·c2 = 0 hold by construction: no projection step or Baumgarte term is needed, and
// rolling (u_s = u_t + b u3 = 0, kept by a linear invariant of the rates) is kept by RK4 and
// Dormand–Prince to rounding.
#include "granular/impact/billiard/dynamics.hpp"

#include <cmath>

#include "granular/constants.hpp"

namespace granular::billiard {
namespace {

// state vector of a contact phase: (s, u_t, u3)
enum { kFoot = 0, kTangential, kSpin, kSize };

// The contact point (x, y) in the boundary frame, the tangent angle z (spec §4: tan z = f'(s))
// and the curvature κ = f''/(1 + f'²)^{3/2} (> 0 where the surface is concave towards the ball).
struct FootGeometry {
  double x, y, z, kappa;
};

FootGeometry foot_geometry(const BilliardBoundary& b, Surface s, double foot) {
  // the ceiling: a line with its normal −n2 (spec §3)
  if (s == Surface::ceiling) return {foot, b.ceiling, pi, 0.0};
  // a wedge branch: the line of the branch, continued past the corner (the corner event ends
  // the phase there)
  if (s == Surface::wedge_left || s == Surface::wedge_right) {
    const double dir = s == Surface::wedge_right ? 1.0 : -1.0;
    return {foot, b.c + dir * b.slope * foot, std::atan(dir * b.slope), 0.0};
  }
  const double slope = floor_slope(b, foot);
  double second = 0.0;
  switch (b.shape) {
    case BoundaryShape::parabola:
      second = 2.0 * b.a;
      break;
    case BoundaryShape::hyperbola: {
      // f'' = α²β / (α(1 + βs²))^{3/2}
      const double r = std::sqrt(b.alpha * (1.0 + b.beta * foot * foot));
      second = b.alpha * b.alpha * b.beta / (r * r * r);
      break;
    }
    default:
      break;
  }
  const double q = 1.0 + slope * slope;
  return {foot, floor_height(b, foot), std::atan(slope), second / (q * std::sqrt(q))};
}

// the centre of the ball in the boundary frame: the foot plus b c2
Vec2 centre(const FootGeometry& g, double radius) {
  return {g.x - radius * std::sin(g.z), g.y + radius * std::cos(g.z)};
}

}  // namespace

BilliardContactForces billiard_contact_forces(const Params& m, const BilliardOnSurface& c, double t,
                                              BilliardContactMode mode, double sigma) {
  const FootGeometry g = foot_geometry(m.boundary, c.surface, c.foot);
  const double cz = std::cos(g.z), sz = std::sin(g.z);
  const Vec2 c1{cz, sz}, c2{-sz, cz};
  const double mass = m.ball.mass, b = m.ball.radius, inertia = m.ball.inertia;
  const double A = m.drive.amplitude, w = m.drive.omega;
  const double wall_v = A * w * std::cos(w * t);
  const double wall_a = -A * w * w * std::sin(w * t);
  BilliardContactForces f{};

  // the foot moves along the surface at u_t / (1 − κ b): the centre's offset curve must be
  // regular (radius of curvature > b, true of every shape of spec §1)
  const double stretch = 1.0 - g.kappa * b;
  f.determined = stretch > 0.0;
  if (!f.determined) return f;

  // drag per unit mass on the lab velocity of the centre, as in flight (Eq. 2)
  const Vec2 v = Vec2{wall_v, 0.0} + c.u_t * c1;
  const Vec2 drag = (-(m.drag.c1 + m.drag.c2 * norm(v)) / mass) * v;

  // normal force from the constraint: the relative normal acceleration equals the centripetal
  // one, (a − ẇ n1)·c2 = u_t dz/dt = κ u_t² / (1 − κ b), with a = −g n2 + drag + F/m and
  // n1·c2 = −sin z
  f.f_n = mass * (g.kappa * c.u_t * c.u_t / stretch + m.gravity * cz - dot(drag, c2) - wall_a * sz);
  // tangential: du_t/dt = (a − ẇ n1)·c1 = free + F_t/m, J du3/dt = b F_t (torque of the
  // friction at P = centre − b c2); rolling keeps du_s/dt = free + F_t (1/m + b²/J) = 0
  const double free = -m.gravity * sz + dot(drag, c1) - wall_a * cz;
  f.f_t_roll = -free / (1.0 / mass + b * b / inertia);
  f.f_t = mode == BilliardContactMode::roll ? f.f_t_roll : -sigma * m.law.mu_kinetic * f.f_n;
  f.slip = c.u_t + b * c.spin;
  f.foot_rate = c.u_t * cz / stretch;
  f.u_t_rate = free + f.f_t / mass;
  f.spin_rate = b * f.f_t / inertia;
  return f;
}

BilliardOnSurface billiard_to_surface(const Params& m, Surface s, double t, const State& y) {
  const double A = m.drive.amplitude, w = m.drive.omega;
  const SurfaceContact sc =
      surface_contact(m.boundary, s, y[0] - A * std::sin(w * t), y[1], m.ball.radius);
  const FootGeometry g = foot_geometry(m.boundary, s, sc.foot);
  const Vec2 c1{std::cos(g.z), std::sin(g.z)};
  const Vec2 relative{y[2] - A * w * std::cos(w * t), y[3]};
  return {s, sc.foot, dot(relative, c1), y[4]};
}

State billiard_from_surface(const Params& m, double t, const BilliardOnSurface& c) {
  const double A = m.drive.amplitude, w = m.drive.omega;
  const FootGeometry g = foot_geometry(m.boundary, c.surface, c.foot);
  const Vec2 q = centre(g, m.ball.radius);
  State y(5);
  y << q.x + A * std::sin(w * t), q.y, A * w * std::cos(w * t) + c.u_t * std::cos(g.z),
      c.u_t * std::sin(g.z), c.spin;
  return y;
}

BilliardContactChoice billiard_contact_mode(const Params& m, const BilliardOnSurface& c, double t,
                                            bool zero_slip) {
  const BilliardContactForces f = billiard_contact_forces(m, c, t, BilliardContactMode::roll, 1.0);
  if (!f.determined)
    return {false, BilliardContactMode::roll, 1.0, BilliardContactEnd::undetermined};
  // the surface would have to pull: the ball leaves it
  if (!(f.f_n > 0.0)) return {false, BilliardContactMode::roll, 1.0, BilliardContactEnd::liftoff};
  if (!zero_slip)
    return {true, BilliardContactMode::slide, f.slip > 0.0 ? 1.0 : -1.0, BilliardContactEnd::slip};
  // static test (Coulomb, μ): the friction that rolling needs lies in the cone
  if (std::fabs(f.f_t_roll) <= m.law.mu_static * f.f_n)
    return {true, BilliardContactMode::roll, 1.0, BilliardContactEnd::stick};
  // else slide the way the frictionless motion drives the slip (sgn of −F_t,roll); with
  // μ' <= μ the slip then grows in that sense
  return {true, BilliardContactMode::slide, f.f_t_roll > 0.0 ? -1.0 : 1.0,
          BilliardContactEnd::slip};
}

std::optional<BilliardContactEnd> billiard_contact_advance(const Params& m, const OdeOptions& ode,
                                                           BilliardOnSurface& c,
                                                           BilliardContactMode mode, double sigma,
                                                           double& t, double t_end, int& other,
                                                           const SurfaceStretch& stretch) {
  const Surface on = c.surface;
  const auto at = [on](const State& y) {
    return BilliardOnSurface{on, y[kFoot], y[kTangential], y[kSpin]};
  };
  const auto forces = [&m, mode, sigma, at](double tt, const State& y) {
    return billiard_contact_forces(m, at(y), tt, mode, sigma);
  };
  const Rhs rhs = [forces](double tt, const State& y, State& dy) {
    const BilliardContactForces f = forces(tt, y);
    dy.resize(kSize);
    dy << f.foot_rate, f.u_t_rate, f.spin_rate;
  };

  // events: lift-off (F_n falls to 0); the mode's switch (roll: |F_t| reaches μ F_n; slide:
  // the slip reaches 0); the wedge corner; the gap of every other surface closing
  const double mu = m.law.mu_static;
  std::vector<Event> events;
  std::vector<BilliardContactEnd> ends;
  std::vector<int> hit_surface;
  const auto add = [&](EventFunction g, BilliardContactEnd end, int surface) {
    events.push_back({std::move(g), Direction::falling});
    ends.push_back(end);
    hit_surface.push_back(surface);
  };
  add([forces](double tt, const State& y) { return forces(tt, y).f_n; },
      BilliardContactEnd::liftoff, -1);
  if (mode == BilliardContactMode::roll) {
    add(
        [forces, mu](double tt, const State& y) {
          const BilliardContactForces f = forces(tt, y);
          return mu * f.f_n - std::fabs(f.f_t);
        },
        BilliardContactEnd::slip, -1);
  } else {
    add([forces, sigma](double tt, const State& y) { return sigma * forces(tt, y).slip; },
        BilliardContactEnd::stick, -1);
  }
  if (on == Surface::wedge_left || on == Surface::wedge_right) {
    const double dir = on == Surface::wedge_right ? 1.0 : -1.0;
    add([dir](double, const State& y) { return dir * y[kFoot]; }, BilliardContactEnd::corner, -1);
  }
  const std::vector<Surface> list = surfaces(m.boundary);
  const double b = m.ball.radius;
  for (std::size_t k = 0; k < list.size(); ++k) {
    if (list[k] == on) continue;
    // the centre in the boundary frame, where both surfaces are at rest
    const Surface s = list[k];
    add(
        [&m, s, on, b](double, const State& y) {
          const Vec2 q = centre(foot_geometry(m.boundary, on, y[kFoot]), b);
          return surface_contact(m.boundary, s, q.x, q.y, b).gap;
        },
        BilliardContactEnd::impact, static_cast<int>(k));
  }

  EventIntegrator integrator(rhs, ode);
  State y(kSize);
  y << c.foot, c.u_t, c.spin;
  const auto rows = [&](double t0, const State& y0, double t1, const State& y1) {
    if (stretch)
      stretch(t0, t1, [&](double when) {
        return at(when == t1 ? y1 : integrator.step(t0, y0, when - t0));
      });
  };
  const std::optional<EventHit> hit = integrator.advance(t, y, t_end, events, rows);
  c = at(y);
  if (hit) {
    other = hit_surface[static_cast<std::size_t>(hit->index)];
    return ends[static_cast<std::size_t>(hit->index)];
  }
  // an event function that started at exactly 0 (a slide started from zero slip) is only
  // watched from the next step on: re-check the mode's conditions at the chunk's end (strictly,
  // so that a function resting at 0, like the margin of a frictionless ball at rest, does not
  // end the phase)
  for (std::size_t k = 0; k < events.size(); ++k) {
    if (events[k].g(t, y) < 0.0) {
      other = hit_surface[k];
      return ends[k];
    }
  }
  return std::nullopt;
}

double billiard_energy(const Params& m, Vec2 v, double spin, double q2) {
  return 0.5 * m.ball.mass * dot(v, v) + 0.5 * m.ball.inertia * spin * spin +
         m.ball.mass * m.gravity * q2;
}

}  // namespace granular::billiard
