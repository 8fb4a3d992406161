// The prism's line and point impacts (include/granular/impact/prism/impact_map.hpp).
#include "granular/impact/prism/impact_map.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "granular/constants.hpp"
#include "granular/contact_law.hpp"
#include "granular/impact/prism/dynamics.hpp"
#include "granular/impulse/restitution.hpp"

namespace granular::prism {

namespace {

// Integrals of the positive part of the linear f(ξ) = fa + (fb − fa)ξ/b on [0, b]: the
// compressed region D2 of §2.2, without the s-singularities of the printed g1, g2 (§2.3).
struct ClippedIntegrals {
  double i0;  // ∫ f⁺ dξ
  double i1;  // ∫ f⁺ (ξ − b/2) dξ
  double i2;  // ∫ (f⁺)² dξ
};

ClippedIntegrals clipped_integrals(double fa, double fb, double b) {
  if (fa <= 0.0 && fb <= 0.0) return {0.0, 0.0, 0.0};
  double x0 = 0.0, x1 = b, f0 = fa, f1 = fb;
  if (fa <= 0.0) {
    x0 = b * fa / (fa - fb);
    f0 = 0.0;
  } else if (fb <= 0.0) {
    x1 = b * fa / (fa - fb);
    f1 = 0.0;
  }
  const double len = x1 - x0;
  const double mid = 0.5 * (x0 + x1);
  return {len * 0.5 * (f0 + f1), len * (0.5 * (f0 + f1) * (mid - 0.5 * b) + (f1 - f0) * len / 12.0),
          len * (f0 * f0 + f0 * f1 + f1 * f1) / 3.0};
}

// The stress profile from the signs of the signed roots (§2.3).
const char* stress_mode(double zeta_a, double zeta_b) {
  if (zeta_a <= 0.0 && zeta_b > 0.0) return "DS-I";
  if (zeta_b <= 0.0 && zeta_a > 0.0) return "DS-II";
  if (zeta_a > 0.0 && zeta_b > 0.0) return zeta_b > zeta_a ? "DS-III" : "DS-IV";
  return "none";
}

double sign_of(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }

// The line impact in the stress impulse p* (§2.2, §2.3). The integrator sees a scaled state
// y = (u/V, w/V, ω/|ω0|, ζ_A/Z, ζ_B/Z, W_f/E0) against p̂ = p*/P, with V = |ω0|b,
// Z = |ω0|√(bm/l), P = m|ω0|/l and E0 = ½J_Aω0², so that tolerances mean the same thing for
// every prism; the right-hand side itself is dimensional. W_f is the work of friction (≤ 0).
class LineImpactOde {
 public:
  LineImpactOde(const Params& p, double omega0) : p_(p), g_(p.geometry) {
    const double w0 = std::fabs(omega0);
    v_ = w0 * g_.face_width;
    om_ = w0;
    z_ = w0 * std::sqrt(g_.face_width * p.mass / g_.length);
    pp_ = p.mass * w0 / g_.length;
    e0_ = 0.5 * p.mass * g_.j_edge * omega0 * omega0;
  }

  struct Physical {
    double u, w, omega, zeta_a, zeta_b, work;
  };
  Physical physical(const State& y) const {
    return {y[0] * v_, y[1] * v_, y[2] * om_, y[3] * z_, y[4] * z_, y[5] * e0_};
  }
  State scaled(const Physical& x) const {
    State y(6);
    y << x.u / v_, x.w / v_, x.omega / om_, x.zeta_a / z_, x.zeta_b / z_, x.work / e0_;
    return y;
  }
  double impulse_scale() const { return pp_; }
  double energy_scale() const { return e0_; }

