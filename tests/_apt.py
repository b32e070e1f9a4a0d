"""Installing a missing system package for the tests (g++ for the emulation, Chromium for the browser tests).

The README's test command runs two xdist workers, and each may find the same package missing at the same moment (both
browser workers want Chromium on a fresh machine); dpkg allows one installer at a time and fails the other at once
("Could not get lock /var/lib/dpkg/lock-frontend"). So installs here take a machine-wide lock file first, look again
whether the package arrived while they waited, and tell apt-get to wait for dpkg's own lock too (an installer that is
not ours, e.g. one started at boot)."""
import fcntl
import os
import shutil
import subprocess
from pathlib import Path

LOCK = Path("/tmp/ascendcraft-apt.lock")
DPKG_WAIT = ["-o", "DPkg::Lock::Timeout=600"]      # seconds apt-get waits for dpkg's lock instead of failing at once


def installed(package: str) -> bool:
    "Whether dpkg has `package` installed."
    done = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
    return done.returncode == 0 and done.stdout.strip().endswith("installed") and "not-installed" not in done.stdout


def apt_install(package: str, why: str) -> str:
    "Install a Debian package when we may (root with apt-get); return what went wrong, or '' when it is installed."
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return f"{why} is missing and cannot be installed here (needs root and apt-get): install the '{package}' package"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    with open(LOCK, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)               # one installer of ours at a time on this machine
        if installed(package): return ""               # another worker installed it while this one waited
        for command in (["apt-get", *DPKG_WAIT, "update", "-qq"], ["apt-get", *DPKG_WAIT, "install", "-y", "-qq", package]):
            done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
            if done.returncode != 0:
                return f"{' '.join(command)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return ""
