"""How long the DSL front end takes: parse, shape-free checks, and checks with shapes, per example.

    python examples/benchmarks/bench_dsl.py

Each figure is the median of many repetitions on this machine (bindings are computed once,
outside the timed region).
"""
import statistics
import time

from ascendcraft.bind import shape_bindings
from ascendcraft.check import analyze
from ascendcraft.dsl import parse
from ascendcraft.generate import expert_path
from ascendcraft.taskset import get_task, registry



def median_ms(fn, repeat=100):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def main():
    rows = []
    for path in sorted(p for p in map(expert_path, registry()) if p.exists()):   # the expert kernels
        source = path.read_text()
        program = parse(source, path.name)
        bindings = shape_bindings(program, get_task(path.stem), ("small", "full"))
        rows.append((path.stem,
                     median_ms(lambda: parse(source, path.name)),
                     median_ms(lambda: analyze(parse(source, path.name))),
                     median_ms(lambda: analyze(parse(source, path.name), bindings))))
    print(f"{'example':34} {'parse':>8} {'+checks':>8} {'+shapes':>8}   (ms, median)")
    for name, a, b, c in rows:
        print(f"{name:34} {a:8.2f} {b:8.2f} {c:8.2f}")
    print(f"{'mean':34} {statistics.mean(r[1] for r in rows):8.2f} {statistics.mean(r[2] for r in rows):8.2f} "
          f"{statistics.mean(r[3] for r in rows):8.2f}")


if __name__ == "__main__":
    main()