  // g1, g2 (3.6)–(3.9) from the signed roots, and the sticking g3 (3.20).
  struct Gs {
    double g1, g2, g3_stick;
  };
  Gs gs(const Physical& x) const {
    const double zeta_star = std::max(x.zeta_a, x.zeta_b);
    if (zeta_star <= 0.0) return {0.0, 0.0, 0.0};
    const ClippedIntegrals c = clipped_integrals(x.zeta_a, x.zeta_b, g_.face_width);
    const double g1 = g_.length * c.i0 / zeta_star;
    const double g2 = g_.length * c.i1 / zeta_star;
    const double h = g_.apothem;
    return {g1, g2, -p_.mass * h * g2 / (p_.mass * g_.j_c + p_.mass * h * h)};
  }
  // |F_τ/F_n| that sticking needs (§2.3: m h|g2|/(J' g1)).
  double stick_demand(const Physical& x) const {
    const Gs g = gs(x);
    return g.g1 > 0.0 ? std::fabs(g.g3_stick) / g.g1 : 0.0;
  }

  // (3.21) in the reduced variables: m du = g1 dp*, m dw = g3 dp*, J dω = (g2 + h g3) dp*,
  // dζ = −v^n/(2ζ*) dp* at A and B, dW_f = v^τ g3 dp*.
  void rhs(const State& y, State& dy) const {
    const Physical x = physical(y);
    dy.setZero(6);
    const double zeta_star = std::max(x.zeta_a, x.zeta_b);
    if (zeta_star <= 0.0) return;
    const Gs g = gs(x);
    const double h = g_.apothem, b = g_.face_width;
    const double g3 = sticking ? g.g3_stick : -p_.mu_slip * slip_sign * g.g1;
    const double du = g.g1 / p_.mass;
    const double dw = g3 / p_.mass;
    const double domega = (g.g2 + h * g3) / (p_.mass * g_.j_c);
    const double dza = -(x.u - 0.5 * b * x.omega) / (2.0 * zeta_star);
    const double dzb = -(x.u + 0.5 * b * x.omega) / (2.0 * zeta_star);
    const double dwork = (x.w + h * x.omega) * g3;
    dy << du * pp_ / v_, dw * pp_ / v_, domega * pp_ / om_, dza * pp_ / z_, dzb * pp_ / z_,
        dwork * pp_ / e0_;
  }

  double v_n_a(const Physical& x) const { return x.u - 0.5 * g_.face_width * x.omega; }
  double v_n_b(const Physical& x) const { return x.u + 0.5 * g_.face_width * x.omega; }
  double v_t(const Physical& x) const { return x.w + g_.apothem * x.omega; }
  double velocity_scale() const { return v_; }
  double kinetic(const Physical& x) const {
    return 0.5 * p_.mass * (x.u * x.u + x.w * x.w) + 0.5 * p_.mass * g_.j_c * x.omega * x.omega;
  }
  double layer(const Physical& x) const {
    return g_.length * clipped_integrals(x.zeta_a, x.zeta_b, g_.face_width).i2;
  }

  bool sticking = true;
  double slip_sign = 0.0;  // sign of v^τ while slipping

