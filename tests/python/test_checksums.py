"""summary.json's file records hold standard checksums (issue 35): XXH64, which `xxhsum -H1`
(Debian's xxhash) verifies file by file."""
import json
import shutil
import subprocess

from conftest import SHORT_DEMO, granular_cli, set_args


def test_xxhsum_verifies_every_recorded_file(tmp_path):
    xxhsum = shutil.which("xxhsum")
    assert xxhsum, "xxhsum is missing (scripts/install_deps.sh installs Debian's xxhash)"
    out = tmp_path / "demo"
    granular_cli("run", "demo_sweep", "--out", out, "--quiet", *set_args(SHORT_DEMO))
    files = json.loads((out / "summary.json").read_text())["files"]
    assert any(name.startswith("snapshots/") for name in files), sorted(files)
    for name, record in files.items():
        line = subprocess.run([xxhsum, "-H1", str(out / name)], capture_output=True, text=True,
                              check=True).stdout
        assert line.split()[0] == record["checksum"], name
        assert (out / name).stat().st_size == record["bytes"], name
