"""The wheel carries every file the package reads at run time: the runtime's sources in their unit folders, the
sandbox's launcher, the headers, the native scheduler, the SoC and calibration files, the editor bundle, the prompts.
setuptools takes package data by the glob patterns in pyproject.toml; a file no pattern matches works in an editable
install and is missing from a wheel."""
import glob
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "ascendcraft"
# the editor bundle's sources (static/src) build static/editor.js and are not read at run time
NOT_SHIPPED = ("static/src/",)


def packaged() -> set[Path]:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["ascendcraft"]
    return {PKG / p for pattern in patterns for p in glob.glob(pattern, root_dir=PKG, recursive=True)}


def test_every_data_file_of_the_package_is_package_data():
    tracked = subprocess.run(["git", "ls-files", "ascendcraft"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    wanted = {ROOT / f for f in tracked if not f.endswith(".py")
              and not f.removeprefix("ascendcraft/").startswith(NOT_SHIPPED)}
    assert {PKG / "runtime" / "sandbox" / "launch.cpp", PKG / "runtime" / "cube" / "emu_cube.cpp"} <= wanted
    missing = sorted(str(p.relative_to(PKG)) for p in wanted - packaged())
    assert not missing, f"not in pyproject.toml's package-data: {missing[:10]}"
