"""Runs of a few sgl-kernel-npu kernels (kind kernel-file) against NumPy, with the arguments their torch bindings
(csrc/<op>/op_host/*.cpp) compute written out here in Python: the corpus harness has no reference for this source.

    python examples/corpus/sgl_by_hand.py <sgl-kernel-npu git dir>

Each kernel is materialised as the corpus does (the file and what it reaches, the CMake target's definitions) and built
with the emulator; the result is compared with NumPy. Prints one line per run."""
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import corpus  # noqa: E402

from ascendcraft.config import load_settings  # noqa: E402
from ascendcraft.emu import GM, Scalar, build, read_sources, run  # noqa: E402

REPO = "sgl-project/sgl-kernel-npu"
AIV_CORES = 40   # an A2/A3's vector cores (GetCoreNumAiv)
UB_BYTES = 196608


def built(gitdir: str, path: str, kernel: str):
    entry = next(e for e in json.loads(corpus.MANIFEST.read_text()) if e["repo"] == REPO and e["path"] == path)
    folder = corpus.materialise(entry, gitdir, Path(tempfile.mkdtemp(prefix="sgl_")))
    s = load_settings()
    b = build(read_sources(folder), kernel, settings=s.replace(cxxflags=f"{s.cxxflags} {entry.get('defines', '')}"))
    assert b.ok, "\n".join(d.render() for d in b.diagnostics)
    return b


def apply_token_bitmask(gitdir: str, dtype, batch: int = 5, vocab: int = 1000) -> str:
    "op_host/apply_token_bitmask.cpp: logits[i, j] = -inf where bit j of row i's int32 bitmask words is 0 (in place)."
    name = {np.float32: "fp32", np.float16: "fp16"}[dtype]
    b = built(gitdir, "csrc/apply_token_bitmask/op_kernel/apply_token_bitmask.cpp", f"apply_token_bitmask_{name}")
    rng = np.random.default_rng(7)
    logits = rng.standard_normal((batch, vocab)).astype(dtype)
    words = (vocab + 31) // 32
    bitmask = rng.integers(-2**31, 2**31, (batch, words), dtype=np.int64).astype(np.int32)
    bitmask[1] = -1                                                   # a row with nothing masked
    # the binding: vocab padded to 256 with zeros, the bitmask to the padded width, rows split over min(batch, cores)
    padded = (vocab + 255) // 256 * 256
    work = np.zeros((batch, padded), dtype); work[:, :vocab] = logits
    wbits = np.zeros((batch, (padded + 31) // 32), np.int32); wbits[:, :words] = bitmask
    block_dim = min(batch, AIV_CORES)
    size = np.dtype(dtype).itemsize
    per_unit = 2 * (2 * 256 * size + (256 // 32) * 4)
    tile = min(((UB_BYTES - 16384) // per_unit) * 256, padded)
    r = run(b, [GM("logits", work, "inout"), GM("bitmask", wbits), Scalar(batch, "uint32_t"), Scalar(padded, "uint32_t"),
                Scalar(padded, "uint32_t"), Scalar(wbits.shape[1], "uint32_t"), Scalar(batch // block_dim, "uint32_t"),
                Scalar(batch % block_dim, "uint32_t"), Scalar(max(tile, 256), "uint32_t"), Scalar(block_dim, "uint32_t"),
                Scalar(size, "uint32_t")], block_dim=block_dim)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    bits = (bitmask.view(np.uint32)[:, :, None] >> np.arange(32, dtype=np.uint32)) & 1
    keep = bits.reshape(batch, -1)[:, :vocab].astype(bool)
    want = np.where(keep, logits, -np.inf).astype(dtype)
    got = r.outputs["logits"][:, :vocab]
    ok = np.array_equal(got, want)
    return f"apply_token_bitmask_{name} ({batch} x {vocab}, {block_dim} cores): {'exact' if ok else 'MISMATCH'} ({(~keep).sum()} masked)"


def tri_inv(gitdir: str, dtype, batch: int = 4, n: int = 32) -> str:
    """op_host/tri_inv.cpp: each n x n matrix (one per core) inverted by column sweep; as the kernel reads it (rows of the
    input are columns of an upper unit-triangular A, output rows are columns of A^-1), the output is inv(M) for the input
    M, lower unit-triangular."""
    name = {np.float32: "fp32", np.float16: "fp16"}[dtype]
    b = built(gitdir, "csrc/tri_inv/op_kernel/tri_inv_kernel.cpp", f"tri_inv_col_sweep_{name}")
    rng = np.random.default_rng(11)
    m = np.tril(rng.uniform(-0.2, 0.2, (batch, n, n)), -1) + np.eye(n)
    m = m.astype(dtype)
    tiling = np.array([batch, batch * n * n, n], np.uint32)          # TriInvColumnSweepTiling
    r = run(b, [GM("vec_in", m), GM("vec_out", np.zeros_like(m), "out"), GM("tiling", tiling)], block_dim=batch)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = np.linalg.inv(m.astype(np.float64))
    err = float(np.max(np.abs(r.outputs["vec_out"].astype(np.float64) - want)))
    tol = 2e-2 if dtype == np.float16 else 1e-5
    return f"tri_inv_col_sweep_{name} ({batch} of {n} x {n}): max abs error {err:.2e} ({'ok' if err <= tol else 'MISMATCH'} at {tol:g})"


def main(argv=None) -> int:
    gitdir = (argv or sys.argv[1:])[0]
    for line in (apply_token_bitmask(gitdir, np.float32), apply_token_bitmask(gitdir, np.float16),
                 tri_inv(gitdir, np.float32), tri_inv(gitdir, np.float16, n=16)):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
