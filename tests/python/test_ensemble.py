"""The step-by-step API reproduces the CLI's run bitwise (issue 14, item 4)."""
import numpy as np
import pytest

import granular
from conftest import CASES, SHORT_DEMO


def short_demo():
    return granular.load_case(CASES / "demo_sweep.json", set=SHORT_DEMO)


def follow_the_schedule(e):
    """The CLI's run (md::run_ensemble) by hand: chunks of sample_steps through settle and
    transient, θ sampled at the start of the measurement and after each of its chunks; the
    energy rows after initialization and every chunk, as energy.csv has them."""
    rows = []

    def energy_rows():
        for p in range(e.n_packings):
            k = e.energy(p)
            rows.append([e.time, p, e.gammas[p], k["kinetic"], k["rotational"],
                         k["gravitational"], k["elastic"], k["skin"], k["total"],
                         k["disk_contacts"], k["wall_contacts"]])

    s = e.schedule
    chunk = s["sample_steps"]
    energy_rows()
    for steps in (s["settle_steps"], s["transient_steps"]):
        taken = 0
        while taken < steps:
            n = min(chunk, steps - taken)
            e.advance(n)
            taken += n
            energy_rows()
    e.sample()
    for _ in range(s["measure_chunks"]):
        e.advance(chunk)
        energy_rows()
        e.sample()
    return rows


def test_the_schedule_by_hand_gives_the_clis_outputs_bitwise(demo_cli_run):
    e = granular.Ensemble(short_demo(), threads=2)
    rows = follow_the_schedule(e)
    cli = granular.read(demo_cli_run)
    energy = cli.energy
    columns = ["t", "packing", "gamma", "kinetic", "rotational", "gravitational", "elastic",
               "skin", "total", "disk_contacts", "wall_contacts"]
    assert len(rows) == len(energy["t"])
    for k, name in enumerate(columns):
        mine = np.array([r[k] for r in rows], dtype=energy[name].dtype)
        assert mine.tobytes() == energy[name].tobytes(), name
    o = e.observables()
    for name in ("packing", "gamma", "disk", "omega_bar", "rho2", "sigma_a"):
        assert o[name].tobytes() == cli.disks[name].tobytes(), name
    # the last θ sample of the first packing of every Γ is angles.csv's last rows
    angles = cli.angles
    last = angles["t"] == angles["t"][-1]
    mine = np.concatenate([e.angles(p) for p in range(0, e.n_packings, e.packings_per_gamma)])
    assert mine.tobytes() == angles["theta"][last].tobytes()


def test_steps_split_in_chunks_give_the_same_state():
    whole, split = granular.Ensemble(short_demo()), granular.Ensemble(short_demo(), threads=1)
    whole.advance(700)
    for n in (1, 99, 250, 350):
        split.advance(n)
    assert split.step == whole.step == 700
    for p in range(whole.n_packings):
        for read in ("positions", "velocities", "angles", "angular_velocities", "forces"):
            a, b = getattr(whole, read)(p), getattr(split, read)(p)
            assert a.tobytes() == b.tobytes(), (read, p)
    assert whole.positions(0).shape == (whole.packing_size(0), 2)


def test_advance_to_a_time_and_the_contacts():
    e = granular.Ensemble(short_demo(), threads=1)
    assert e.time == pytest.approx(-0.05)
    e.advance_to(0.0)
    assert abs(e.time) < e.dt / 2
    c = e.contacts(0)
    assert len(c["a"]) > 0 and (c["normal"] >= 0).all()
    assert c["point"].shape == (len(c["a"]), 2)
    assert e.status(0) == "ok"
    with pytest.raises(ValueError, match=r"^t: -1.0 s is before the ensemble's time"):
        e.advance_to(-1.0)
    with pytest.raises(IndexError):
        e.positions(e.n_packings)


def test_a_checkpoint_continues_bitwise(tmp_path):
    a = granular.Ensemble(short_demo(), threads=1)
    a.advance(300)
    a.sample()
    a.checkpoint(tmp_path / "e.bin")
    b = granular.Ensemble(short_demo(), checkpoint=tmp_path / "e.bin")
    assert b.step == 300
    for e in (a, b):
        e.advance(200)
        e.sample()
    for p in range(a.n_packings):
        assert a.positions(p).tobytes() == b.positions(p).tobytes()
    assert a.observables()["omega_bar"].tobytes() == b.observables()["omega_bar"].tobytes()
    other = granular.load_case(CASES / "demo_sweep.json", set={**SHORT_DEMO, "/seed": 5})
    with pytest.raises(granular.CaseError, match="made by a different case"):
        granular.Ensemble(other, checkpoint=tmp_path / "e.bin")


