"""Runs of a few ATB kernels (hicann/ascend-transformer-boost, kind kernel-file) against NumPy, with the tiling their host
code (src/kernels/kernels/<group>/<op>/tiling/*_tiling.cpp) computes written out here in Python: ATB's tiling is a
struct the kernel reads from a GM pointer at byte offsets, filled by the op's tiling function over Mind-KernelInfra's
LaunchParam, which the corpus harness does not build.

    python examples/corpus/atb_by_hand.py <ascend-transformer-boost git dir>

Each kernel is materialised as the corpus does (the file and what it reaches from ATB's include folders) and built with
the emulator for the tiling key its host code picks; the result is compared with NumPy. Prints one line per run."""
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import corpus  # noqa: E402

from ascendcraft.config import load_settings  # noqa: E402
from ascendcraft.emu import GM, build, read_sources, run  # noqa: E402

REPO = "hicann/ascend-transformer-boost"
AIV_CORES = 40   # an A2's vector cores: PlatformInfo's GetCoreNum(CORE_TYPE_VECTOR) on 910B


def built(gitdir: str, path: str):
    entry = next(e for e in json.loads(corpus.MANIFEST.read_text()) if e["repo"] == REPO and e["path"] == path)
    folder = corpus.materialise(entry, gitdir, Path(tempfile.mkdtemp(prefix="atb_")))
    b = build(read_sources(folder), entry["kernel"], settings=load_settings())
    assert b.ok, "\n".join(d.render() for d in b.diagnostics)
    return b


def ceil_div(a: int, b: int) -> int:
    return a if b == 0 else (a + b - 1) // b


def rms_norm_tiling(rows: int, cols: int, eps: float, gemma: int, precision: int, bf16: bool) -> tuple[bytes, int, int]:
    """norm/rmsnorm/tiling/rms_norm_tiling.cpp for a contiguous x [rows, cols]: the RmsNormCommonTilingData bytes as the
    kernel's InitTilingData reads them (numCore, numCol, numRow, avgFactor, epsilon, sliceSize, mode, quantMin,
    precisionMode, gemmaMode, xStrides[8], xOffset, xDimNum), the block count and the tiling key."""
    slice_size = 8192                                              # SLICE_SIZE: a longer row is cut in slices
    num_core = ceil_div(rows, ceil_div(rows, AIV_CORES))
    short = cols <= slice_size
    head = np.array([num_core, cols, rows], np.uint32).tobytes() + np.array([1.0 / cols, eps], np.float32).tobytes()
    head += np.array([cols if short else slice_size, 1 if bf16 else 0], np.uint32).tobytes()
    head += np.array([-128.0], np.float32).tobytes() + np.array([precision, gemma], np.uint32).tobytes()
    head += np.zeros(8 + 2, np.uint32).tobytes()                   # xStrides, xOffset, xDimNum 0: contiguous
    key = 10000 + (10 if bf16 else 0)                              # ComputeTilingKey
    key += ((1000 if gemma else 0) + (100 if precision == 0 else 0)) if short else 100000
    return head, num_core, key


def rms_norm(gitdir: str, rows: int, cols: int, gemma: int = 0, precision: int = 0) -> str:
    """norm/rmsnorm/op_kernel/rms_norm.cpp, half: y = x / sqrt(mean(x^2) + eps) * g (gemma mode: * (1 + g)), per row."""
    b = built(gitdir, "src/kernels/kernels/norm/rmsnorm/op_kernel/rms_norm.cpp")
    rng = np.random.default_rng(rows * 131 + cols)
    x = rng.standard_normal((rows, cols)).astype(np.float16)
    g = rng.uniform(0.5, 1.5, cols).astype(np.float16)
    eps = 1e-6
    tiling, cores, key = rms_norm_tiling(rows, cols, eps, gemma, precision, False)
    r = run(b, [GM("x", x), GM("g", g), GM("y", np.zeros_like(x), "out"), GM("tiling", np.frombuffer(tiling, np.uint8).copy())],
            block_dim=cores, tiling_key=key)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    xf = x.astype(np.float64)
    want = xf / np.sqrt((xf * xf).mean(axis=1, keepdims=True) + eps) * ((1.0 + g) if gemma else g).astype(np.float64)
    got = r.outputs["y"].astype(np.float64)
    err = float(np.max(np.abs(got - want) / np.maximum(1.0, np.abs(want))))
    tol = 2 ** -8   # half's precision with float accumulation
    return (f"rms_norm half {rows} x {cols} (key {key}, gemma {gemma}, precisionMode {precision}, {cores} cores): "
            f"max rel error {err:.2e} ({'ok' if err <= tol else 'MISMATCH'} at {tol:g})")


