"""Runs of a few ATB kernels (hicann/ascend-transformer-boost, kind kernel-file) against NumPy, with the tiling their host
code (src/kernels/kernels/<group>/<op>/tiling/*_tiling.cpp) computes written out here in Python: ATB's tiling is a
struct the kernel reads from a GM pointer at byte offsets, filled by the op's tiling function over Mind-KernelInfra's
LaunchParam, which the corpus harness does not build. The kernels: rms_norm and gelu_forward (vector), and the pp
matmuls of half and bfloat16 (cube: matmul/tiling/pp_matmul_tiling.cpp's block search and swizzle, the tiling key in
the struct's tilingKey, which the kernel switches on), and the pp matmul variants (`variants`): C += A B (accum
atomic), with a bias in the bias table, ein_sum, B in the fractal NZ layout, the mixed C = A B + D and the int8 one
that dequantises on its vector cores, whose keys use SetTilingKey's longer layout (dtype and format bits) or
pp_matmul_mix_tiling.cpp's.

    python examples/corpus/atb_by_hand.py <ascend-transformer-boost git dir> [variants]

Each kernel is materialised as the corpus does (the file and what it reaches from ATB's include folders) and built with
the emulator for the tiling key its host code picks; the result is compared with NumPy. Prints one line per run."""
import json
import math
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import atb  # noqa: E402
import corpus  # noqa: E402

from ascendcraft.config import load_settings  # noqa: E402
from ascendcraft.emu import GM, build, read_sources, run  # noqa: E402

REPO = "hicann/ascend-transformer-boost"
AIV_CORES = 40   # an A2's vector cores: PlatformInfo's GetCoreNum(CORE_TYPE_VECTOR) on 910B


def built(gitdir: str, path: str):
    entry = next(e for e in json.loads(corpus.MANIFEST.read_text()) if e["repo"] == REPO and e["path"] == path)
    folder = corpus.materialise(entry, gitdir, Path(tempfile.mkdtemp(prefix="atb_")))
    b = build(read_sources(folder), entry["kernel"], settings=load_settings(), kernel_type=atb.kernel_type(entry))
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


AIC_CORES = AIV_CORES // 2   # an A2's cube cores: PlatformInfo's GetCoreNum(CORE_TYPE_CUBE) on 910B (one per two vector cores)
L0C_BYTES = 131072           # GetL0CSize on 910B
L2_BYTES = 192 * 1024 * 1024   # GetL2Size on 910B
L1AB_PINGPONG_BUFFER_LEN = 262144   # common_tiling.h: L1 for A and B, both buffers


def round_up(a: int, b: int) -> int:
    return a if b == 0 else (a + b - 1) // b * b


def pp_cost(m: int, k: int, n: int, m0: int, n0: int, batch: int) -> np.float32:
    """common_tiling.h's CostFunc (float arithmetic, as the host's): the loads per output element of an m0 x n0 block,
    the A or B side 5x cheaper where one round's share of it is past L2 (l2BandWidth 5, hbmBandWidth 1)."""
    f = np.float32
    m_loop, n_loop = ceil_div(m, m0), ceil_div(n, n0)
    block_dim = min(batch * m_loop * n_loop, AIC_CORES)
    m_once = m0 if block_dim < n_loop else block_dim // n_loop * m0
    n_once = AIC_CORES * n0 if block_dim < n_loop else n
    a_coef = f(5) if m_once * k * 2 > L2_BYTES else f(1)
    b_coef = f(5) if n_once * k * 2 > L2_BYTES else f(1)
    return f(1) / (a_coef * f(n0)) + f(1) / (b_coef * f(m0))


# SetTilingKey's dtype codes (G_DTYPE_MAP) and the matmul types (OpParam::MatMul::MatMulType) whose key is the long one
PP_DTYPE = {"int8": 0, "half": 1, "bfloat16": 2, "float": 3}
LONG_KEY_TYPES = ("accum", "bias", "einsum", "dequant")


