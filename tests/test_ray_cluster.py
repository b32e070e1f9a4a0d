"""The benchmark on a real two-node Ray cluster on this machine (a head and a worker, two `ray start` processes on
loopback): the same verdicts and modelled timings as the local pool, a killed driver resumes, a killed worker's
tasks are rerun elsewhere, and nothing is lost or duplicated. One cluster for the module, stopped at the end with
every process it started."""
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from _cache import share_builds
from _ray_cluster import LocalCluster
from ascendcraft.bench import run_bench, verification_mb
from ascendcraft.config import load_settings
from ascendcraft.executor import LocalPool, RayExecutor, read_execution
from ascendcraft.report import report
from ascendcraft.taskset import get_task

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "examples"
SETTINGS = load_settings().replace(trials=1, ray_address="")
VOLATILE = ("stage_seconds", "seal")     # the seal covers the wall times


@pytest.fixture(scope="module")
def cluster():
    c = LocalCluster(cpus=1)
    executor = None
    try:
        c.start()
        executor = RayExecutor(c.address, poll=0.2)
        executor.connect()
        deadline = time.monotonic() + 240
        while len(executor.nodes()) < 2:
            assert time.monotonic() < deadline, f"the worker did not join: {c.logs()}"
            time.sleep(0.5)
        yield c, executor
    finally:
        if executor is not None: executor.close()
        c.stop()
        assert not c.leftovers(), "processes of the test cluster outlived it"


def node_of(executor: RayExecutor, role: str) -> str:
    "The node name (as tasks report it) of the head or the worker."
    for n in executor.connect().nodes():
        if n["Alive"] and f"ascendcraft_{role}" in n["Resources"]:
            return f"{n['NodeManagerAddress']}/{n['NodeID'][:6]}"
    raise AssertionError(f"no live {role} node")


def results(out: Path) -> list[dict]:
    return [{k: v for k, v in r.to_dict().items() if k not in VOLATILE} for r in report(out, write=False).results]


def test_ray_run_gives_the_local_verdicts_and_modelled_timings(cluster, tmp_path):
    c, executor = cluster
    tasks = ["relu", "sgd"]
    on_ray = run_bench(tasks, kernels=KERNELS, out=tmp_path / "ray", settings=SETTINGS, progress=False, executor=executor)
    local = run_bench(tasks, kernels=KERNELS, out=tmp_path / "local", settings=SETTINGS, progress=False,
                      executor=LocalPool(2))
    assert [r.status for r in on_ray.results] == ["ok", "ok"]
    assert all(r.timing and r.timing["kind"] == "modelled" for r in on_ray.results)
    assert results(tmp_path / "ray") == results(tmp_path / "local")
    assert on_ray.metrics_table() == local.metrics_table()
    record = read_execution(tmp_path / "ray")
    [session] = record["sessions"]
    assert session["executor"] == "ray" and len(session["nodes"]) == 2 and session["cpu_s"] > 0
    assert {t["node"] for t in record["tasks"].values()} == {node_of(executor, "head"), node_of(executor, "worker")}
    # the run's board actor (alive while the executor holds it) imported Ray and its own small module, not torch
    boards = [pid for pid in c.pids() if cmdline(pid).startswith("ray::_Board")]
    assert boards and not any("libtorch" in maps(pid) for pid in boards), boards
    # each Ray worker keeps the fork server its first task started (`executor._worker_server`): the worker's next task
    # processes are forks of it, not fresh interpreters
    servers = {pid: parent(pid) for pid in c.pids() if "ascendcraft.forkserver" in cmdline(pid)}
    assert servers and all(cmdline(p).startswith("ray::") for p in servers.values()), servers
    # the nodes import Ray as a node installed with `ascendcraft[ray]` does: without the workbench's rfc3987_syntax
    imported = ray.remote(num_cpus=0)(lambda module: module in sys.modules)      # in a worker process of a node
    assert ray.get([imported.remote("rfc3987_syntax"), imported.remote("jsonschema")]) == [False, True]


def parent(pid: int) -> int:
    try: return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError): return 0


def cmdline(pid: int) -> str:
    try: return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError: return ""


def maps(pid: int) -> str:
    "The files mapped into process `pid` (its shared libraries among them)."
    try: return Path(f"/proc/{pid}/maps").read_text()
    except OSError: return ""


