"""Scaling of the benchmark from one to two workers, on this machine: the local pool with --jobs 1 and 2, and a
real Ray cluster on loopback with one node (the head) and then two (head + worker), 1 CPU each. Every run gets a
fresh run folder (warm emulator build cache, verification only) and prints its wall time and the CPU seconds from
its execution record.

    python examples/benchmarks/bench_ray_scaling.py [--tasks relu,sgd,...]
"""
import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from _ray_cluster import LocalCluster, _settle             # noqa: E402  (the tests' two-node cluster)
from ascendcraft.bench import run_bench                      # noqa: E402
from ascendcraft.config import load_settings                 # noqa: E402
from ascendcraft.executor import LocalPool, RayExecutor, read_execution  # noqa: E402

TASKS = "relu,softsign,sgd,leaky_relu,elu,hardtanh,mse_loss,sigmoid"


def timed(name: str, tasks: list[str], executor, out: Path) -> float:
    settings = load_settings().replace(trials=1, ray_address="")
    t = time.perf_counter()
    rep = run_bench(tasks, kernels=ROOT / "examples", out=out, timing=False, settings=settings, progress=False,
                    executor=executor)
    wall = time.perf_counter() - t
    session = read_execution(out)["sessions"][-1]
    nodes = sorted({v["node"] for v in read_execution(out)["tasks"].values()})
    ok = sum(r.status == "ok" for r in rep.results)
    cpu = "—" if session["cpu_s"] is None else f"{session['cpu_s']:.0f}"
    print(f"| {name} | {len(tasks)} ({ok} ok) | {wall:.1f} | {cpu} | {', '.join(nodes)} |", flush=True)
    return wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", default=TASKS)
    tasks = ap.parse_args().tasks.split(",")
    scratch = Path(tempfile.mkdtemp(prefix="ray-scaling-"))
    print("| executor | tasks | wall s | CPU s | nodes |\n|---|---:|---:|---:|---|")
    timed("local pool, --jobs 1", tasks, LocalPool(1), scratch / "local1")
    timed("local pool, --jobs 2", tasks, LocalPool(2), scratch / "local2")
    cluster = LocalCluster(cpus=1)
    try:
        cluster.start()
        cluster.kill("worker")                           # first the head alone
        ray = RayExecutor(cluster.address, poll=0.2)
        ray.connect()
        while len(ray.nodes()) != 1: time.sleep(0.5)
        timed("Ray, 1 node (head)", tasks, ray, scratch / "ray1")
        cluster._start("worker", f"--address={cluster.address}")
        cluster._wait(lambda: cluster._started("worker"), 240, "a started worker")
        _settle(cluster.pids())
        while len(ray.nodes()) != 2: time.sleep(0.5)
        timed("Ray, 2 nodes (head + worker)", tasks, ray, scratch / "ray2")
        ray.close()
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