def test_a_stage_with_another_drive():
    e = granular.Ensemble(short_demo(), threads=1)
    e.advance_to(0.0)
    e.set_gamma(4.0)
    assert e.gammas == [4.0] * e.n_packings
    e.advance(100)
    f = granular.Ensemble(short_demo(), threads=1)
    f.advance_to(0.0)
    f.advance(100)
    assert e.positions(0).tobytes() != f.positions(0).tobytes()
    with pytest.raises(ValueError, match=r"^gamma: expected a number >= 0"):
        e.set_gamma(-1)


def test_a_checkpoint_keeps_the_drive_set_by_set_gamma(tmp_path):
    a = granular.Ensemble(short_demo(), threads=1)
    a.advance(200)
    a.set_gamma(3.5, packing=1)
    a.advance(100)
    a.checkpoint(tmp_path / "e.bin")
    b = granular.Ensemble(short_demo(), checkpoint=tmp_path / "e.bin")
    assert b.gammas == a.gammas
    assert b.gammas[1] == 3.5 and b.gammas[0] != 3.5
    for e in (a, b):
        e.advance(300)
    for p in range(a.n_packings):
        assert a.positions(p).tobytes() == b.positions(p).tobytes()
    # Γ changed after the checkpoint is the drive of that run only
    a.set_gamma(1.0)
    c = granular.Ensemble(short_demo(), checkpoint=tmp_path / "e.bin")
    assert c.gammas == b.gammas


def test_other_models_and_the_event_driven_method_are_refused():
    with pytest.raises(granular.CaseError, match="packing_ensemble"):
        granular.Ensemble(granular.load_case(CASES / "collision_disk_wall.json"))
    with pytest.raises(granular.CaseError, match="/method"):
        granular.Ensemble(granular.load_case(CASES / "thesis_fig3_11_ed.json"))


def test_call_arguments_raise_the_builtin_errors_and_indices_count_as_pythons():
    """Issue 20, item 8: set_gamma(g, packing=-1) changed every packing, packing=1.5 was
    truncated, advance_to(nan) said t was before the ensemble's time, and huge integers
    surfaced as nanobind's TypeError. Call arguments now raise TypeError, ValueError or
    IndexError, naming the argument; packing indices count as Python's (-1 is the last)."""
    import numpy as np
    e = granular.Ensemble(short_demo(), threads=1)
    n = e.n_packings
    e.set_gamma(3.0, packing=-1)
    assert e.gammas[-1] == 3.0 and e.gammas[:-1] == granular.Ensemble(short_demo()).gammas[:-1]
    e.set_gamma(np.float64(2.5), packing=np.int64(0))
    assert e.gammas[0] == 2.5
    assert e.positions(-1).tobytes() == e.positions(n - 1).tobytes()
    assert e.packing_size(-n) == e.packing_size(0)
    for bad, error, message in [
        (lambda: e.set_gamma(1.0, packing=1.5), TypeError, r"^packing: expected an integer, got 1.5"),
        (lambda: e.set_gamma(1.0, packing=True), TypeError, r"^packing: expected an integer"),
        (lambda: e.set_gamma(1.0, packing=n), IndexError, rf"^packing: {n} is out of range"),
        (lambda: e.set_gamma(1.0, packing=-n - 1), IndexError, r"^packing: .* out of range"),
        (lambda: e.positions(10**30), IndexError, r"^packing: 10{30}.* out of range|^packing: 1000"),
        (lambda: e.set_gamma(float("nan")), ValueError, r"^gamma: expected a finite number"),
        (lambda: e.set_gamma("2"), TypeError, r"^gamma: expected a number"),
        (lambda: e.advance_to(float("nan")), ValueError, r"^t: expected a finite number, got nan"),
        (lambda: e.advance_to(1e300), ValueError, r"^t: .* more than 10\*\*12 steps ahead"),
        (lambda: e.advance(1.5), TypeError, r"^steps: expected an integer, got 1.5"),
        (lambda: e.advance(-1), ValueError, r"^steps: expected 0 to 10\*\*12"),
        (lambda: e.advance(10**30), ValueError, r"^steps: expected 0 to 10\*\*12"),
        (lambda: granular.Ensemble(short_demo(), threads=0), ValueError, r"^threads: "),
        (lambda: granular.Ensemble(short_demo(), threads=2.0), TypeError, r"^threads: "),
    ]:
        with pytest.raises(error, match=message):
            bad()