def test_a_full_shape_task_reserves_its_verification_memory_on_ray(cluster, tmp_path):
    "Ray schedules a full-shape verification by the memory it holds (TaskSpec.memory_mb), as the local pool does."
    c, executor = cluster
    run = run_bench(["sgd"], kernels=KERNELS, out=tmp_path / "ray", settings=SETTINGS, progress=False, executor=executor,
                    size="full", timing=False)
    [result] = run.results
    assert (result.status, result.size) == ("ok", "full")
    [task] = read_execution(tmp_path / "ray")["tasks"].values()
    need = verification_mb(get_task("sgd"), "full", SETTINGS)
    assert need > 100 and task["memory_mb"] == pytest.approx(need, abs=0.1)     # Ray's `memory` resource, as it saw it


STAGED = re.compile(r"/ascendcraft-ray-[^/]+/out/([^/]+)/([^/]+)(/|$)")


def folder_of(pid) -> str:
    "The working folder of process `pid` ('' when it is gone)."
    try: return os.readlink(f"/proc/{pid}/cwd")
    except OSError: return ""


def staged_task_processes() -> list[int]:
    "Task processes working in a Ray scratch folder's task folder (forked by a Ray worker's fork server, or started "
    "fresh: either way their working folder is the task's)."
    return [int(p.name) for p in Path("/proc").glob("[0-9]*") if STAGED.search(folder_of(p.name))]


def test_killed_driver_resumes_without_redoing_finished_tasks(cluster, tmp_path):
    c, executor = cluster
    tasks, out = ["relu", "softsign", "sgd"], tmp_path / "killed"
    started = time.time()
    env = {**os.environ, "ASCENDCRAFT_TRIALS": "1", "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen([sys.executable, "-m", "ascendcraft.cli", "bench", "--ray", c.address, "--no-timing", "--size", "small", "--quiet",
                             "--out", str(out), "--kernels", str(KERNELS), *[a for t in tasks for a in ("--task", t)]],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    while not list(out.glob("*/*/result.json")):
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    finished = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in out.glob("*/*/result.json")}
    assert 1 <= len(finished) < len(tasks)
    deadline = time.monotonic() + 60           # Ray ends the dead driver's tasks, and with them the task processes
    while staged_task_processes():
        assert time.monotonic() < deadline, "task processes outlived the killed driver"
        time.sleep(0.5)
    time.sleep(1.0)
    assert set(out.glob("*/*/result.json")) == set(finished)                # nobody writes after the kill
    # the killed tasks' scratch folders are in the cluster's temp folder (removed with the cluster), none in /tmp
    assert not [p for p in Path("/tmp").glob("ascendcraft-ray-*") if p.stat().st_mtime >= started - 1]

    resumed = run_bench(tasks, kernels=KERNELS, out=out, timing=False, settings=SETTINGS, progress=False, executor=executor)
    assert [r.status for r in resumed.results] == ["ok"] * len(tasks)
    for path, (mtime, data) in finished.items():
        assert path.stat().st_mtime_ns == mtime and path.read_bytes() == data, f"{path} was redone"
    record = read_execution(out)
    assert sorted(record["tasks"]) == sorted(f"{r.category}/{r.task}" for r in resumed.results)
    assert record["sessions"][-1]["tasks"] == len(tasks) - len(finished)


def test_pass_at_k_of_four_samples_on_ray(cluster, tmp_path):
    "Stage 1 and the benchmarks of the samples run as Ray tasks; the scripted endpoint answers the nodes."
    from test_samples import GOOD, KEY, WRONG, fenced, scripted_settings
    from ascendcraft.llm_server import FakeLLMServer
    from ascendcraft.samples import sample_sweep
    c, executor = cluster
    import uuid
    board = executor._new_board()[0]          # the executor's board actor (an earlier test's run started it, or this)
    with FakeLLMServer([fenced(GOOD), fenced(WRONG), fenced(GOOD), fenced(WRONG)], models=None) as srv:
        sweep = sample_sweep(["leaky_relu"], samples=4, out=tmp_path, settings=scripted_settings(srv.base_url, f"scripted-{uuid.uuid4().hex[:8]}"),
                             rounds=1, timing=False, executor=executor)
        assert len(srv.chat_requests) == 4
    assert sweep.counts("Ascend910B2") == {KEY: (4, 2)}
    assert [round(sweep.at_k("Ascend910B2", k), 4) for k in (1, 2, 4)] == [0.5, round(1 - 1 / 6, 4), 1.0]
    nodes = {t["node"] for j in range(4) for t in read_execution(tmp_path / "bench" / "Ascend910B2" / f"s{j}")["tasks"].values()}
    assert nodes and all("/" in n for n in nodes)                     # Ray nodes, not the local pool
    assert executor._board_actor is board      # the sweep's runs (its samples, four benchmarks at once) shared it


