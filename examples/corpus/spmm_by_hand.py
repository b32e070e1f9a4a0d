"""SpMM-AscendC/cube-SPMM's BcsrSpmmCustom (C = A B for a sparse half A [M, K] and a dense half B [K, N], float C, on
the cube alone) run whole on the emulator, its TilingFunc and kernel, against NumPy. The inputs are what its host
scripts make (AclNNInvocation/scripts/parse_matrix.py, the "column-condensed" format its test scripts use; re-expressed
here, not copied):

- A's rows in windows of 16; in each window the sorted distinct columns that hold a nonzero, cut in groups of 16: one
  16 x 16 block per group (`row_ptr`: the running count of blocks per window), `col` the 16 columns of A each block's
  slots stand for (the slots past the last distinct column repeat it, with zero values), `val` each block's 16 x 16
  values (window row, slot), row-major;
- `core_info` [cores, 4]: (first window, end window, first block of the first window, end block of the last window)
  of each core, the blocks dealt out evenly (a window may be split between two cores, which then add into C with
  atomics);
- `a_shape` [M, K] (int64, a value input: InferShape takes C's rows from it), B's values whole numbers 1..10, N 128, as
  the script draws them; C starts zeroed (op_runner.cpp's aclrtMemset of every output).

The check is its verify_result.py's: np.isclose(rtol 1e-4, atol 1e-6) on every element, at most 1e-4 of them not.

    python examples/corpus/spmm_by_hand.py [--keep DIR] [--git OWNER/NAME=DIR]

`corpus.py run --match` calls the same runs for the entry (match_entry)."""
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import corpus  # noqa: E402
from hicann_by_hand import project, run_ops_main, run_or_error  # noqa: E402


REPO = "SpMM-AscendC/cube-SPMM"
OP = "BcsrSpmmCustom"
WINDOW, SLOTS, N = 16, 16, 128
RTOL, ATOL, BAD_RATIO = 1e-4, 1e-6, 1e-4   # verify_result.py's relative_tol, absolute_tol, error_tol


def column_condensed(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    "(row_ptr, col, val) of a [M, K] matrix, M a multiple of 16, in the column-condensed block format above."
    row_ptr, col, val = [0], [], []
    for w in range(a.shape[0] // WINDOW):
        rows = a[w * WINDOW:(w + 1) * WINDOW]
        cols = np.flatnonzero(rows.any(axis=0))
        blocks = -(-len(cols) // SLOTS)
        for b in range(blocks):
            part = list(cols[b * SLOTS:(b + 1) * SLOTS])
            block = np.zeros((WINDOW, SLOTS), a.dtype)
            block[:, :len(part)] = rows[:, part]
            col += part + [part[-1]] * (SLOTS - len(part))
            val.append(block)
        row_ptr.append(row_ptr[-1] + blocks)
    return (np.array(row_ptr, np.int32), np.array(col, np.int32),
            np.concatenate([v.ravel() for v in val]) if val else np.zeros(0, a.dtype))


def core_split(row_ptr: np.ndarray, cores: int) -> np.ndarray:
    """[cores, 4]: each core's share of the blocks, total / cores (the first total % cores one more), from where the
    previous core stopped; a core with none gets (windows, windows, 0, 0)."""
    windows, total = len(row_ptr) - 1, int(row_ptr[-1])
    out, w, first = [], 0, 0
    for c in range(cores):
        quota = total // cores + (c < total % cores)
        if w >= windows or quota == 0:
            out.append([windows, windows, 0, 0])
            continue
        start_w, start_b = w, first
        while quota and w < windows:
            left = int(row_ptr[w + 1] - row_ptr[w]) - first
            if left <= quota: quota, w, first = quota - left, w + 1, 0
            else: quota, first = 0, first + quota
        if first == 0: out.append([start_w, w, start_b, int(row_ptr[w] - row_ptr[w - 1])])
        else: out.append([start_w, w + 1, start_b, first])
    return np.array(out, np.int32)


def cases():
    "(M, K, density, cores): a few windows over many cores (windows split between cores), and one core per window or less."
    yield 80, 112, 0.08, 24
    yield 48, 200, 0.3, 24
    yield 160, 64, 0.05, 4


def run_spmm(g_, name: str):
    proj, settings = project(REPO, OP, *g_)
    for m, k, density, cores in cases():
        rng = np.random.default_rng(m * 1000 + k)
        a = np.where(rng.random((m, k)) < density, rng.uniform(-2, 2, (m, k)), 0).astype(np.float16)
        b = rng.integers(1, 11, (k, N)).astype(np.float16)
        row_ptr, col, val = column_condensed(a)
        info = core_split(row_ptr, cores)
        label = f"{name} A {m} x {k} ({int((a != 0).sum())} nonzeros, {int(row_ptr[-1])} blocks) x B {k} x {N}, {cores} cores"
        t0 = time.perf_counter()
        inputs = {"a_shape": np.array([m, k], np.int64), "row_ptr": row_ptr, "col": col, "val": val, "b": b,
                  "core_info": info.ravel()}
        r, failed = run_or_error(label, proj, inputs, outputs={"c": ((m, N), "float32")}, settings=settings,
                                 initial={"c": np.zeros((m, N), np.float32)})
        if failed:
            yield failed
            continue
        want = a.astype(np.float64) @ b.astype(np.float64)
        bad = float((~np.isclose(r.outputs["c"].astype(np.float64), want, rtol=RTOL, atol=ATOL)).mean())
        yield (f"{label}: block_dim {r.block_dim}, {bad:.2g} of the elements outside rtol {RTOL:g} / atol {ATOL:g}, "
               f"{time.perf_counter() - t0:.1f} s: {'match' if bad <= BAD_RATIO else 'MISMATCH'}")


def match_entry(entry: dict, gitdir: str) -> dict:
    """The entry's runs as corpus results: match "pass" when every case matches, "mismatch" when one does not,
    "run-error" when one stops (its line says why); {} for another entry."""
    if (entry["repo"], entry["path"]) != (REPO, OP): return {}
    lines = list(run_spmm(({REPO: gitdir}, None), OP))
    bad = [l for l in lines if l.endswith("MISMATCH")]
    stopped = [l for l in lines if ": ERROR " in l]
    verdict = "run-error" if stopped else "mismatch" if bad else "pass"
    return {"match": verdict, "match_detail": "; ".join(stopped or bad or [f"{len(lines)} case(s) match"])[:300]}


if __name__ == "__main__":
    raise SystemExit(run_ops_main(__doc__, [OP], lambda g_, name: run_spmm(g_, name)))
