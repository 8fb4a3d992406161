"""tools/drift_vs_diffusion.py on synthetic angles (issue 33, item 5; docs/reproduce.md, "The low
branch against the full 1 000 s"): a disk turning at Ω whose angle also diffuses with D gives
⟨ω̄²⟩(T) = Ω² + 2D/T; the tool's fit returns Ω² and 2D, and --reference pairs each window with
the longest one over the same packings."""
import math
import random
import re
import subprocess
import sys

from conftest import SOURCE_DIR

TOOL = str(SOURCE_DIR / "tools" / "drift_vs_diffusion.py")


def write_run(folder, omegas, d_coeff, seed, span=1000, dt=1.0):
    """angles.csv of one packing at Γ = 0.5: disk k turns at omegas[k] and diffuses with D."""
    folder.mkdir()
    rng = random.Random(seed)
    with open(folder / "angles.csv", "w") as f:
        f.write("t,gamma,packing,disk,theta\n")
        theta = [0.0] * len(omegas)
        for i in range(int(span / dt) + 1):
            for k, om in enumerate(omegas):
                f.write(f"{i * dt!r},0.5,0,{k},{theta[k]!r}\n")
                theta[k] += om * dt + math.sqrt(2.0 * d_coeff * dt) * rng.gauss(0.0, 1.0)
    return folder


def run_tool(folders, windows):
    out = subprocess.run([sys.executable, TOOL, *map(str, folders), "--windows", windows,
                          "--reference", "1000"], capture_output=True, text=True, check=True)
    return out.stdout


def test_a_steady_rotation_gives_every_window_the_same_mean_square_rate(tmp_path):
    runs = [write_run(tmp_path / f"r{s}", [0.01, -0.02, 0.005], 0.0, s) for s in range(3)]
    text = run_tool(runs, "10,100,1000")
    line = next(l for l in text.splitlines() if l.startswith("Γ = 0.5"))
    assert "3 packings" in line
    shares = [float(x) for x in re.findall(r"([+-]\d+\.\d)%", line)]
    assert shares and all(s == 0.0 for s in shares), line


def test_the_fit_returns_the_drift_and_the_diffusion(tmp_path):
    omega, d_coeff = 0.02, 2e-4  # Ω² = 4e-4 rad²/s², 2D = 4e-4 rad²/s
    runs = [write_run(tmp_path / f"r{s}", [omega] * 40, d_coeff, s) for s in range(4)]
    text = run_tool(runs, "5,10,20,50,100,200,1000")
    row = next(l for l in text.splitlines() if l.startswith("0.5 "))
    numbers = [float(x) for x in re.findall(r"-?\d+\.?\d*(?:e-?\d+)?", row)]
    # Γ, packings, 7 windows × (mean, SE), a, SE, b, SE, shares
    a, b = numbers[16], numbers[18]
    assert abs(a - omega**2) < 0.1 * omega**2, row
    assert abs(b - 2 * d_coeff) < 0.15 * 2 * d_coeff, row
    # the 10 s window lies 2D/10 above Ω² + 2D/1000: about 100 % of the 1 000 s value
    line = next(l for l in text.splitlines() if l.startswith("Γ = 0.5"))
    ten = float(re.search(r"10 s ([+-]\d+\.\d)%", line).group(1))
    expected = 100 * (2 * d_coeff / 10 - 2 * d_coeff / 1000) / (omega**2 + 2 * d_coeff / 1000)
    assert abs(ten - expected) < 0.15 * expected, line
