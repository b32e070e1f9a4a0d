"""Installing a missing system package for the tests (g++ for the emulation, Chromium for the browser tests)."""
import os
import shutil
import subprocess


def apt_install(package: str, why: str) -> str:
    "Install a Debian package when we may (root with apt-get); return what went wrong, or '' when it is installed."
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return f"{why} is missing and cannot be installed here (needs root and apt-get): install the '{package}' package"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", package]):
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            return f"{' '.join(command)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return ""
