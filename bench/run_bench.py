#!/usr/bin/env python3
"""Benchmark harness for granular (stdlib only; `make bench` runs it).

Runs granular_bench over packing sizes, ensemble sizes, threads and backends, runs the same
vibrated bed in LAMMPS (gran/hooke/history, bench/lammps/in.vibrated_bed) on 1 thread in the
same invocation, appends one JSON record per run to --out and prints a summary table with our
speed as a ratio to LAMMPS. See bench/README.md.

  python3 bench/run_bench.py --build build [--quick] [--out FILE] [--repeat R] [--no-lammps]
"""
import argparse
import collections
import datetime
import json
import math
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LAMMPS_INPUT = os.path.join(HERE, "lammps", "in.vibrated_bed")

# The bed and contact of bench/granular_bench.cpp (keep in sync).
RHO2D = 3.57           # areal density [kg/m^2]
KN, KT = 1e4, 7.7e3    # [N/m]
GAMMA_N = 0.1          # normal dashpot [kg/s], disk-disk and disk-wall
MU = 0.1
FREQ = 80.0            # drive frequency [Hz]
G = 9.8
SKIN = 0.2 * 0.015     # [m]

# Throughput targets on 1 thread vs LAMMPS, for both integrators (docs/performance.md):
# (disks per packing, packings) -> our particle-steps/s over LAMMPS' atom-steps/s on that bed.
TARGETS = {(60, 256): 2.3, (60, 1024): 2.3, (60, 4096): 2.3, (1000, 1): 2.0, (10000, 1): 1.5}
# an ensemble's contact-steps/s within 5 % of one packing's; two threads at least 1.9x one
PER_CONTACT_TARGET = 0.95
TWO_THREADS_TARGET = 1.9

FULL = {
    "sizes": {60: [1, 16, 256, 1024, 4096], 1000: [1, 16], 10000: [1]},
    "threads": [1, 2],
    "budget": 3e7,          # timed particle-steps per run (a few seconds each)
    "min_steps": 1000,
    "warmup_budget": 6e7,   # warm-up particle-steps per run (caps the warm-up of big ensembles)
    "lammps_sizes": [60, 1000, 10000],
    "ensemble_packings": 256,
    "repeat": 2,
}
QUICK = {
    "sizes": {60: [1, 16], 1000: [1]},
    "threads": [1],
    "budget": 3e6,
    "min_steps": 500,
    "warmup_budget": 1e7,
    "lammps_sizes": [60, 1000],
    "ensemble_packings": 16,
    "repeat": 1,
}
# both integrators are timed: Gear's predictor-corrector (the thesis', every shipped case's)
# and velocity Verlet (LAMMPS' fix nve/sphere)
INTEGRATORS = ("gear5", "velocity_verlet")
MAX_WARMUP_CYCLES = 34   # ~0.43 s of drive, about what granular_bench uses by default
MIN_WARMUP_CYCLES = 4


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run_granular(exe, disks, packings, threads, backend, steps, warmup, gamma, lammps_data=None,
                 integrator="velocity_verlet"):
    """Runs granular_bench once; returns (exit code, record or None, stderr)."""
    cmd = [exe, "--disks", str(disks), "--packings", str(packings), "--threads", str(threads),
           "--backend", backend, "--integrator", integrator, "--steps", str(steps),
           "--warmup", str(warmup), "--gamma", repr(gamma)]
    if lammps_data:
        cmd += ["--write-lammps", lammps_data]
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    record = None
    for line in p.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            record = json.loads(line)
    return p.returncode, record, p.stderr.strip()


def timestep(exe, gamma):
    """dt of the bed (depends only on the lightest disk, not on N): a 1-step run prints it."""
    code, rec, err = run_granular(exe, 60, 1, 1, "cpu", 1, 0, gamma)
    if rec is None:
        sys.exit("granular_bench failed: " + err)
    return rec["dt"]


def warmup_steps(dt, cycles):
    """Warm-up steps ending at phase 3/4 of a drive period: t_w = (cycles + 3/4) / f.

    LAMMPS' fix wall/gran wiggle moves the wall as lo + A - A cos(w t') from the moment the
    fix is defined; with lo = -A that is -A cos(w t') = A sin(w (t_w + t')) iff w t_w = 3 pi/2
    (mod 2 pi), so the LAMMPS run continues our drive without a phase jump.
    """
    return int(round((cycles + 0.75) / (FREQ * dt)))