def fresh_cache(tmp_path, monkeypatch) -> Path:
    "A cache of the test's own (no earlier LLM replies), sharing this machine's content-addressed emulator builds."
    cache = share_builds(tmp_path / "cache")
    monkeypatch.setenv("ASCENDCRAFT_CACHE_DIR", str(cache))
    return cache


def test_calibrate_and_tune_on_ray_match_the_local_run(cluster, tmp_path, monkeypatch, capsys):
    "`calibrate --stand-in --ray` writes the local profile; `tune --ray` prints the local variant table."
    import ascendcraft.executor as ex
    from ascendcraft.calibrate import measure_item, measure_kernel_item
    from ascendcraft.cli import main
    from ascendcraft.generate import evaluate_variant
    from ascendcraft.llm_server import FakeLLMServer
    from test_executor_commands import BIGGER_TILES, without_date
    c, _ = cluster
    on_ray, real_map = [], ex.RayExecutor.map
    def noting_map(self, fn, items, **kw):
        on_ray.append((fn, len(items)))
        return real_map(self, fn, items, **kw)
    monkeypatch.setattr(ex.RayExecutor, "map", noting_map)
    fresh_cache(tmp_path, monkeypatch)
    assert main(["calibrate", "--stand-in", "--out", str(tmp_path / "local.toml")]) == 0
    assert main(["calibrate", "--stand-in", "--ray", c.address, "--out", str(tmp_path / "ray.toml")]) == 0
    assert without_date((tmp_path / "ray.toml").read_text()) == without_date((tmp_path / "local.toml").read_text())
    tables = []
    for extra in ([], ["--ray", c.address]):
        capsys.readouterr()
        with FakeLLMServer([f"Bigger tiles.\n\n```python\n{BIGGER_TILES}```\n"], models=None) as srv:
            assert main(["tune", "leaky_relu", "--base-url", srv.base_url, "--model", f"scripted-{len(tables)}",
                         "--rounds", "1", *extra]) == 0
        printed = capsys.readouterr().out
        tables.append(printed[printed.index("| # |"):])
    assert tables[0] == tables[1] and "| 1 | v1" in tables[1] and "| llm | yes |" in tables[1]
    # calibrate's eager microbenchmarks, then its vector-instruction microkernels, then tune's variants
    assert [fn for fn, _ in on_ray] == [measure_item, measure_kernel_item, evaluate_variant]


def working_on(pids) -> list[str]:
    "The tasks (category/task) whose staged task process is among `pids`."
    return sorted({f"{m.group(1)}/{m.group(2)}" for pid in pids if (m := STAGED.search(folder_of(pid)))})


def test_killed_worker_tasks_are_rerun_on_the_head_nothing_lost_or_duplicated(cluster, tmp_path):
    "Runs last: it takes the worker away."
    c, executor = cluster
    tasks, out = ["relu", "softsign", "sgd", "leaky_relu"], tmp_path / "lost"
    worker, head = node_of(executor, "worker"), node_of(executor, "head")
    box = {}
    thread = threading.Thread(target=lambda: box.update(rep=run_bench(
        tasks, kernels=KERNELS, out=out, timing=False, settings=SETTINGS, progress=False, executor=executor)))
    thread.start()
    deadline, victims = time.monotonic() + 300, []
    while not victims:                          # a task process at work on the worker node
        assert thread.is_alive() and time.monotonic() < deadline, "no task ever ran on the worker"
        victims = working_on(c.pids("worker"))
        time.sleep(0.05)
    c.kill("worker")
    thread.join(600)
    assert not thread.is_alive()
    rep = box["rep"]
    assert [r.status for r in rep.results] == ["ok"] * len(tasks), [r.message for r in rep.results]
    assert sorted(p.parent.relative_to(out).as_posix() for p in out.rglob("result.json")) == sorted(
        f"{r.category}/{r.task}" for r in rep.results)                        # one result per task, none extra
    record = read_execution(out)
    assert sorted(record["tasks"]) == sorted(f"{r.category}/{r.task}" for r in rep.results)
    assert victims
    for victim in victims:          # at work on the worker when it died, landed from the head: rerun there
        assert record["tasks"][victim]["node"] == head, record["tasks"][victim]

