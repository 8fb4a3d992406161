"""granular.Ensemble: a packing ensemble advanced step by step (docs/python.md)."""
from __future__ import annotations

import os
from typing import Dict, List, Optional, Union

import numpy as np

from . import _arguments, _core
from ._cases import Case, PathLike, _check_threads


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

    #: the case the packings were built from
    case: Case

    def __init__(self, case: Case, threads: Optional[int] = None, backend: str = "cpu",
                 checkpoint: Optional[PathLike] = None):
        if not isinstance(case, Case):
            raise TypeError("Ensemble: expected a granular.Case (load_case or case_from_dict)")
        _check_threads(threads)
        self.case = case
        self._e = _core.Ensemble(case._loaded, backend, threads or 0,
                                 "" if checkpoint is None else os.fspath(checkpoint))

    # time
    @property
    def dt(self) -> float:
        """The time step [s]."""
        return self._e.dt

    @property
    def step(self) -> int:
        """Steps taken since the start, t0 = -settle_time."""
        return self._e.step

    @property
    def time(self) -> float:
        """The ensemble's time [s]; the drive starts at t = 0."""
        return self._e.time

    @property
    def schedule(self) -> Dict[str, int]:
        """The case's run in steps: sample_steps (a chunk), settle_steps, transient_steps,
        measure_chunks (as ``granular run`` plans it)."""
        return self._e.schedule

    def advance(self, steps: int) -> None:
        """Advances every healthy packing by ``steps`` steps (the GIL released; Ctrl-C raises
        KeyboardInterrupt between slices, leaving a whole state)."""
        n = _arguments.integer(steps, "steps")
        if not 0 <= n <= 10**12:
            raise ValueError(f"steps: expected 0 to 10**12 (a run's most), got {n}")
        self._e.advance(n)

    def advance_to(self, t: float) -> None:
        """Advances to the step nearest to time t [s], which must not be before the
        ensemble's time."""
        t = _arguments.finite(t, "t")
        if t < self.time - 0.5 * self.dt:
            raise ValueError(f"t: {t!r} s is before the ensemble's time {self.time!r} s")
        if (t - self.time) / self.dt > 10**12:
            raise ValueError(f"t: {t!r} s is more than 10**12 steps ahead")
        self._e.advance_to(t)

    # the drive
    @property
    def gammas(self) -> List[float]:
        """Γ of every packing (Γ-major: packing p has the case's Γ number p // packings_per_gamma
        until set_gamma changes it)."""
        return self._e.gammas

    def set_gamma(self, gamma: float, packing: Optional[int] = None) -> None:
        """Sets Γ (A = Γ g / ω²) of one packing or, packing=None, of all, from the next step.
        Indices count as Python's do: packing=-1 is the last packing."""
        g = _arguments.finite(gamma, "gamma")
        if g < 0:
            raise ValueError(f"gamma: expected a number >= 0, got {g!r}")
        self._e.set_gamma(g, -1 if packing is None else self._packing(packing))

    # observables
    def sample(self) -> None:
        """Takes a θ sample of every disk of the healthy packings (the run samples at the start
        of the measurement and after each of its chunks)."""
        self._e.sample()

    def clear_samples(self) -> None:
        """Forgets the θ samples taken so far (observables() starts again from the next)."""
        self._e.clear_samples()

    def observables(self) -> Dict[str, np.ndarray]:
        """ω̄ [rad/s], ρ², σ_a of every disk from the samples so far, with packing, gamma and
        disk (the columns of disks.csv)."""
        return self._e.observables()

    # the state of one packing
    @property
    def n_packings(self) -> int:
        """The packings of the ensemble: Γ values × packings per Γ."""
        return self._e.n_packings

    @property
    def packings_per_gamma(self) -> int:
        """Packings per Γ of the case (packing p has Γ number p // packings_per_gamma)."""
        return self._e.packings_per_gamma

    def _packing(self, packing: int) -> int:
        """A packing index, Python's way (-1 is the last); IndexError or TypeError else."""
        return _arguments.index(packing, self.n_packings, "packing")

    def packing_size(self, packing: int) -> int:
        """Disks in packing ``packing`` (indices as Python's: -1 is the last packing)."""
        return self._e.packing_size(self._packing(packing))

    def positions(self, packing: int) -> np.ndarray:
        """Disk centres (n, 2) [m] of packing ``packing``."""
        return self._e.positions(self._packing(packing))

    def velocities(self, packing: int) -> np.ndarray:
        """Disk velocities (n, 2) [m/s]."""
        return self._e.velocities(self._packing(packing))

    def angles(self, packing: int) -> np.ndarray:
        """Unwrapped rotation angles θ (n,) [rad], counter-clockwise."""
        return self._e.angles(self._packing(packing))

    def angular_velocities(self, packing: int) -> np.ndarray:
        """Angular velocities ω (n,) [rad/s]."""
        return self._e.angular_velocities(self._packing(packing))

    def radii(self, packing: int) -> np.ndarray:
        """Disk radii (n,) [m]."""
        return self._e.radii(self._packing(packing))

    def forces(self, packing: int) -> np.ndarray:
        """Force x, y [N] and torque [N m] (n, 3) of the last force evaluation."""
        return self._e.forces(self._packing(packing))

    def contacts(self, packing: int) -> Dict[str, np.ndarray]:
        """The open contacts: dict of a, b, wall, normal [N], tangential [N], point (k, 2) [m]."""
        return self._e.contacts(self._packing(packing))

    def energy(self, packing: int) -> Dict[str, Union[float, int]]:
        """The energy budget of one packing, as a row of energy.csv: kinetic Σ ½ m v²,
        rotational Σ ½ I ω², gravitational Σ m g y, elastic Σ ½ k_n δ², skin Σ ½ k_t ξ², total
        [J], and the counts disk_contacts (pairs once) and wall_contacts."""
        return self._e.energy(self._packing(packing))

    def status(self, packing: int) -> str:
        """"ok", or the packing's flags joined by ','."""
        return self._e.status(self._packing(packing))

    def reach(self, packing: int) -> Dict[str, float]:
        """What the packing's drive and gravity can give its disks, which a checkpoint's state
        must stay within (docs/outputs.md, "What a checkpoint's state may hold"): ``speed`` V
        bounds |v| and the rim speed |ω| R [m/s], ``height`` the centres' y [m], ``overlap`` a
        disk's overlap with a box wall [m] (and at most its radius)."""
        return self._e.reach(self._packing(packing))

    def checkpoint(self, path: PathLike) -> None:
        """Writes the state and the samples to ``path`` (atomically); Ensemble(case,
        checkpoint=path) continues from it bitwise, with the Γ set_gamma gave each packing."""
        self._e.checkpoint(os.fspath(path))

    def __repr__(self) -> str:
        return (f"<granular.Ensemble {self.n_packings} packings, step {self.step}, "
                f"t = {self.time:.6g} s>")
