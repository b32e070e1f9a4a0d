"""How long lowering takes: every example in examples/ through the four passes (no compilation).

    python examples/benchmarks/bench_lower.py

Reports the total for all examples (analysis of the CI and full shapes included, bindings
computed once beforehand) and the slowest examples; the figure in the README comes from here.
"""
import statistics
import time

from ascendcraft.bind import shape_bindings
from ascendcraft.dsl import parse
from ascendcraft.pipeline import Pipeline
from ascendcraft.generate import expert_path
from ascendcraft.taskset import get_task, registry



def main(repeat: int = 5):
    cases = []
    for path in sorted(p for p in map(expert_path, registry()) if p.exists()):   # the expert kernels
        source = path.read_text()
        bindings = shape_bindings(parse(source, path.name), get_task(path.stem))
        cases.append((path.stem, source, path.name, bindings))
    totals, per_case = [], {}
    for _ in range(repeat):
        start = time.perf_counter()
        for stem, source, name, bindings in cases:
            t = time.perf_counter()
            pipe = Pipeline(source, name, bindings=bindings, compile=False, target=None)
            pipe.run_all()
            assert pipe.final is not None, f"{stem}: {pipe.summary()}"
            per_case.setdefault(stem, []).append(time.perf_counter() - t)
        totals.append(time.perf_counter() - start)
    print(f"lowered {len(cases)} examples through 4 passes: median {statistics.median(totals) * 1e3:.0f} ms in total "
          f"({statistics.median(totals) / len(cases) * 1e3:.1f} ms per example; {repeat} repetitions)")
    slowest = sorted(per_case.items(), key=lambda kv: -statistics.median(kv[1]))[:5]
    for stem, ts in slowest:
        print(f"  {stem:34} {statistics.median(ts) * 1e3:6.1f} ms")


if __name__ == "__main__":
    main()
