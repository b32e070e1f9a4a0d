"""A real two-node Ray cluster on this machine for tests: a head and a worker, each a `ray start --block` process
in its own session, on loopback, with a dedicated temp folder; `stop()` kills every process it started (and any
process that names its temp folder), so nothing outlives the test module."""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ascendcraft.bench import descendants

ROOT = Path(__file__).resolve().parents[1]
RAY = str(Path(sys.executable).with_name("ray"))
# First on the nodes' PYTHONPATH: what a node installed with `ascendcraft[ray]` lacks and this (workbench) environment
# has, each costing every Ray process its import (_ray_node/rfc3987_syntax.py: 1.5-1.8 CPU-s each)
NODE_SITE = str(Path(__file__).resolve().parent / "_ray_node")
# quick failure detection, no usage stats; the same for both nodes
ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_health_check_period_ms": "1000", "RAY_health_check_timeout_ms": "2000",
       "RAY_health_check_failure_threshold": "3", "RAY_health_check_initial_delay_ms": "1000"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# A raylet gives its agents ~15 s to write their port files, then aborts. On a machine whose cores are shared by
# many busy processes, Python agents take longer than that to start. So, as root, a node starts at a higher
# priority — its session's scheduler group (Linux autogroup: every session is one) and its threads — and goes back
# to the normal priority once it is up (`_settle`), so the workers and task processes it starts later compete
# like everything else.
BOOST = -10


def _boost():
    if os.geteuid() == 0: os.nice(BOOST)


def _group_nice(pid: int, value: int) -> None:
    "Set the autogroup priority of `pid`'s session (no-op where there are no autogroups or rights)."
    try: Path(f"/proc/{pid}/autogroup").write_text(str(value))
    except OSError: pass


def _settle(pids) -> None:
    "Put every thread of `pids`, and their sessions' groups, back to priority 0."
    for pid in pids:
        _group_nice(pid, 0)
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try: os.setpriority(os.PRIO_PROCESS, int(task.name), 0)
            except (OSError, ValueError): pass


class LocalCluster:
    "A head and a worker node on 127.0.0.1 with `cpus` CPUs each."

    def __init__(self, cpus: int = 1):
        self.cpus = cpus
        self.temp = Path(tempfile.mkdtemp(prefix="acray-", dir="/tmp"))    # short: Ray puts sockets in it
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.procs: dict[str, subprocess.Popen] = {}
        # TMPDIR: the nodes' temporary files (a Ray task's ascendcraft-ray-* scratch folder, which a task that Ray kills
        # never removes) go in the cluster's temp folder, which `stop` removes, not in /tmp
        self.env = {**os.environ, **ENV, "TMPDIR": str(self.temp),
                    "PYTHONPATH": os.pathsep.join(filter(None, [NODE_SITE, str(ROOT), os.environ.get("PYTHONPATH")]))}

    def _start(self, name: str, *args: str) -> subprocess.Popen:
        log = open(self.temp / f"{name}.log", "wb")
        cmd = [RAY, "start", "--block", "--node-ip-address=127.0.0.1", f"--num-cpus={self.cpus}", "--num-gpus=0",
               f"--temp-dir={self.temp}", "--object-store-memory=80000000", "--disable-usage-stats",
               f"--resources={json.dumps({f'ascendcraft_{name}': 1})}", *args]
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=self.env,
                             start_new_session=True, preexec_fn=_boost)
        if os.geteuid() == 0: _group_nice(p.pid, BOOST)
        self.procs[name] = p
        return p

    def start(self, timeout: float = 240.0, attempts: int = 3) -> LocalCluster:
        "Start the head, then the worker; a node that fails to come up (a raylet gives up on slow agents when the "
        "machine is loaded) is started again."
        for attempt in range(attempts):
            try:
                self._start("head", "--head", f"--port={self.port}", "--include-dashboard=false")
                self._wait(lambda: self._started("head"), timeout, "a started head")
                _settle(self.pids())
                break
            except RuntimeError:
                self.kill("head")
                self._sweep()                # a failed `ray start` leaves its GCS behind, reparented
                if attempt == attempts - 1: raise
                self.port = free_port()
                self.address = f"127.0.0.1:{self.port}"
        for attempt in range(attempts):
            try:
                self._start("worker", f"--address={self.address}")
                self._wait(lambda: self._started("worker"), timeout, "a started worker")
                _settle(self.pids())
                break
            except RuntimeError:
                self.kill("worker")
                if attempt == attempts - 1: raise
        return self

    def _started(self, name: str) -> bool:
        "Whether `ray start` said the node is up."
        return "Ray runtime started" in self.log(name)

    def _wait(self, ready, timeout: float, what: str):
        deadline = time.monotonic() + timeout
        while not ready():
            for name, p in self.procs.items():
                if p.poll() is not None and not self._started(name):
                    raise RuntimeError(f"ray {name} exited ({p.returncode}) while waiting for {what}: {self.log(name)}")
            if time.monotonic() > deadline: raise TimeoutError(f"no {what} after {timeout:.0f} s: {self.logs()}")
            time.sleep(0.3)

    def log(self, name: str) -> str:
        try: return (self.temp / f"{name}.log").read_text(errors="replace")[-4000:]
        except OSError: return ""

    def logs(self) -> str: return "\n".join(f"--- {n}\n{self.log(n)}" for n in self.procs)

    def pids(self, name: str | None = None) -> set[int]:
        "The processes of one node (its `ray start` and everything below it), or of the whole cluster."
        found = set()
        for n, p in self.procs.items():
            if name in (None, n): found |= {p.pid, *descendants(p.pid)}
        if name is None:
            for cmd in Path("/proc").glob("[0-9]*/cmdline"):
                try:
                    if str(self.temp).encode() in cmd.read_bytes(): found.add(int(cmd.parent.name))
                except (OSError, ValueError): pass
        found.discard(os.getpid())
        return found

    def kill(self, name: str) -> None:
        "SIGKILL one node (its raylet, its workers and their task processes)."
        pids = self.pids(name)
        try: os.killpg(self.procs[name].pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError): pass
        for pid in pids:
            try: os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError): pass
        self.procs[name].wait()

    def _sweep(self) -> None:
        "SIGKILL every process that names this cluster's temp folder."
        for pid in self.pids():
            try: os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError): pass

    def stop(self) -> None:
        "Kill every process of the cluster, twice (a dying raylet may still be starting workers), and remove the temp folder."
        for _ in range(3):
            pids = self.pids()
            for p in self.procs.values():
                try: os.killpg(p.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError): pass
            for pid in pids:
                try: os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError): pass
            for p in self.procs.values():
                try: p.wait(timeout=10)
                except subprocess.TimeoutExpired: pass
            time.sleep(0.5)
        shutil.rmtree(self.temp, ignore_errors=True)

    def leftovers(self) -> set[int]:
        "Processes of this cluster still alive (zombies excluded)."
        alive = set()
        for pid in self.pids():
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z": alive.add(pid)
            except (OSError, IndexError): pass
        return alive