def gelu_tiling(numel: int, dtype) -> tuple[bytes, int, int]:
    """activation/gelu_forward/tiling/gelu_tiling.cpp (FillTilingParam): GeluForwardTilingData {blockLength, tileNum,
    tileLength, tailLength, bufferNum} as bytes, the block count (every vector core) and the tiling key (the dtype's
    enum: 0 float, 1 half, 27 bfloat16)."""
    ub_bytes, buff_num = 196608, 2                                 # GetUbSize on 910B, GELU_FORWARD_BUFF_NUM
    size = np.dtype(dtype).itemsize
    total = 2 * buff_num * (4 if dtype == np.float32 else size + 4)
    align = 32 // size
    per = (ub_bytes // total) // align * align
    buffers = buff_num
    if (numel + align - 1) // align * align <= per * buff_num * AIV_CORES:
        buffers, per = 1, per * 2
    block = ceil_div(ceil_div(numel, AIV_CORES), align) * align
    tiles, tail = block // per, block % per
    tiling = np.array([block, tiles, per if tiles else tail, tail, buffers], np.uint32).tobytes()
    return tiling, AIV_CORES, {np.float32: 0, np.float16: 1}[dtype]


def gelu_forward(gitdir: str, per_core: int, dtype) -> str:
    """activation/gelu_forward/kernel/gelu_forward.cpp: GELU, tanh form (x / (1 + exp(-2 sqrt(2/pi) (x + 0.044715 x^3)))),
    on every vector core; the input is a whole number of blocks (blockLength each), as the host's split reads it."""
    b = built(gitdir, "src/kernels/kernels/activation/gelu_forward/kernel/gelu_forward.cpp")
    numel = per_core * AIV_CORES
    x = np.random.default_rng(numel).uniform(-4, 4, numel).astype(dtype)
    tiling, cores, key = gelu_tiling(numel, dtype)
    r = run(b, [GM("x", x), GM("y", np.zeros_like(x), "out"), GM("tiling", np.frombuffer(tiling, np.uint8).copy())],
            block_dim=cores, tiling_key=key)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    xf = x.astype(np.float64)
    want = 0.5 * xf * (1 + np.tanh(np.sqrt(2 / np.pi) * (xf + 0.044715 * xf ** 3)))
    got = r.outputs["y"].astype(np.float64)
    err = float(np.max(np.abs(got - want) / np.maximum(1.0, np.abs(want))))
    tol = 2 ** -8 if dtype == np.float16 else 1e-5
    return (f"gelu_forward {np.dtype(dtype).name} {numel} (key {key}, {cores} cores): max rel error {err:.2e} "
            f"({'ok' if err <= tol else 'MISMATCH'} at {tol:g})")


def main(gitdir: str) -> int:
    lines = [rms_norm(gitdir, 6, 256), rms_norm(gitdir, 45, 1024, gemma=1), rms_norm(gitdir, 3, 128, precision=1),
             rms_norm(gitdir, 2, 10000), gelu_forward(gitdir, 64, np.float16), gelu_forward(gitdir, 20000, np.float16),
             gelu_forward(gitdir, 128, np.float32)]
    print("\n".join(lines))
    return 0 if all("MISMATCH" not in l for l in lines) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