def warmup_cycles(n_particles, dt, cfg):
    steps_per_cycle = 1.0 / (FREQ * dt)
    c = int(cfg["warmup_budget"] / (n_particles * steps_per_cycle))
    return max(MIN_WARMUP_CYCLES, min(MAX_WARMUP_CYCLES, c))


def read_lammps_data(path):
    """Time, box width and radii of a data file written by granular_bench --write-lammps."""
    with open(path) as f:
        lines = f.read().splitlines()
    t = float(re.search(r"at t = ([-0-9.eE+]+)", lines[0]).group(1))
    width = None
    radii = []
    section = None
    for line in lines[1:]:
        s = line.strip()
        if not s:
            continue
        if s.endswith("xlo xhi"):
            lo, hi = map(float, s.split()[:2])
            width = hi - lo
        elif s.startswith("Atoms"):
            section = "atoms"
        elif s.startswith("Velocities"):
            section = "velocities"
        elif section == "atoms":
            radii.append(0.5 * float(s.split()[2]))
    return t, width, radii


def lammps_parameters(radii, gamma, dt, steps, data, width):
    """LAMMPS variables for bench/lammps/in.vibrated_bed (see bench/README.md).

    gran/hooke/history damps with m_eff * gamma_n * v_n, so its gamma_n is a rate: ours
    (0.1 kg/s, the same for every pair) divided by the effective mass. One value cannot match
    every pair; we take the mean m_eff over all disk pairs of the bed (disk-disk) and the mean
    disk mass (disk-wall, where m_eff = m).
    """
    counts = collections.Counter(round(r, 12) for r in radii)
    masses = {r: RHO2D * math.pi * r * r for r in counts}
    n = len(radii)
    pairs = 0.0
    meff_sum = 0.0
    for ra, ca in counts.items():
        for rb, cb in counts.items():
            npair = ca * (cb - 1) if ra == rb else ca * cb
            ma, mb = masses[ra], masses[rb]
            meff_sum += npair * ma * mb / (ma + mb)
            pairs += npair
    meff = meff_sum / pairs if pairs else masses[next(iter(masses))] / 2.0
    m_mean = sum(masses[r] * c for r, c in counts.items()) / n
    omega = 2.0 * math.pi * FREQ
    return {
        "data": data, "dt": repr(dt), "steps": str(steps), "width": repr(width),
        "amp": repr(gamma * G / (omega * omega)), "period": repr(1.0 / FREQ),
        "kn": repr(KN), "kt": repr(KT), "gn": repr(GAMMA_N / meff), "gnw": repr(GAMMA_N / m_mean),
        "mu": repr(MU), "rho2d": repr(RHO2D), "skin": repr(SKIN), "g": repr(G),
    }, meff, m_mean


def run_lammps(lmp, variables):
    """Runs LAMMPS on 1 thread, no accelerator suffix; returns a dict of what it printed."""
    cmd = [lmp, "-in", LAMMPS_INPUT, "-log", "none", "-nocite"]
    for k, v in variables.items():
        cmd += ["-var", k, v]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    out = p.stdout
    m = re.search(r"Loop time of ([0-9.eE+-]+) on (\d+) procs for (\d+) steps with (\d+) atoms", out)
    if p.returncode != 0 or not m:
        err = [l for l in (out + p.stderr).splitlines() if "ERROR" in l]
        raise RuntimeError("LAMMPS failed: " + (err[0] if err else out[-500:] + p.stderr[-500:]))
    res = {"seconds": float(m.group(1)), "steps": int(m.group(3)), "atoms": int(m.group(4))}
    nb = re.search(r"Neighbor list builds = (\d+)", out)
    res["neighbor_builds"] = int(nb.group(1)) if nb else None
    perf = re.search(r"Performance: (.*)", out)
    res["performance_line"] = perf.group(1).strip() if perf else ""
    katom = re.search(r"([0-9.eE+-]+) katom-step/s", out)
    res["katom_step_per_s_reported"] = float(katom.group(1)) if katom else None
    # thermo: header "Step Time KinEng c_erot v_contacts_per_disk v_ymean", first and last row
    lines = out.splitlines()
    rows = []
    for i, l in enumerate(lines):
        if l.split()[:2] == ["Step", "Time"]:
            for r in lines[i + 1:]:
                parts = r.split()
                if not parts or not re.match(r"^-?\d", parts[0]):
                    break
                rows.append([float(x) for x in parts])
    if rows:
        res["ke_translation"] = [rows[0][2], rows[-1][2]]
        res["ke_rotation_sphere_inertia"] = [rows[0][3], rows[-1][3]]
        res["contacts_per_disk"] = 0.5 * (rows[0][4] + rows[-1][4])
        res["y_mean"] = [rows[0][5], rows[-1][5]]
    ver = re.search(r"LAMMPS \((.*?)\)", out)
    res["version"] = ver.group(1) if ver else "unknown"
    return res


