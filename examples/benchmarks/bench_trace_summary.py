"""What the timing stage of `ascendcraft bench` costs at the full shapes, with repeated blocks stored once (trace
format 3), against the same trace expanded: records, stored records, and the CPU seconds of the trace (kernel process
and this process), the output-coverage check and the cost model, side by side in one run, with the modelled numbers
of both (they must be equal).

Each task's expert kernel is lowered at its small shapes (as `bench --size small` does) and traced at its full ones.
CPU seconds, not wall time: the machine is shared.

Usage:  .venv/bin/python examples/benchmarks/bench_trace_summary.py [TASK ...]   (default: rms_norm cumsum max_pooling_2d)
"""
import sys
import time
from pathlib import Path

import numpy as np

from ascendcraft.bench import check_sizes, kernel_paths, output_coverage, select_tasks
from ascendcraft.bind import shape_bindings
from ascendcraft.config import load_settings
from ascendcraft.cost import kernel_time
from ascendcraft.launch import trace_kernel
from ascendcraft.pipeline import Pipeline
from ascendcraft.trace import SummarisedTrace, Trace

EXAMPLES = Path(__file__).resolve().parents[1]


def cpu(fn):
    "(value, CPU seconds of this process) of fn()."
    t = time.process_time()
    value = fn()
    return value, time.process_time() - t


def main(tasks: list[str]) -> None:
    settings = load_settings()
    print("| task | blocks | records | stored | trace CPU: kernel + here s | coverage CPU s (summary / expanded) "
          "| cost CPU s (summary / expanded) | modelled µs (summary / expanded) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for tid in tasks:
        task = select_tasks(tasks=[tid])[0]
        dsl, _ = kernel_paths(EXAMPLES, task)
        pipe = Pipeline(dsl.read_text(), dsl.name, task=task, settings=settings, sizes=check_sizes("small"))
        pipe.run_all()
        full = shape_bindings(pipe.program, task, sizes=("full",))[0]
        trace, here = cpu(lambda: trace_kernel(pipe.steps[-1].build, pipe.program, full, settings=settings))
        kernel = trace.meta.get("cpu_seconds") or 0.0
        stored = len(trace.stored) if isinstance(trace, SummarisedTrace) else len(trace)
        cov, cov_s = cpu(lambda: output_coverage(trace))
        kc, cost_s = cpu(lambda: kernel_time(trace, settings=settings))
        if isinstance(trace, SummarisedTrace):
            expanded = Trace(np.array(trace.records), trace.op_names, trace.block_dim, trace.meta)
            cov2, cov2_s = cpu(lambda: output_coverage(expanded))
            kc2, cost2_s = cpu(lambda: kernel_time(expanded, settings=settings))
            assert [(c.covered, c.written) for c in cov] == [(c.covered, c.written) for c in cov2]
            del expanded
        else:
            cov2_s, cost2_s, kc2 = cov_s, cost_s, kc
        print(f"| {tid} | {trace.block_dim} | {len(trace):,} | {stored:,} | {kernel:.2f} + {here:.2f} | {cov_s:.2f} / {cov2_s:.2f} "
              f"| {cost_s:.2f} / {cost2_s:.2f} | {kc.total_us:,.3f} / {kc2.total_us:,.3f} |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["rms_norm", "cumsum", "max_pooling_2d"])
