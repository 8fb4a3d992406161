"""granular.Ensemble: a packing ensemble advanced step by step (docs/python.md)."""
import os

from . import _core
from ._cases import Case, _check_threads


class Ensemble:
    """The packings of a packing_ensemble case (MD), built as ``granular run`` builds them and
    advanced by the caller. Steps split in any way give bitwise the same state, so following
    the case's ``schedule`` reproduces the CLI's run.

    Ensemble(case, threads=None, backend="cpu", checkpoint=None): checkpoint is a file written
    by :meth:`checkpoint` to continue from.

    Arrays are copies (SI units): positions(p) (n, 2) [m], velocities(p) (n, 2) [m/s],
    angles(p) (n,) unwrapped θ [rad], angular_velocities(p) (n,) [rad/s], radii(p) (n,) [m],
    forces(p) (n, 3) force x, y [N] and torque [N m] of the last force evaluation,
    contacts(p) the open contacts (dict: a, b, wall, normal [N], tangential [N], point (k, 2)
    [m]), energy(p) (dict, [J]), status(p) ("ok" or the flags).
    """

    def __init__(self, case, threads=None, backend="cpu", checkpoint=None):
        if not isinstance(case, Case):
            raise TypeError("Ensemble: expected a granular.Case (load_case or case_from_dict)")
        _check_threads(threads)
        self.case = case
        self._e = _core.Ensemble(case._loaded, backend, threads or 0,
                                 "" if checkpoint is None else os.fspath(checkpoint))

    # time
    @property
    def dt(self):
        """The time step [s]."""
        return self._e.dt

    @property
    def step(self):
        """Steps taken since the start, t0 = -settle_time."""
        return self._e.step

    @property
    def time(self):
        """The ensemble's time [s]; the drive starts at t = 0."""
        return self._e.time

    @property
    def schedule(self):
        """The case's run in steps: sample_steps (a chunk), settle_steps, transient_steps,
        measure_chunks (as ``granular run`` plans it)."""
        return self._e.schedule

    def advance(self, steps):
        """Advances every healthy packing by ``steps`` steps (the GIL released; Ctrl-C raises
        KeyboardInterrupt between slices, leaving a whole state)."""
        self._e.advance(int(steps))

    def advance_to(self, t):
        """Advances to the step nearest to time t [s]."""
        self._e.advance_to(float(t))

    # the drive
    @property
    def gammas(self):
        """Γ of every packing (Γ-major: packing p has the case's Γ number p // packings_per_gamma
        until set_gamma changes it)."""
        return self._e.gammas

    def set_gamma(self, gamma, packing=None):
        """Sets Γ (A = Γ g / ω²) of one packing or, packing=None, of all, from the next step."""
        self._e.set_gamma(float(gamma), -1 if packing is None else int(packing))

    # observables
    def sample(self):
        """Takes a θ sample of every disk of the healthy packings (the run samples at the start
        of the measurement and after each of its chunks)."""
        self._e.sample()

    def clear_samples(self):
        self._e.clear_samples()

    def observables(self):
        """ω̄ [rad/s], ρ², σ_a of every disk from the samples so far, with packing, gamma and
        disk (the columns of disks.csv)."""
        return self._e.observables()

    # the state of one packing
    @property
    def n_packings(self):
        return self._e.n_packings

    @property
    def packings_per_gamma(self):
        return self._e.packings_per_gamma

    def packing_size(self, packing):
        return self._e.packing_size(packing)

    def positions(self, packing):
        return self._e.positions(packing)

    def velocities(self, packing):
        return self._e.velocities(packing)

    def angles(self, packing):
        return self._e.angles(packing)

    def angular_velocities(self, packing):
        return self._e.angular_velocities(packing)

    def radii(self, packing):
        return self._e.radii(packing)

    def forces(self, packing):
        return self._e.forces(packing)

    def contacts(self, packing):
        return self._e.contacts(packing)

    def energy(self, packing):
        return self._e.energy(packing)

    def status(self, packing):
        return self._e.status(packing)

    def checkpoint(self, path):
        """Writes the state and the samples to ``path`` (atomically); Ensemble(case,
        checkpoint=path) continues from it bitwise, with the Γ set_gamma gave each packing."""
        self._e.checkpoint(os.fspath(path))

    def __repr__(self):
        return (f"<granular.Ensemble {self.n_packings} packings, step {self.step}, "
                f"t = {self.time:.6g} s>")
