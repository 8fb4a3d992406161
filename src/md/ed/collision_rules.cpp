#include "granular/md/ed/collision_rules.hpp"

namespace granular::md::ed {

ContactVelocity pair_contact_velocity(const DiskVelocity& a, const DiskVelocity& b, double r_a,
                                      double r_b, Vec2 e) {
  const Vec2 v = a.v - b.v;
  return {dot(v, e), dot(v, perp(e)) + r_a * a.omega + r_b * b.omega};
}

void collide_pair(DiskVelocity& a, DiskVelocity& b, double m_a, double m_b, double r_a, double r_b,
                  Vec2 e, double e_n, double e_t) {
  const ContactVelocity u = pair_contact_velocity(a, b, r_a, r_b, e);
  const double m_eff = m_a * m_b / (m_a + m_b);
  // normal and tangential impulses on a [kg m/s]; b receives the opposite
  const double p_n = -m_eff * (1.0 + e_n) * u.u_n;
  const double p_t = -m_eff * (1.0 - e_t) * u.u_t / 3.0;
  const Vec2 impulse = p_n * e + p_t * perp(e);
  a.v = a.v + (1.0 / m_a) * impulse;
  b.v = b.v - (1.0 / m_b) * impulse;
  // torque of the tangential impulse about each centre: R p_t on both (contact_law.hpp)
  a.omega += 2.0 * p_t / (m_a * r_a);
  b.omega += 2.0 * p_t / (m_b * r_b);
}

ContactVelocity wall_contact_velocity(const DiskVelocity& d, double r, Vec2 n, double v_b) {
  return {dot(d.v, n) - v_b, dot(d.v, perp(-n)) + r * d.omega};
}

void collide_wall(DiskVelocity& d, double r, Vec2 n, double v_b, double e_n, double e_t) {
  const ContactVelocity u = wall_contact_velocity(d, r, n, v_b);
  const Vec2 t = perp(-n);
  const double vn = dot(d.v, n);
  const double vt = dot(d.v, t) - (1.0 - e_t) * u.u_t / 3.0;  // (2.23)
  d.v = (-e_n * vn + (1.0 + e_n) * v_b) * n + vt * t;         // (2.11)
  d.omega -= 2.0 * (1.0 - e_t) * u.u_t / (3.0 * r);           // (2.24)
}

}  // namespace granular::md::ed