def pp_matmul_tiling(batch: int, m: int, k: int, n: int, trans_a: bool, trans_b: bool, en_shuffle_k: int = 0, *,
                     mm_type: str = "default", dtypes: tuple[str, str, str] = ("half", "half", "half"),
                     nz_b: bool = False, bias: bool = False, i8_long_key: bool = False, mix: bool = False) -> dict:
    """matmul/tiling/pp_matmul_tiling.cpp's GetPpMatmulTiling (PpMatmulTiling) for A ND and B ND or NZ (`nz_b`), over
    common_tiling.h's TilingFunc, Swizzl and PpTilingData's SetBaseOp / End / SetTilingKey: the PpMatmulTilingData
    fields by name, in the struct's order. `mm_type`: MATMUL_DEFAULT ("default"), MATMUL_ACCUM_ATOMIC ("accum"),
    MATMUL_WITH_BIAS ("bias"), MATMUL_EIN_SUM ("einsum"); `dtypes`: A, B and C (PP_DTYPE's names); int8 inputs take
    the int8 limits (inDtype 1, n0 at most 256, k0 in 32 / 512 blocks, 6 KiB of L1 kept for the scale); `bias`: the
    withBias attribute (a key bit); `i8_long_key`: IsI8Bf16Kernel (int8 in, bfloat16 out, or half out per token).
    `mix`: pp_matmul_mix_tiling.cpp's GetPpMatmulMixTiling instead (PpMixTilingData: the same search and swizzle, no
    transposed-B narrowing in SetBaseOp, k0 not cut to a multiple of 512; its fields are the first 16 here)."""
    f = np.float32
    is_int8 = dtypes[0] == "int8"
    in_dtype = 1 if is_int8 else (4 if dtypes[0] == "float" else 2)      # PpMatmulTiling's dTypeMap
    t = dict(batch=batch, m=m, k=k, n=n, m0=0, k0=0, n0=0, mLoop=1, kLoop=1, nLoop=1, coreLoop=1, swizzlCount=1,
             tilingKey=0, blockDim=1, swizzlDirect=0, splitk=0, enShuffleK=0, quantMode=0)

    def set_base_op(m_base: int, n_base: int) -> None:                      # PpTilingData::SetBaseOp
        t["m0"], t["n0"] = m_base, n_base
        t["mLoop"], t["nLoop"] = ceil_div(m, m_base), ceil_div(n, n_base)
        t["coreLoop"] = batch * t["mLoop"] * t["nLoop"]
        if not mix and t["mLoop"] == 1 and trans_b and t["coreLoop"] % AIC_CORES < AIC_CORES // 4 * 3:
            m_base = round_up(m, 16)
            t["m0"] = m_base
            max_n0 = L0C_BYTES // (m_base * 4)
            if is_int8 or mm_type == "bias":
                max_n0 = min(max_n0, 256)
            x = ceil_div(n, AIC_CORES)
            n_base = round_up(ceil_div(x, ceil_div(x, max_n0)), 16)
            if m_base * n_base * 4 < L0C_BYTES and (m_base + n_base) * 256 * 2 < L1AB_PINGPONG_BUFFER_LEN:
                t["n0"] = n_base
                t["nLoop"] = ceil_div(n, n_base)
                t["coreLoop"] = batch * t["nLoop"]
        t["blockDim"] = min(t["coreLoop"], AIC_CORES)

    # TilingFunc<PRI_FLAG = m >= n>: the primary axis m (else n) is tried from 16 up to its size, the other up to its
    # size rounded to 16 * 2^ceil(ln(its blocks)); both by doubling up to 512 / inDtype, an m0 x n0 float block in L0C;
    # int8 on 910B: n0 at most 256 (IsExceedTilingLimit with AXES_ALIGN_SIZE_INT8)
    pri = m >= n
    round_base = int(2 ** math.ceil(math.log(ceil_div(n if pri else m, 16))) * 16)
    pri_axes, axes = round_up(m if pri else n, 16), round_up(n if pri else m, round_base)
    axes0_max = f(512) / f(in_dtype)
    cost_min = f(1)
    p0 = 16
    while p0 <= pri_axes and p0 <= axes0_max:
        a0 = 16
        while a0 <= axes and a0 <= axes0_max:
            if p0 * a0 * 4 <= L0C_BYTES and not (is_int8 and (a0 if pri else p0) > 256):
                m0, n0 = (p0, a0) if pri else (a0, p0)
                cost = pp_cost(m, k, n, m0, n0, batch)
                if cost < cost_min:
                    cost_min = cost
                    set_base_op(m0, n0)
            a0 *= 2
        p0 *= 2
    if m == 1 and n == 2048 and nz_b:                                       # GetPpMatmulTiling's GEMV case
        set_base_op(t["m0"], 128)
    # Swizzl: the visiting order's direction (1: along n, "Nz") and count; the direction is the last i's, as the host's
    m0, n0, mm, kk, nn = f(t["m0"]), f(t["n0"]), f(m), f(k), f(n)
    mincost, direct, count = mm * kk + kk * nn, 0, 1
    for i in range(1, t["blockDim"] + 1):
        c = f((t["blockDim"] + i - 1) // i)
        if f(i) * n0 + mm < m0 * c + nn:
            direct, cost = 1, n0 * f(i) + m0 * c
            if cost <= mincost: mincost, count = cost, i
        else:
            direct, cost = 0, m0 * f(i) + n0 * c
            if cost < mincost: mincost, count = cost, i
    t["swizzlDirect"], t["swizzlCount"] = direct, count
    # End: k0 from what is left of L1's A and B buffers (less 6 KiB of scale for int8, less n0 floats of bias with a
    # bias), rounded down to 256 (16 under 256; int8 512 and 32), at most a multiple of 512
    shape_sum = t["m0"] + t["n0"]
    if is_int8 and (trans_a or not trans_b):
        shape_sum = round_up(t["m0"], 32) + round_up(t["n0"], 32)
    scale_len = 6144 if is_int8 else 0
    k0_max = int(f(L1AB_PINGPONG_BUFFER_LEN - scale_len) / (f(shape_sum) * f(in_dtype)))
    if mm_type == "bias":
        k0_max = int(f(L1AB_PINGPONG_BUFFER_LEN - t["n0"] * 4) / (f(shape_sum) * f(in_dtype)))
    cube_block, k_block = (512, 32) if is_int8 else (256, 16)
    k0 = k0_max // k_block * k_block if k0_max < cube_block else k0_max // cube_block * cube_block
    t["k0"] = k0 // 512 * 512 if k0 > 512 and not mix else k0
    t["kLoop"] = ceil_div(k, t["k0"])
    if mm_type in LONG_KEY_TYPES or i8_long_key:
        # SwizzleDir TransA TransB DtypeA[3] DtypeB[3] DtypeC[3] FormatA FormatB FormatC WithBias
        key = (direct << 1 | int(trans_a)) << 1 | int(trans_b)
        for d in dtypes: key = key << 3 | PP_DTYPE[d]
        t["tilingKey"] = ((((key << 1) << 1 | int(nz_b)) << 1) << 1) | int(bias)
    else:
        # SwizzleDir TransA TransB Int8 WithBias SplitK, one bit each
        t["tilingKey"] = (direct << 5) | (int(trans_a) << 4) | (int(trans_b) << 3) | (int(is_int8) << 2) | (int(bias) << 1)
    t["enShuffleK"] = en_shuffle_k
    return t


def tiling_buffer(t: dict) -> np.ndarray:
    "PpMatmulTilingData's bytes in a GetTilingSize buffer (the struct rounded up to 256 bytes)."
    tiling = np.zeros(256, np.uint8)
    tiling[:72] = np.frombuffer(np.array(list(t.values()), np.uint32).tobytes(), np.uint8)
    return tiling


def tiling_text(t: dict) -> str:
    return (f"key {t['tilingKey']}, m0 {t['m0']} k0 {t['k0']} n0 {t['n0']}, swizzle {t['swizzlDirect']}/{t['swizzlCount']}, "
            f"{t['blockDim']} cores")


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """float32 values rounded to bfloat16 (to nearest, ties to even), as their uint16 bits."""
    u = x.astype(np.float32).view(np.uint32)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_values(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


# the ND x ND pp matmul kernels (add_kernel core type "cube") by input dtype
PP_MATMUL = {"half": "src/kernels/kernels/matmul/pp_matmul_f16_kernel/op_kernel/pp_matmul.cce",
             "bfloat16": "src/kernels/kernels/matmul/pp_matmul_bf16_kernel/op_kernel/pp_matmul_bf16.cce"}


def pp_matmul(gitdir: str, path: str, m: int, k: int, n: int, trans_a: bool = False, trans_b: bool = False,
              bf16: bool = False, shuffle_k: int = 0) -> str:
    """matmul/pp_matmul_f16_kernel (half) or pp_matmul_bf16_kernel (bfloat16), ND x ND: C = A B with A [m, k] ([k, m]
    transposed), B [k, n] ([n, k] transposed), C [m, n] in the input dtype. Inputs uniform in [-2, 2] and the check as
    ATB's own tests (tests/apitest/kernelstest/matmul): half, allclose to the float product rounded to half with rtol and
    atol 1e-3 (test_pp_matmul_f16.py); bfloat16, |got - want| <= 2^-7 (2^-6 from k 2048) * max(1, |want|) and the mean
    relative error at most 2^-7 (test_pp_matmul_bf16.py). `shuffle_k`: the op's enShuffleK attribute (each core starts
    its K loop at a different block)."""
    b = built(gitdir, path)
    rng = np.random.default_rng(m * 7919 + k * 31 + n)
    a = rng.uniform(-2, 2, (m, k)).astype(np.float32)
    w = rng.uniform(-2, 2, (k, n)).astype(np.float32)
    if bf16:
        a_in, w_in = bf16_bits(a), bf16_bits(w)
        a, w = bf16_values(a_in), bf16_values(w_in)
    else:
        a_in, w_in = a.astype(np.float16), w.astype(np.float16)
        a, w = a_in.astype(np.float32), w_in.astype(np.float32)
    a_gm = np.ascontiguousarray(a_in.T if trans_a else a_in)
    w_gm = np.ascontiguousarray(w_in.T if trans_b else w_in)
    t = pp_matmul_tiling(1, m, k, n, trans_a, trans_b, shuffle_k)
    r = run(b, [GM("a", a_gm), GM("b", w_gm), GM("c", np.zeros((m, n), a_gm.dtype), "out"), GM("tiling", tiling_buffer(t))],
            block_dim=t["blockDim"])
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = a.astype(np.float64) @ w.astype(np.float64)
    shape = (f"{'bfloat16' if bf16 else 'half'} {m} x {k} x {n}{' A^T' if trans_a else ''}{' B^T' if trans_b else ''} "
             f"(key {t['tilingKey']}, m0 {t['m0']} k0 {t['k0']} n0 {t['n0']}, swizzle {t['swizzlDirect']}/{t['swizzlCount']}, "
             f"{t['blockDim']} cores{', enShuffleK' if shuffle_k else ''})")
    if bf16:
        got = bf16_values(r.outputs["c"])
        want = bf16_values(bf16_bits(want.astype(np.float32))).astype(np.float64)
        scale = np.maximum(1.0, np.abs(want))
        thresh = 2 ** -7 if k < 2048 else 2 ** -6
        err = float(np.max(np.abs(got - want) / scale))
        ok = err <= thresh and float(np.mean((got - want) / scale)) <= 2 ** -7
        return f"pp_matmul_bf16 {shape}: max rel error {err:.2e} ({'ok' if ok else 'MISMATCH'} at {thresh:g})"
    got = r.outputs["c"].astype(np.float64)
    want16 = want.astype(np.float32).astype(np.float16).astype(np.float64)
    ok = bool(np.allclose(got, want16, rtol=1e-3, atol=1e-3))
    err = float(np.max(np.abs(got - want16) / np.maximum(1.0, np.abs(want16))))
    return f"pp_matmul {shape}: max rel error {err:.2e} ({'ok' if ok else 'MISMATCH'} at allclose 1e-3)"


MATMUL = "src/kernels/kernels/matmul/"
PP_VARIANT = {"accum": MATMUL + "pp_matmul_accum_kernel/op_kernel/pp_matmul_accum_atomic.cce",
              "bias": MATMUL + "pp_matmul_with_bias_kernel/op_kernel/pp_matmul_with_bias.cce",
              "einsum": MATMUL + "pp_matmul_ein_sum_kernel/op_kernel/pp_matmul_ein_sum.cce",
              "int8": MATMUL + "pp_matmul_i8_kernel/op_kernel/pp_matmul.cce",
              "int8_bf16": MATMUL + "pp_matmul_i8_kernel/op_kernel/pp_matmul_bf16.cce",
              "half_nz": MATMUL + "pp_matmul_f16_opt_kernel/op_kernel/pp_matmul.cce",
              "bfloat16_nz": MATMUL + "pp_matmul_bf16_nd_nz_nd_kernel/op_kernel/pp_matmul_bf16_nd_nz_nd.cce",
              "add": MATMUL + "pp_matmul_f16_mix_kernel/op_kernel/pp_matmul_mix.cce"}


def float_operand(rng, shape: tuple, dtype: str, lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
    "Uniform values in [lo, hi) as the kernel's input (half, or bfloat16 as uint16 bits) and as float64."
    x = rng.uniform(lo, hi, shape).astype(np.float32)
    dev = bf16_bits(x) if dtype == "bfloat16" else x.astype(np.float16)
    return dev, (bf16_values(dev) if dtype == "bfloat16" else dev.astype(np.float32)).astype(np.float64)


def as_float(x: np.ndarray, dtype: str) -> np.ndarray:
    "A kernel output (half, float, or bfloat16's uint16 bits) as float64."
    return (bf16_values(x) if dtype == "bfloat16" else x).astype(np.float64)


def rounded(x: np.ndarray, dtype: str) -> np.ndarray:
    "float64 values rounded to the output dtype (through float32, as torch's .to does), as float64."
    x32 = x.astype(np.float32)
    return (bf16_values(bf16_bits(x32)) if dtype == "bfloat16" else x32.astype(np.float16 if dtype == "half" else np.float32)
            ).astype(np.float64)


def atb_rel_check(got: np.ndarray, want: np.ndarray, thresh: float, eb: float) -> tuple[bool, float]:
    """ATB's ref_compare and get_eb: |got - want| <= thresh * max(1, |want|) everywhere, and the signed mean of
    (got - want) / max(1, |want|) at most eb. Returns (passed, the largest relative error)."""
    scale = np.maximum(1.0, np.abs(want))
    err = float(np.max(np.abs(got - want) / scale))
    return err <= thresh and float(np.mean((got - want) / scale)) <= eb, err


def shape_text(batch: int, m: int, k: int, n: int, trans_a: bool, trans_b: bool) -> str:
    return f"{f'{batch} x ' if batch > 1 else ''}{m} x {k} x {n}{' A^T' if trans_a else ''}{' B^T' if trans_b else ''}"


def ab_operands(rng, batch: int, m: int, k: int, n: int, trans_a: bool, trans_b: bool, dtype: str, lo: float, hi: float):
    "A [batch, m, k] and B [batch, k, n] as the kernel reads them (transposed per batch) and as float64."
    a_dev, a = float_operand(rng, (batch, m, k), dtype, lo, hi)
    w_dev, w = float_operand(rng, (batch, k, n), dtype, lo, hi)
    a_dev = np.ascontiguousarray(a_dev.transpose(0, 2, 1) if trans_a else a_dev)
    w_dev = np.ascontiguousarray(w_dev.transpose(0, 2, 1) if trans_b else w_dev)
    return a_dev, a, w_dev, w


def pp_matmul_accum(gitdir: str, batch: int, m: int, k: int, n: int, trans_a: bool = False, trans_b: bool = False,
                    dtype: str = "half") -> str:
    """matmul/pp_matmul_accum_kernel (MATMUL_ACCUM_ATOMIC): C += A B with C float [batch, m, n], added with the
    atomic add the kernel sets (the op's output is its third input, in place; the kernel's fourth pointer is a
    placeholder). Inputs and check as test_pp_matmul_accum.py: A, B, C uniform in [-5, 5]; |err| <= 2^-8 (2^-7 from k
    2048) * max(1, |want|), signed mean at most 2^-7."""
    b = built(gitdir, PP_VARIANT["accum"])
    rng = np.random.default_rng(batch * 101 + m * 7919 + k * 31 + n)
    a_dev, a, w_dev, w = ab_operands(rng, batch, m, k, n, trans_a, trans_b, dtype, -5, 5)
    c0 = rng.uniform(-5, 5, (batch, m, n)).astype(np.float32)
    t = pp_matmul_tiling(batch, m, k, n, trans_a, trans_b, mm_type="accum", dtypes=(dtype, dtype, "float"))
    r = run(b, [GM("a", a_dev), GM("b", w_dev), GM("c", c0.copy(), "inout"), GM("placeholder", np.zeros(1, np.float32)),
                GM("tiling", tiling_buffer(t))], block_dim=t["blockDim"])
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = a @ w + c0.astype(np.float64)
    thresh = 2 ** -8 if k < 2048 else 2 ** -7
    ok, err = atb_rel_check(r.outputs["c"].astype(np.float64), want, thresh, 2 ** -7)
    return (f"pp_matmul_accum_atomic {dtype} {shape_text(batch, m, k, n, trans_a, trans_b)} ({tiling_text(t)}): "
            f"max rel error {err:.2e} ({'ok' if ok else 'MISMATCH'} at {thresh:g})")


def pp_matmul_with_bias(gitdir: str, batch: int, m: int, k: int, n: int, trans_a: bool = False, trans_b: bool = False,
                        dtype: str = "half") -> str:
    """matmul/pp_matmul_with_bias_kernel (MATMUL_WITH_BIAS): C = A B + bias, the float bias [batch, 1, n] through the
    bias table (Mmad's BT operand), C in the input dtype. Inputs and check as test_pp_matmul_with_bias.py: uniform in
    [-5, 5], the reference rounded to the output dtype; half |err| <= 2^-8 (2^-7 from k 2048) * max(1, |want|) and
    signed mean <= 2^-10; bfloat16 2^-7 (2^-6) and 2^-7."""
    b = built(gitdir, PP_VARIANT["bias"])
    rng = np.random.default_rng(batch * 103 + m * 7919 + k * 31 + n)
    a_dev, a, w_dev, w = ab_operands(rng, batch, m, k, n, trans_a, trans_b, dtype, -5, 5)
    bias = rng.uniform(-5, 5, (batch, 1, n)).astype(np.float32)
    t = pp_matmul_tiling(batch, m, k, n, trans_a, trans_b, mm_type="bias", dtypes=(dtype, dtype, dtype))
    r = run(b, [GM("a", a_dev), GM("b", w_dev), GM("bias", bias), GM("c", np.zeros((batch, m, n), a_dev.dtype), "out"),
                GM("tiling", tiling_buffer(t))], block_dim=t["blockDim"])
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = rounded(a @ w + bias.astype(np.float64), dtype)
    thresh, eb = (2 ** -8, 2 ** -10) if dtype == "half" else (2 ** -7, 2 ** -7)
    thresh *= 1 if k < 2048 else 2
    ok, err = atb_rel_check(as_float(r.outputs["c"], dtype), want, thresh, eb)
    return (f"pp_matmul_with_bias {dtype} {shape_text(batch, m, k, n, trans_a, trans_b)} ({tiling_text(t)}): "
            f"max rel error {err:.2e} ({'ok' if ok else 'MISMATCH'} at {thresh:g})")


def nz_of(x: np.ndarray, c0: int = 16) -> np.ndarray:
    """A 2-D matrix in the fractal NZ layout ATB's tests make (transdata / cvt_nd_to_nz with 16 x c0 blocks: c0 16 for
    half and bfloat16, 32 for int8): padded to 16 rows and c0 columns, as [columns / c0, rows, c0]."""
    r, c = round_up(x.shape[0], 16), round_up(x.shape[1], c0)
    x = np.pad(x, ((0, r - x.shape[0]), (0, c - x.shape[1])))
    return np.ascontiguousarray(x.reshape(r // 16, 16, c // c0, c0).transpose(2, 0, 1, 3).reshape(c // c0, r, c0))


def pp_matmul_ein_sum(gitdir: str, batch: int, m: int, k: int, n: int, trans_b: bool = False, dtype: str = "half",
                      nz_b: bool = False) -> str:
    """matmul/pp_matmul_ein_sum_kernel (MATMUL_EIN_SUM): C[m, b, n] = sum_k A[m, b, k] B[b, k, n] (B [b, n, k] transposed;
    `nz_b`: each batch's B in the fractal NZ layout), C in the input dtype; A is never transposed (the op refuses it).
    Inputs and check as test_pp_matmul_ein_sum_f16.py: uniform in [-5, 5]; against the float product (not rounded)
    |err| <= 2^-8 (2^-7 from k 2048) * max(1, |want|), signed mean at most 2^-7; bfloat16 (no ATB test) with the
    bfloat16 limits of test_pp_matmul_bf16.py, 2^-7 (2^-6 from k 2048)."""
    b = built(gitdir, PP_VARIANT["einsum"])
    rng = np.random.default_rng(batch * 107 + m * 7919 + k * 31 + n)
    _, a, w_dev, w = ab_operands(rng, batch, m, k, n, False, trans_b, dtype, -5, 5)
    a_dev = np.ascontiguousarray((bf16_bits(a.astype(np.float32)) if dtype == "bfloat16" else a.astype(np.float16))
                                 .transpose(1, 0, 2))                     # [m, b, k]
    if nz_b: w_dev = np.stack([nz_of(x) for x in w_dev])
    t = pp_matmul_tiling(batch, m, k, n, False, trans_b, mm_type="einsum", dtypes=(dtype, dtype, dtype), nz_b=nz_b)
    r = run(b, [GM("a", a_dev), GM("b", w_dev), GM("c", np.zeros((m, batch, n), a_dev.dtype), "out"),
                GM("tiling", tiling_buffer(t))], block_dim=t["blockDim"])
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = (a @ w).transpose(1, 0, 2)
    thresh = (2 ** -8 if dtype == "half" else 2 ** -7) * (1 if k < 2048 else 2)
    ok, err = atb_rel_check(as_float(r.outputs["c"], dtype), want, thresh, 2 ** -7)
    return (f"pp_matmul_ein_sum {dtype} {shape_text(batch, m, k, n, False, trans_b)}{' B NZ' if nz_b else ''} "
            f"({tiling_text(t)}): max rel error {err:.2e} ({'ok' if ok else 'MISMATCH'} at {thresh:g})")


def pp_matmul_int8(gitdir: str, m: int, k: int, n: int, trans_a: bool = False, trans_b: bool = False,
                   bias: bool = True) -> str:
    """matmul/pp_matmul_i8_kernel/op_kernel/pp_matmul.cce (w8a8, enDequant, per-channel): C = half((A B + bias) *
    descale) with A, B int8, the int32 bias [1, n] added in the bias table, the float descale [n] passed as uint64 (its
    float bits, as test_pp_matmul_i8.py's process_deq_scale makes it) and applied by the Fixpipe on the way out of L0C.
    A and B over the whole int8 range (the test's are -1..1); the reference's product is exact (int64, checked to fit
    int32). Check as the test: allclose to the reference rounded to half, rtol = atol = 0.002.

    The kernel declares its Fixpipe-buffer tensor with `scale_FB.InitBuffer(0, FB_BUFF_SIZE)`, FB_BUFF_SIZE = 1024 * 7:
    InitBuffer's size counts elements, so that is 7168 uint64 (56 KiB) in the 7 KiB buffer. The device keeps the size
    as metadata and copies only what l1_to_fb asks for; AscendC's CPU-debug check, and the emulation's, refuse it. That
    refusal is the line's REFUSED (not a failure of the script); any other stop is an ERROR."""
    b = built(gitdir, PP_VARIANT["int8"])
    rng = np.random.default_rng(m * 7919 + k * 31 + n + 8)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    w = rng.integers(-128, 128, (k, n)).astype(np.int8)
    bias_v = rng.integers(-10, 10, (1, n)).astype(np.int32)
    descale = (rng.random(n).astype(np.float32) / 1000)
    acc = a.astype(np.int64) @ w.astype(np.int64) + (bias_v.astype(np.int64) if bias else 0)
    assert np.abs(acc).max() < 2 ** 31, "the reference's int32 accumulation would overflow"
    want = (acc.astype(np.float32) * descale).astype(np.float16).astype(np.float64)
    t = pp_matmul_tiling(1, m, k, n, trans_a, trans_b, dtypes=("int8", "int8", "half"), bias=bias)
    r = run(b, [GM("a", np.ascontiguousarray(a.T if trans_a else a)), GM("b", np.ascontiguousarray(w.T if trans_b else w)),
                GM("bias", bias_v), GM("descale", descale.view(np.uint32).astype(np.int64)),
                GM("pertoken_descale", np.zeros(m, np.float32)), GM("c", np.zeros((m, n), np.float16), "out"),
                GM("tiling", tiling_buffer(t))], block_dim=t["blockDim"])
    label = f"pp_matmul_int8 {shape_text(1, m, k, n, trans_a, trans_b)}{' bias' if bias else ''} ({tiling_text(t)})"
    if not r.ok:
        first = next(d for d in r.diagnostics if d.severity == "error")
        refused = first.kind == "ub-out-of-range" and "InitBuffer" in first.message and "Fixpipe buffer" in first.message
        return f"{label}: {'REFUSED' if refused else 'ERROR'} {first.render().splitlines()[0]}"
    got = r.outputs["c"].astype(np.float64)
    ok = bool(np.allclose(got, want, rtol=0.002, atol=0.002))
    err = float(np.max(np.abs(got - want) / np.maximum(1.0, np.abs(want))))
    exact = float(np.mean(got == want))
    return f"{label}: max rel error {err:.2e}, {exact:.1%} equal ({'ok' if ok else 'MISMATCH'} at allclose 0.002)"


def pp_matmul_weight_nz(gitdir: str, batch: int, m: int, k: int, n: int, trans_a: bool = False, trans_b: bool = False,
                        dtype: str = "half") -> str:
    """matmul/pp_matmul_f16_opt_kernel (half) and pp_matmul_bf16_nd_nz_nd_kernel (bfloat16): C = A B with A ND and B
    (B^T transposed) per batch in the fractal NZ layout (16 x 16 blocks, as ATB's tests' transdata), C ND in the input
    dtype; the short tiling key. Inputs uniform in [-2, 2] and the check as the ND kernels' (pp_matmul)."""
    b = built(gitdir, PP_VARIANT[dtype + "_nz"])
    rng = np.random.default_rng(batch * 109 + m * 7919 + k * 31 + n)
    a_dev, a, w_dev, w = ab_operands(rng, batch, m, k, n, trans_a, trans_b, dtype, -2, 2)
    w_dev = np.stack([nz_of(x) for x in w_dev])
    t = pp_matmul_tiling(batch, m, k, n, trans_a, trans_b, dtypes=(dtype, dtype, dtype), nz_b=True)
    r = run(b, [GM("a", a_dev), GM("b", w_dev), GM("c", np.zeros((batch, m, n), a_dev.dtype), "out"),
                GM("tiling", tiling_buffer(t))], block_dim=t["blockDim"])
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    got, want = as_float(r.outputs["c"], dtype), rounded(a @ w, dtype)
    err = float(np.max(np.abs(got - want) / np.maximum(1.0, np.abs(want))))
    if dtype == "half":
        ok, thresh = bool(np.allclose(got, want, rtol=1e-3, atol=1e-3)), "allclose 1e-3"
    else:
        limit = 2 ** -7 if k < 2048 else 2 ** -6
        ok, thresh = atb_rel_check(got, want, limit, 2 ** -7)[0], f"{limit:g}"
    name = "pp_matmul_f16_opt" if dtype == "half" else "pp_matmul_bf16_nd_nz_nd"
    return (f"{name} {shape_text(batch, m, k, n, trans_a, trans_b)} B NZ ({tiling_text(t)}): max rel error {err:.2e} "
            f"({'ok' if ok else 'MISMATCH'} at {thresh})")


def pp_matmul_add(gitdir: str, batch: int, m: int, k: int, n: int, trans_a: bool = False, trans_b: bool = False) -> str:
    """matmul/pp_matmul_f16_mix_kernel (add_kernel pp_matmul_add, mix; PpMatMulF16MixKernel, the half ND kernel with a
    third input): C = A B + D in half, D [batch, m, n]. The cube core writes A B to C; the two vector cores of its
    group each take half the rows after the cross-core flag, add D's rows and write C back. Tiling:
    pp_matmul_mix_tiling.cpp (the key's bias bit set: three inputs). Inputs uniform in [-2, 2] and the check as
    ATB's unit test of this kernel (tests/unittest/kernels/matmul_nd, MatMulNdMixGolden): allclose, atol = rtol = 1e-3,
    to half(half(A B) + D). Where A B lies within float accumulation error of a midpoint between two halves, the
    product's rounding may go either way (the float32 sum's order decides) and the sum then moves by one half ulp,
    past that tolerance: the check takes either neighbour of A B, and the line says how many elements needed it."""
    b = built(gitdir, PP_VARIANT["add"])
    rng = np.random.default_rng(batch * 113 + m * 7919 + k * 31 + n)
    a_dev, a, w_dev, w = ab_operands(rng, batch, m, k, n, trans_a, trans_b, "half", -2, 2)
    d = rng.uniform(-2, 2, (batch, m, n)).astype(np.float16)
    t = pp_matmul_tiling(batch, m, k, n, trans_a, trans_b, bias=True, mix=True)
    r = run(b, [GM("ffts", np.zeros(64, np.uint8)), GM("a", a_dev), GM("b", w_dev), GM("d", d),
                GM("c", np.zeros((batch, m, n), np.float16), "out"), GM("tiling", tiling_buffer(t))], block_dim=t["blockDim"])
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    got = r.outputs["c"].astype(np.float64)
    ab = a @ w
    near = rounded(ab, "half").astype(np.float16)
    below = np.where(near.astype(np.float64) > ab, np.nextafter(near, np.float16(-np.inf)), near)   # the halves either
    above = np.where(near.astype(np.float64) < ab, np.nextafter(near, np.float16(np.inf)), near)    # side of A B
    want = (near + d).astype(np.float64)
    close = lambda p: np.isclose(got, (p + d).astype(np.float64), rtol=1e-3, atol=1e-3)
    strict = close(near)
    ok = bool(np.all(strict | close(below) | close(above)))
    err = float(np.max(np.abs(got - want) / np.maximum(1.0, np.abs(want))))
    return (f"pp_matmul_add {shape_text(batch, m, k, n, trans_a, trans_b)} ({tiling_text(t)}): max rel error {err:.2e}, "
            f"{int(np.sum(~strict))} at the product's other rounding ({'ok' if ok else 'MISMATCH'} at allclose 1e-3)")


def pp_matmul_int8_dequant(gitdir: str, m: int, k: int, n: int, trans_a: bool = False, trans_b: bool = False,
                           bias: bool = True, out: str = "bfloat16", per_token: bool = False, nz_b: bool = False) -> str:
    """matmul/pp_matmul_i8_kernel/op_kernel/pp_matmul_bf16.cce (add_kernel pp_matmul_int8_bf16, mix; PpMatMulI8Bf16Kernel):
    the cube core accumulates A B (+ the int32 bias, through the bias table) in int32 and writes it to a workspace; the
    two vector cores of its group take half the rows each after the cross-core flag, convert to float, multiply by the
    float descale [n] (per token also by the float scale [m] of each row) and round to bfloat16 (or half, per token).
    `nz_b`: B (B^T transposed) in the int8 fractal NZ layout, 16 x 32 blocks.
    Inputs as test_zzpp_matmul_i8_bf16.py but over the whole int8 range; the reference's product is exact (int64,
    checked to fit int32), then float32 as the kernel. Check as the test: allclose, rtol = atol = 0.002."""
    b = built(gitdir, PP_VARIANT["int8_bf16"])
    rng = np.random.default_rng(m * 7919 + k * 31 + n + 16)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    w = rng.integers(-128, 128, (k, n)).astype(np.int8)
    bias_v = rng.integers(-10, 10, (1, n)).astype(np.int32)
    descale = rng.random(n).astype(np.float32) / 1000
    token = (rng.random(m).astype(np.float32) + 0.5) if per_token else np.zeros(m, np.float32)
    acc = a.astype(np.int64) @ w.astype(np.int64) + (bias_v.astype(np.int64) if bias else 0)
    assert np.abs(acc).max() < 2 ** 31, "the reference's int32 accumulation would overflow"
    want32 = acc.astype(np.float32) * descale
    if per_token: want32 = want32 * token[:, None]
    want = rounded(want32.astype(np.float64), out)
    t = pp_matmul_tiling(1, m, k, n, trans_a, trans_b, dtypes=("int8", "int8", out), bias=bias, i8_long_key=True, nz_b=nz_b)
    t["quantMode"] = 2 if per_token else 0                                  # QuantMode PER_TOKEN_SYMM / PER_CHANNEL_SYMM
    workspace = round_up(t["m0"], 32) * round_up(t["n0"], 32) * t["blockDim"]   # PpMatmulTiling's scratch, in int32
    out_dt = np.uint16 if out == "bfloat16" else np.float16
    r = run(b, [GM("ffts", np.zeros(64, np.uint8)), GM("a", np.ascontiguousarray(a.T if trans_a else a)),
                GM("b", nz_of(w.T if trans_b else w, 32) if nz_b else np.ascontiguousarray(w.T if trans_b else w)),
                GM("bias", bias_v), GM("descale", descale),
                GM("pertoken_descale", token), GM("c", np.zeros((m, n), out_dt), "out"),
                GM("workspace", np.zeros(workspace, np.int32), "workspace"), GM("tiling", tiling_buffer(t))],
            block_dim=t["blockDim"])
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    got = as_float(r.outputs["c"], out)
    ok = bool(np.allclose(got, want, rtol=0.002, atol=0.002))
    err = float(np.max(np.abs(got - want) / np.maximum(1.0, np.abs(want))))
    mode = "per token" if per_token else ("bias" if bias else "no bias")
    return (f"pp_matmul_int8_bf16 -> {out} {shape_text(1, m, k, n, trans_a, trans_b)}{' B NZ' if nz_b else ''} {mode} "
            f"({tiling_text(t)}): "
            f"max rel error {err:.2e}, {float(np.mean(got == want)):.1%} equal ({'ok' if ok else 'MISMATCH'} at allclose 0.002)")


def variants(gitdir: str) -> list[str]:
    "The pp matmul variants beside the plain ND ones, at irregular shapes (m = 1, unaligned K and N, a last partial tile)."
    return [pp_matmul_accum(gitdir, 1, 100, 200, 300), pp_matmul_accum(gitdir, 2, 37, 1000, 70, trans_b=True),
            pp_matmul_accum(gitdir, 1, 1, 520, 90, trans_a=True),
            pp_matmul_accum(gitdir, 1, 70, 2100, 50, True, True, "bfloat16"),
            pp_matmul_with_bias(gitdir, 1, 100, 200, 300), pp_matmul_with_bias(gitdir, 2, 37, 1000, 70, trans_b=True),
            pp_matmul_with_bias(gitdir, 1, 257, 300, 40, trans_a=True, dtype="bfloat16"),
            pp_matmul_with_bias(gitdir, 1, 1, 2100, 130, True, True),
            pp_matmul_ein_sum(gitdir, 5, 16, 345, 657, trans_b=True), pp_matmul_ein_sum(gitdir, 3, 37, 200, 100),
            pp_matmul_ein_sum(gitdir, 2, 1, 300, 70, dtype="bfloat16"), pp_matmul_ein_sum(gitdir, 3, 40, 100, 90, nz_b=True),
            pp_matmul_ein_sum(gitdir, 2, 20, 70, 50, trans_b=True, nz_b=True),
            pp_matmul_weight_nz(gitdir, 1, 100, 200, 300), pp_matmul_weight_nz(gitdir, 2, 37, 1000, 70, trans_b=True),
            pp_matmul_weight_nz(gitdir, 1, 1, 256, 2048, trans_b=True), pp_matmul_weight_nz(gitdir, 1, 70, 300, 50, True, True),
            pp_matmul_weight_nz(gitdir, 1, 129, 1024, 200, dtype="bfloat16"),
            pp_matmul_weight_nz(gitdir, 2, 40, 2100, 100, trans_b=True, dtype="bfloat16"),
            pp_matmul_weight_nz(gitdir, 1, 1, 300, 90, trans_a=True, dtype="bfloat16"),
            pp_matmul_add(gitdir, 1, 100, 200, 300), pp_matmul_add(gitdir, 2, 37, 1000, 70, trans_b=True),
            pp_matmul_add(gitdir, 1, 1, 520, 90, True, True), pp_matmul_add(gitdir, 1, 257, 300, 45, trans_a=True),
            pp_matmul_int8_dequant(gitdir, 100, 200, 300), pp_matmul_int8_dequant(gitdir, 37, 1000, 70, trans_b=True),
            pp_matmul_int8_dequant(gitdir, 1, 520, 90, True, True, bias=False),
            pp_matmul_int8_dequant(gitdir, 257, 300, 45, trans_a=True),
            pp_matmul_int8_dequant(gitdir, 70, 300, 50, bias=False, per_token=True),
            pp_matmul_int8_dequant(gitdir, 33, 700, 129, False, True, bias=False, out="half", per_token=True),
            pp_matmul_int8_dequant(gitdir, 40, 310, 90, nz_b=True),
            pp_matmul_int8_dequant(gitdir, 24, 200, 70, trans_b=True, bias=False, nz_b=True),
            pp_matmul_int8_dequant(gitdir, 1, 256, 2048, trans_b=True, nz_b=True),
            pp_matmul_int8(gitdir, 100, 200, 300)]


def failed(lines: list[str]) -> bool:
    "Whether a line is a mismatch or a stop other than the int8 kernel's known refusal (pp_matmul_int8's REFUSED)."
    return any("MISMATCH" in l or ": ERROR " in l for l in lines)


def main(gitdir: str, only: str | None = None) -> int:
    if only == "variants":
        lines = variants(gitdir)
        print("\n".join(lines))
        return 1 if failed(lines) else 0
    lines = [rms_norm(gitdir, 6, 256), rms_norm(gitdir, 45, 1024, gemma=1), rms_norm(gitdir, 3, 128, precision=1),
             rms_norm(gitdir, 2, 10000), gelu_forward(gitdir, 64, np.float16), gelu_forward(gitdir, 20000, np.float16),
             gelu_forward(gitdir, 128, np.float32)]
    f16, bf16 = PP_MATMUL["half"], PP_MATMUL["bfloat16"]
    lines += [pp_matmul(gitdir, f16, 100, 200, 300), pp_matmul(gitdir, f16, 37, 1000, 70, trans_b=True),
              pp_matmul(gitdir, f16, 300, 520, 90, trans_a=True), pp_matmul(gitdir, f16, 70, 300, 50, True, True),
              pp_matmul(gitdir, f16, 1, 4096, 1024, trans_b=True), pp_matmul(gitdir, f16, 257, 256, 300),
              pp_matmul(gitdir, f16, 200, 1100, 130, shuffle_k=1),
              pp_matmul(gitdir, bf16, 129, 1024, 200, bf16=True), pp_matmul(gitdir, bf16, 40, 2100, 1000, trans_b=True, bf16=True)]
    lines += variants(gitdir)
    print("\n".join(lines))
    return 1 if failed(lines) else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