def lammps_build_info(lmp):
    info = {}
    try:
        h = subprocess.run([lmp, "-h"], capture_output=True, text=True).stdout
        m = re.search(r"Compiler: (.*)", h)
        info["compiler"] = m.group(1).strip() if m else "unknown"
    except OSError:
        info["compiler"] = "unknown"
    try:
        v = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "lammps"], capture_output=True,
                           text=True).stdout.strip()
        info["flags"] = "Debian package lammps " + v if v else "unknown"
    except OSError:
        info["flags"] = "unknown"
    return info


_COMMIT = []


def git_commit():
    """HEAD when the harness started (others may commit while it runs)."""
    if _COMMIT:
        return _COMMIT[0]
    p = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                       text=True)
    _COMMIT.append(p.stdout.strip())
    return _COMMIT[0]


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def mpi_ensemble(build, quick, emit):
    """The demo ensemble (cases/demo_sweep.json, 6 Γ x 4 packings of 60 disks, shortened) run by
    `granular run` in one process on 1 thread and by `mpirun -np K granular run` on 1 thread per
    rank, K = 1, 2, 4, ... up to the cores: wall-clock throughput (the run's particle-steps over
    its wall time, start-up, transfer and merge included) as a ratio to the one process. Returns
    [(ranks, particle-steps/s, ratio)]; empty when mpirun or an MPI build is missing."""
    exe = os.path.join(build, "granular")
    mpirun = shutil.which("mpirun")
    if mpirun is None or not os.access(exe, os.X_OK):
        log("note: no mpirun or no granular binary; the MPI ensemble runs are skipped")
        return []
    case = os.path.join(ROOT, "cases", "demo_sweep.json")
    sets = ["--set", "/run/settle_time=0.05", "--set", "/run/transient_time=0.05",
            "--set", "/run/measure_time=%g" % (0.5 if quick else 2.0)]
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMP_NUM_THREADS="1")
    tmp = tempfile.mkdtemp(prefix="granular_bench_mpi_")

    def rate(launcher, name):
        out = os.path.join(tmp, name)
        start = time.monotonic()
        p = subprocess.run(launcher + [exe, "run", case, "--out", out, "--threads", "1",
                                       "--checkpoint-interval", "0"] + sets,
                           capture_output=True, text=True, env=env)
        wall = time.monotonic() - start
        if p.returncode != 0:
            log("  failed (exit %d): %s" % (p.returncode, p.stderr.strip().splitlines()[-1:]))
            return None
        with open(os.path.join(out, "summary.json")) as f:
            return json.load(f)["particle_steps"] / wall

    ranks = [1, 2]
    while ranks[-1] * 2 <= (os.cpu_count() or 1):
        ranks.append(ranks[-1] * 2)
    rows = []
    try:
        log("granular run demo ensemble, 1 process, 1 thread")
        one = rate([], "single")
        for k in ranks if one else []:
            log("mpirun -np %d granular run demo ensemble, 1 thread per rank" % k)
            r = rate([mpirun, "-q", "--bind-to", "none", "-np", str(k)], "np%d" % k)
            if r is None:
                return rows
            rows.append((k, r, r / one))
            emit({"bench": "mpi_ensemble", "case": "demo_sweep_short", "backend": "cpu",
                  "threads": 1, "ranks": k, "particle_steps_per_s": r,
                  "single_process_particle_steps_per_s": one, "ratio_to_single_process": r / one,
                  "git_commit": git_commit(), "host": socket.gethostname(), "cpu": cpu_model()})
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return rows


