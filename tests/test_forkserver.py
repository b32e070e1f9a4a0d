"""Task processes forked by the fork server (`ascendcraft.forkserver`) keep the guarantees of a directly started task
process: killing the harness kills the server and every task process it forked, and a server that cannot start
leaves the harness starting its task processes itself, with the same results."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import ascendcraft.bench as bench
import ascendcraft.executor as executor
from ascendcraft.config import load_settings
from ascendcraft.forkserver import ForkServer

ROOT = Path(__file__).resolve().parents[1]

STANDIN = """
import time
def main(args):
    time.sleep(float(args[0]))
    return 0
"""

HARNESS = """
import sys, time
from pathlib import Path
from ascendcraft.forkserver import ForkServer
d = Path(sys.argv[1])
server = ForkServer("kill-test " + str(d), cwd=d, preload="standin_sleep")
child = server.start(["120"], d, d / "child.log")
print(server.proc.pid, child.pid, flush=True)
time.sleep(120)
"""


def _alive(pid: int) -> bool:
    try: state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError: return False
    return state != "Z"


def test_killing_the_harness_kills_the_server_and_its_task_processes(tmp_path):
    (tmp_path / "standin_sleep.py").write_text(STANDIN)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    harness = subprocess.Popen([sys.executable, "-c", HARNESS, str(tmp_path)], env=env, stdout=subprocess.PIPE, text=True)
    try:
        server, child = (int(x) for x in harness.stdout.readline().split())
        assert _alive(server) and _alive(child)
        assert os.getsid(child) == child and os.getsid(server) == server   # each in a session of its own
        assert f"kill-test {tmp_path}" in Path(f"/proc/{server}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        harness.send_signal(signal.SIGKILL)
        harness.wait()
        deadline = time.monotonic() + 10
        while (_alive(server) or _alive(child)) and time.monotonic() < deadline: time.sleep(0.05)
        assert not _alive(server), "the fork server outlived the harness that started it"
        assert not _alive(child), "a forked task process outlived the harness"
    finally:
        if harness.poll() is None: harness.kill(); harness.wait()


def test_a_server_that_cannot_start_leaves_the_harness_starting_task_processes(tmp_path, monkeypatch):
    servers = []

    def broken(specs):
        "A fork server whose import fails, as a broken environment would make it."
        s = ForkServer(tmp_path, env=bench._task_env(), cwd=tmp_path, preload="no_such_module_for_the_fork_server")
        servers.append(s)
        return s
    monkeypatch.setattr(bench, "_fork_server", broken)                          # a batch's own server
    monkeypatch.setattr(executor, "kept_server", lambda label: broken(None))    # the local pool's kept one
    rep = bench.run_bench(["relu", "softsign"], kernels=ROOT / "examples", out=tmp_path / "run", jobs=2, timing=False,
                          settings=load_settings().replace(trials=1), progress=False)
    assert [r.status for r in rep.results] == ["ok", "ok"], [(r.status, r.message) for r in rep.results]
    [server] = servers
    server.close()
    assert server.proc.returncode == 1 and not server.children   # it never started, and nothing was forked


def test_task_processes_put_torchs_large_tensors_on_huge_pages(monkeypatch):
    "A task process's environment turns on torch's huge-page allocation (bench.TORCH_HUGE_PAGES); a value set here wins."
    monkeypatch.delenv("THP_MEM_ALLOC_ENABLE", raising=False)
    assert bench._task_env()["THP_MEM_ALLOC_ENABLE"] == "1"
    monkeypatch.setenv("THP_MEM_ALLOC_ENABLE", "0")
    assert bench._task_env()["THP_MEM_ALLOC_ENABLE"] == "0"