 private:
  const Params& p_;
  const PrismGeometry& g_;
  double v_, om_, z_, pp_, e0_;
};

}  // namespace

double classic_kappa(int n_sides) {
  const double c = std::cos(2.0 * pi / n_sides);
  return (7.0 * c + 2.0) / (c + 8.0);
}

LineImpactResult line_impact(const Params& p, double omega_before, const LineImpactOptions& o,
                             std::vector<LineImpactSample>* trace) {
  LineImpactResult r;
  if (!(omega_before < 0.0)) return r;
  const PrismGeometry& g = p.geometry;
  const double b = g.face_width, h = g.apothem;
  LineImpactOde m(p, omega_before);

  // pre-impact pure rotation about A (§2.3): u0 = ω0 b/2, w0 = −hω0, so v^n(ξ) = ω0 ξ, v^τ = 0
  const double u0 = 0.5 * omega_before * b, w0 = -h * omega_before;
  r.kinetic_before = m.energy_scale();

  // start-up (§2.3): all ζ vanish at p* = 0, so start at p̂ = ε with ζ_B = √(|ω0| b p*)
  double ph = o.start;
  State y = m.scaled({u0, w0, omega_before, 0.0, 0.0, 0.0});
  y[4] = std::sqrt(o.start);

  // the face starts in stick unless even the first instant needs more than μ_s (§3 step 3)
  auto choose_friction = [&](const LineImpactOde::Physical& x) {
    const LineImpactOde::Gs gs = m.gs(x);
    m.sticking = gs.g1 <= 0.0 || std::fabs(gs.g3_stick) <= p.mu_s * gs.g1;
    m.slip_sign = m.sticking ? 0.0 : -sign_of(gs.g3_stick);
    if (!m.sticking) r.sticking = false;
  };
  choose_friction(m.physical(y));

  OdeOptions oo;
  oo.scheme = Scheme::dopri5;
  oo.step = 1e-3 * o.start;
  oo.max_step = o.max_chunk;
  oo.rtol = o.rtol;
  oo.atol = o.atol;
  oo.event_time_tol = 1e-14;
  EventIntegrator ode([&m](double, const State& s, State& ds) { m.rhs(s, ds); }, oo);

  // termination (3.29): v^n ≥ 0 on all of D, i.e. at both ends (v^n is linear in ξ)
  const double vs = m.velocity_scale();
  const Event terminate{[&m, vs](double, const State& s) {
                          const LineImpactOde::Physical x = m.physical(s);
                          return std::max(-m.v_n_a(x), -m.v_n_b(x)) / vs;
                        },
                        Direction::falling};
  const Event lost{[](double, const State& s) { return std::max(s[3], s[4]); }, Direction::falling};
  const double force_scale = g.length * b;
  const Event slip_onset{[&m, &p, force_scale](double, const State& s) {
                           const LineImpactOde::Gs gs = m.gs(m.physical(s));
                           return (p.mu_s * gs.g1 - std::fabs(gs.g3_stick)) / force_scale;
                         },
                         Direction::falling};
  const Event slip_stops{
      [&m, vs](double, const State& s) { return m.slip_sign * m.v_t(m.physical(s)) / vs; },
      Direction::falling};

  // one sample per chunk: the energy invariant (§2.3), the friction demand, the stress modes
  const char* last_mode = "";
  auto sample = [&]() {
    const LineImpactOde::Physical x = m.physical(y);
    const double kinetic = m.kinetic(x), layer = m.layer(x);
    r.invariant_error =
        std::max(r.invariant_error,
                 std::fabs(kinetic + layer - x.work - r.kinetic_before) / r.kinetic_before);
    r.friction_demand = std::max(r.friction_demand, m.stick_demand(x));
    const char* mode = stress_mode(x.zeta_a, x.zeta_b);
    if (std::string(mode) != last_mode) {
      if (!r.modes.empty()) r.modes += ">";
      r.modes += mode;
      last_mode = mode;
    }
    ++r.samples;
    if (trace) {
      const double s = x.zeta_a != x.zeta_b ? b * x.zeta_a / (x.zeta_a - x.zeta_b)
                                            : std::numeric_limits<double>::quiet_NaN();
      trace->push_back({ph * m.impulse_scale(), x.u, x.w, x.omega, x.zeta_a, x.zeta_b, kinetic,
                        layer, s, mode, m.sticking});
    }
  };
  sample();

  // chunks grow geometrically from the start-up step, then at most max_chunk
  bool done = false;
  while (!done) {
    const double next = std::min(2.0 * ph, ph + o.max_chunk);
    if (next > o.max_impulse) break;
    std::optional<EventHit> hit;
    try {
      hit = ode.advance(ph, y, next, {terminate, lost, m.sticking ? slip_onset : slip_stops});
    } catch (const std::runtime_error&) {
      break;
    }
    sample();
    if (!hit) continue;
    const LineImpactOde::Physical x = m.physical(y);
    switch (hit->index) {
      case 0:
        r.outcome =
            m.v_n_b(x) <= m.v_n_a(x) ? LineImpactOutcome::pivot_b : LineImpactOutcome::rock_back_a;
        done = true;
        break;
      case 1:
        r.outcome = LineImpactOutcome::lost_contact;
        done = true;
        break;
      default:
        // stick → slip at the cone, or slip ending at v^τ = 0: decide again (3.10)–(3.11)
        if (m.sticking) {
          m.sticking = false;
          m.slip_sign = -sign_of(m.gs(x).g3_stick);
          r.sticking = false;
        } else {
          choose_friction(x);
        }
        break;
    }
  }

  // the outputs initialise the rotation about the edge at rest (3.29); the layer energy is lost
  const LineImpactOde::Physical x = m.physical(y);
  r.omega_after = x.omega;
  r.kappa = x.omega / omega_before;
  r.u_after = x.u;
  r.w_after = x.w;
  r.slip_velocity = m.v_t(x);
  r.p_star = ph * m.impulse_scale();
  r.normal_impulse = p.mass * (x.u - u0);
  r.tangential_impulse = p.mass * (x.w - w0);
  r.s_end = x.zeta_a != x.zeta_b ? b * x.zeta_a / (x.zeta_a - x.zeta_b)
                                 : std::numeric_limits<double>::quiet_NaN();
  r.kinetic_after = m.kinetic(x);
  r.layer_energy = m.layer(x);
  return r;
}

TimeDomainImpact line_impact_time_domain(const Params& p, double omega_before, double k) {
  const PrismGeometry& g = p.geometry;
  const double b = g.face_width;
  // scaled by V = |ω0| b, |ω0| and T = √(m/(K b l)); y = (z, φ, u, ω), δ = z + φ(ξ − b/2)
  const double w0 = std::fabs(omega_before);
  const double v = w0 * b;
  const double t_scale = std::sqrt(p.mass / (k * b * g.length));
  auto rhs = [&](double, const State& y, State& dy) {
    const double z = y[0] * v * t_scale, phi = y[1] * w0 * t_scale;
    const ClippedIntegrals c = clipped_integrals(-(z - 0.5 * b * phi), -(z + 0.5 * b * phi), b);
    const double du = k * g.length * c.i0 / p.mass;
    const double domega = k * g.length * c.i1 / (p.mass * g.j_face);
    dy.resize(4);
    dy << y[2], y[3], du * t_scale / v, domega * t_scale / w0;
  };
  OdeOptions oo;
  oo.scheme = Scheme::dopri5;
  oo.step = 1e-4;
  oo.max_step = 1e-2;
  oo.rtol = 1e-12;
  oo.atol = 1e-14;
  oo.event_time_tol = 1e-14;
  EventIntegrator ode(rhs, oo);
  State y(4);
  y << 0.0, 0.0, 0.5 * omega_before * b / v, omega_before / w0;
  const Event terminate{
      [](double, const State& s) { return std::max(-(s[2] - 0.5 * s[3]), -(s[2] + 0.5 * s[3])); },
      Direction::falling};
  double t = 0.0;
  const auto hit = ode.advance(t, y, 1e3, {terminate});
  const bool pivot_b = hit && (y[2] + 0.5 * y[3]) <= (y[2] - 0.5 * y[3]);
  return {y[3] * w0 / omega_before, t * t_scale, pivot_b};
}

PointImpactResult point_impact(const Params& p, double omega_before) {
  const PrismGeometry& g = p.geometry;
  const double b = g.face_width, h = g.apothem, m = p.mass, j = p.mass * g.j_c;
  // Delassus matrix of the contact at B, r_CB = (b/2)τ − h n, contact axes (n, τ)
  const impulse::Delassus w{1.0 / m + b * b / (4.0 * j), b * h / (2.0 * j), 1.0 / m + h * h / j};
  // pre-impact rotation about A: u_n(B) = ω0 b, u_t = 0
  const double u_n = omega_before * b;
  const impulse::ContactImpulse stick = impulse::newton_coulomb_impact(
      w, u_n, 0.0, 0.0, std::numeric_limits<double>::infinity(), p.mu_slip);
  const impulse::ContactImpulse ci =
      impulse::newton_coulomb_impact(w, u_n, 0.0, 0.0, p.mu_s, p.mu_slip);
  PointImpactResult r;
  r.omega_after = omega_before + (0.5 * b * ci.p_n + h * ci.p_t) / j;
  r.kappa = r.omega_after / omega_before;
  r.normal_impulse = ci.p_n;
  r.tangential_impulse = ci.p_t;
  r.friction_demand = stick.p_n > 0.0 ? std::fabs(stick.p_t / stick.p_n) : 0.0;
  r.v_n_a_after = (0.5 * omega_before * b + ci.p_n / m) - 0.5 * b * r.omega_after;
  r.sticking = ci.sticking;
  return r;
}

}  // namespace granular::prism