def fmt(x):
    if x is None:
        return "-"
    if x >= 1e6:
        return "%.2fM" % (x / 1e6)
    if x >= 1e3:
        return "%.1fk" % (x / 1e3)
    return "%.3g" % x


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--build", default="build", help="directory holding granular_bench")
    ap.add_argument("--quick", action="store_true", help="short matrix (smoke test)")
    ap.add_argument("--out", default=None, help="JSONL file to append to "
                    "(default bench/results/<host>.jsonl)")
    ap.add_argument("--repeat", type=int, default=None,
                    help="repeats of each LAMMPS comparison (ours and LAMMPS alternate; best kept)")
    ap.add_argument("--gamma", type=float, default=2.0, help="drive Γ = A ω² / g")
    ap.add_argument("--no-lammps", action="store_true", help="skip the LAMMPS comparison")
    ap.add_argument("--lmp", default=None, help="LAMMPS binary (default: lmp on PATH)")
    args = ap.parse_args()
    cfg = QUICK if args.quick else FULL
    repeat = args.repeat if args.repeat else cfg["repeat"]

    exe = os.path.join(args.build, "granular_bench")
    if not os.access(exe, os.X_OK):
        sys.exit("no granular_bench in %s (build it: make build, or cmake --build %s "
                 "--target granular_bench)" % (args.build, args.build))
    host = socket.gethostname()
    out_path = args.out or os.path.join(HERE, "results", host + ".jsonl")
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    git_commit()
    run_id = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    common = {"run_id": run_id, "matrix": "quick" if args.quick else "full"}

    lmp = None
    if not args.no_lammps:
        lmp = args.lmp or shutil.which("lmp") or shutil.which("lmp_serial")
        if lmp is None:
            log("note: LAMMPS not found (apt-get install lammps, or make deps-bench); "
                "skipping the comparison")
    lmp_info = lammps_build_info(lmp) if lmp else {}

    records = []
    out_file = open(out_path, "a")

    def emit(rec):
        rec = dict(common, **rec)
        records.append(rec)
        out_file.write(json.dumps(rec, sort_keys=True) + "\n")
        out_file.flush()
        return rec

    dt = timestep(exe, args.gamma)
    log("dt = %.6g s, %.1f steps per drive period" % (dt, 1.0 / (FREQ * dt)))

    # CUDA only if a device is present (granular_bench --backend cuda exits 2 otherwise).
    code, _, err = run_granular(exe, 60, 1, 1, "cuda", 1, 0, args.gamma)
    backends = [("cpu", t) for t in cfg["threads"]]
    if code == 0:
        backends.append(("cuda", 1))
    else:
        log("note: no CUDA device/backend (%s); cuda runs skipped" % (err.splitlines() or ["exit %d" % code])[-1])

    tmpdir = tempfile.mkdtemp(prefix="granular_bench_")
    lammps_rate = {}  # size -> best LAMMPS atom-steps/s
    ours_rate = {}    # (size, packings, backend, threads, integrator) -> best particle-steps/s
    # (size, warm-up steps, integrator) -> contact-steps/s of one packing on 1 thread: the
    # reference of the ensembles warmed up as long
    one_packing_contacts = {}

    def bench_run(disks, packings, threads, backend, steps, warm, integrator, case, rep=0,
                  note="", data=None):
        """Runs granular_bench once, logs it and emits its record; returns it, or None."""
        log("granular %5d disks x %4d packings, %s %d thread(s), %s, %d steps (warm-up %d)%s" % (
            disks, packings, backend, threads, integrator, steps, warm, note))
        code, rec, err = run_granular(exe, disks, packings, threads, backend, steps, warm,
                                      args.gamma, data, integrator)
        if rec is None:
            log("  failed (exit %d): %s" % (code, err))
            return None
        rec["case"] = case
        rec["exit_code"] = code
        rec["repeat"] = rep
        emit(rec)
        if packings == 1 and threads == 1 and backend == "cpu":
            one_packing_contacts[(disks, warm, integrator)] = rec["contact_steps_per_s"]
        return rec

    try:
        for disks, packing_list in cfg["sizes"].items():
            for packings in packing_list:
                n = disks * packings
                steps = max(cfg["min_steps"], int(cfg["budget"] / n))
                cycles = warmup_cycles(n, dt, cfg)
                warm = warmup_steps(dt, cycles)
                compare = (lmp is not None and packings == 1 and disks in cfg["lammps_sizes"])
                # both integrators: Gear's is the thesis' and every shipped case's, Verlet's the
                # one LAMMPS runs; the LAMMPS bed is written by the Verlet run
                for (backend, threads), integrator in [(b, i) for b in backends
                                                       for i in INTEGRATORS]:
                    one_thread_cpu = backend == "cpu" and threads == 1
                    reps = repeat if (one_thread_cpu and (compare or (
                        disks == 60 and packings == cfg["ensemble_packings"]))) else 1
                    for rep in range(reps):
                        data = None
                        if compare and one_thread_cpu and integrator == "velocity_verlet":
                            data = os.path.join(tmpdir, "bed_%d.data" % disks)
                        rec = bench_run(disks, packings, threads, backend, steps, warm,
                                        integrator, "vibrated_bed_N%d_P%d" % (disks, packings),
                                        rep, " [rep %d]" % (rep + 1) if reps > 1 else "", data)
                        if rec is None:
                            continue
                        key = (disks, packings, backend, threads, integrator)
                        ours_rate[key] = max(ours_rate.get(key, 0.0), rec["particle_steps_per_s"])
                        ours_rate[key + ("contacts",)] = rec["contact_steps_per_s"]
                        if data is None:
                            continue
                        # the same bed, the same steps, LAMMPS on 1 thread, right after ours
                        t_data, width, radii = read_lammps_data(data)
                        variables, meff, m_mean = lammps_parameters(radii, args.gamma, dt, steps,
                                                                    data, width)
                        phase = (t_data * FREQ) % 1.0
                        log("lammps   %5d atoms, 1 thread, %d steps" % (disks, steps))
                        try:
                            lr = run_lammps(lmp, variables)
                        except RuntimeError as e:
                            log("  " + str(e))
                            continue
                        atom_steps = lr["atoms"] * lr["steps"] / lr["seconds"]
                        cpd = lr.get("contacts_per_disk")
                        lrec = {
                            "bench": "vibrated_bed", "case": "vibrated_bed_N%d_P1" % disks,
                            "disks_per_packing": disks, "packings": 1, "backend": "lammps",
                            "threads": 1, "integrator": "velocity_verlet (fix nve/sphere disc)",
                            "precision": "fp64", "gamma": args.gamma, "dt": dt,
                            "steps": lr["steps"], "warmup_steps": warm, "seconds": lr["seconds"],
                            "particle_steps_per_s": atom_steps,
                            "contact_steps_per_s": (cpd * lr["atoms"] * lr["steps"] / lr["seconds"]
                                                    if cpd is not None else None),
                            "contacts_per_disk": cpd,
                            "rebuilds_per_1000_steps": (1000.0 * lr["neighbor_builds"] / lr["steps"]
                                                        if lr["neighbor_builds"] is not None else None),
                            "lammps_version": lr["version"],
                            "lammps_performance": lr["performance_line"],
                            "lammps_katom_step_per_s_reported": lr["katom_step_per_s_reported"],
                            "ke_translation": lr.get("ke_translation"),
                            "y_mean": lr.get("y_mean"),
                            "drive_phase_at_start_cycles": phase,
                            "lammps_gamma_n_pair_per_s": float(variables["gn"]),
                            "lammps_gamma_n_wall_per_s": float(variables["gnw"]),
                            "mean_pair_m_eff": meff, "mean_disk_mass": m_mean,
                            "compiler": lmp_info.get("compiler"), "flags": lmp_info.get("flags"),
                            "git_commit": git_commit(), "host": host, "cpu": cpu_model(),
                            "repeat": rep,
                        }
                        emit(lrec)
                        lammps_rate[disks] = max(lammps_rate.get(disks, 0.0), atom_steps)
                        log("  ours %s vs LAMMPS %s particle-steps/s; contacts/disk %.2f vs %s" % (
                            fmt(rec["particle_steps_per_s"]), fmt(atom_steps),
                            rec["contacts_per_disk"], "%.2f" % cpd if cpd is not None else "-"))
                    if one_thread_cpu and packings > 1:
                        # the rate per contact against one packing warmed up as long as the
                        # ensemble: big ensembles' warm-up is capped, and a bed's contacts per
                        # disk, which decide what a contact costs, change as it settles; run
                        # once per warm-up (the single bed's own run, when it is the same)
                        if (disks, warm, integrator) not in one_packing_contacts:
                            bench_run(disks, 1, 1, "cpu",
                                      max(cfg["min_steps"], int(cfg["budget"] / disks)), warm,
                                      integrator,
                                      "vibrated_bed_N%d_P1_reference_for_P%d" % (disks, packings),
                                      note=", per-contact reference")
                        reference = one_packing_contacts.get((disks, warm, integrator))
                        if reference:
                            ours_rate[(disks, packings, "cpu", 1, integrator, "reference")] = \
                                reference
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)

    mpi_rows = mpi_ensemble(args.build, args.quick, emit)

    # ratios: the best of the repeats on each side
    summary = []
    for (key, rate) in ours_rate.items():
        if len(key) != 5:
            continue
        disks, packings, backend, threads, integrator = key
        ratio = None
        if backend == "cpu" and threads == 1 and disks in lammps_rate:
            ratio = rate / lammps_rate[disks]
        summary.append((disks, packings, backend, threads, integrator, rate,
                        ours_rate[key + ("contacts",)], ratio))
    ratio_rec = {"bench": "vibrated_bed", "backend": "summary", "host": host,
                 "git_commit": git_commit(), "lammps_atom_steps_per_s": {str(k): v for k, v in
                                                                        lammps_rate.items()},
                 "ratio_to_lammps_1thread": {"N%d_P%d_%s" % (d, p, i): r
                                             for d, p, b, t, i, _, _, r in summary
                                             if r is not None},
                 "targets": {"N%d_P%d" % k: v for k, v in TARGETS.items()}}
    emit(ratio_rec)
    out_file.close()

    print()
    print("granular vibrated-bed benchmark  (%s, %s, commit %s, run %s)" % (
        host, cpu_model(), git_commit(), run_id))
    hdr = "%7s %9s %8s %7s %16s %16s %16s %10s" % (
        "disks", "packings", "backend", "threads", "integrator", "particle-steps/s",
        "contact-steps/s", "vs LAMMPS")
    print(hdr)
    print("-" * len(hdr))
    for disks, packings, backend, threads, integrator, rate, crate, ratio in sorted(summary):
        print("%7d %9d %8s %7d %16s %16s %16s %10s" % (
            disks, packings, backend, threads, integrator, fmt(rate), fmt(crate),
            "%.2fx" % ratio if ratio else ""))
    for disks in sorted(lammps_rate):
        lr = [r for r in records if r.get("backend") == "lammps" and r["disks_per_packing"] == disks]
        crate = max((r["contact_steps_per_s"] or 0.0) for r in lr) if lr else None
        print("%7d %9d %8s %7d %16s %16s %16s %10s" % (
            disks, 1, "lammps", 1, "velocity_verlet", fmt(lammps_rate[disks]), fmt(crate),
            "1.00x"))
    print()
    print("targets (1 thread, our particle-steps/s over LAMMPS atom-steps/s, best of %d):" % repeat)
    for (disks, packings), target in TARGETS.items():
        if disks not in lammps_rate:
            print("  %5d disks: target %.1fx  - not measured" % (disks, target))
            continue
        for integrator in INTEGRATORS:
            rate = ours_rate.get((disks, packings, "cpu", 1, integrator))
            if rate is None:
                print("  %5d disks, %s: target %.1fx  - no 1-thread run with %d packings" % (
                    disks, integrator, target, packings))
                continue
            ratio = rate / lammps_rate[disks]
            verdict = "met" if ratio >= target else "missed by %.2fx" % (target / ratio)
            what = "%d-packing ensemble" % packings if packings > 1 else "single bed"
            print("  %5d disks (%s), %s: %.2fx LAMMPS, target %.1fx: %s" % (
                disks, what, integrator, ratio, target, verdict))
    # per contact, an ensemble against one packing of the same size warmed up alike (the
    # physics differs in contacts per disk, not in the work per contact), and two threads
    # against one
    print("ensembles per contact (1 thread, contact-steps/s over one packing's with the same "
          "warm-up, target %.2f) and on two threads (over one, target %.1fx):" % (
              PER_CONTACT_TARGET, TWO_THREADS_TARGET))
    for (disks, packings, backend, threads, integrator), rate in sorted(
            (k, v) for k, v in ours_rate.items() if len(k) == 5):
        if backend != "cpu" or threads != 1 or packings == 1:
            continue
        one = ours_rate.get((disks, packings, "cpu", 1, integrator, "reference"))
        mine = ours_rate.get((disks, packings, "cpu", 1, integrator, "contacts"))
        two = ours_rate.get((disks, packings, "cpu", 2, integrator))
        line = "  %5d disks x %4d packings, %-15s" % (disks, packings, integrator)
        if one and mine:
            r = mine / one
            line += "  per contact %.2f (%s)" % (r, "met" if r >= PER_CONTACT_TARGET else "missed")
        if two:
            r2 = two / rate
            line += "  two threads %.2fx (%s)" % (r2, "met" if r2 >= TWO_THREADS_TARGET
                                                  else "missed")
        print(line)
    if mpi_rows:
        print()
        print("packing ensemble over MPI ranks (demo sweep, 1 thread per rank, wall clock):")
        for k, r, ratio in mpi_rows:
            print("  %2d rank(s): %s particle-steps/s, %.2fx one process" % (k, fmt(r), ratio))
    print("\nrecords appended to %s" % out_path)


if __name__ == "__main__":
    main()
