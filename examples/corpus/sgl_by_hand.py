"""Runs of a few sgl-kernel-npu kernels (kind kernel-file) against NumPy, with the arguments their torch bindings
(csrc/<op>/op_host/*.cpp) compute written out here in Python: the corpus harness has no reference for this source.

    python examples/corpus/sgl_by_hand.py <sgl-kernel-npu git dir>

Each kernel is materialised as the corpus does (the file and what it reaches, the CMake target's definitions) and built
with the emulator; the result is compared with NumPy. Prints one line per run. `corpus.py run --match` calls the same
runs for these entries (match_entry)."""
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import corpus  # noqa: E402

from ascendcraft.config import load_settings  # noqa: E402
from ascendcraft.emu import GM, RunRules, Scalar, Workspace, build, read_sources, run  # noqa: E402

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


# The Matmul tiling the lora binding computes (op_host/tiling/sgemmc_tiling.cpp's GenerateTiling: A a GM vector, B
# transposed, C float in UB, for a 1 x hidden_out x rank product), through the emulation's host tiling API; prints the
# library workspace size, baseM, baseN and the bytes of SGEMMCTilingData {uint32 tilingKey; TCubeTiling}.
SGEMMC_HOST = r"""
#include <cstdio>
#include <cstdlib>
#include "tiling/tiling_api.h"
#include "tiling/platform/platform_ascendc.h"
#pragma pack(push, 1)
struct Data { uint32_t key; AscendC::tiling::TCubeTiling cube; };
#pragma pack(pop)
int main(int argc, char** argv) {
    const int out = atoi(argv[1]), inner = atoi(argv[2]);
    auto platform = *platform_ascendc::PlatformAscendCManager::GetInstance();
    matmul_tiling::MatmulApiTiling t(platform);
    const auto dt = matmul_tiling::DataType::DT_FLOAT16;
    t.EnableBias(false);
    t.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::VECTOR, dt, false);
    t.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, true);
    t.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    t.SetOrgShape(1, out, inner);
    t.SetShape(1, out, inner);
    t.SetBufferSpace(-1, -1, -1);
    Data d{};
    if (t.GetTiling(d.cube) == -1) return 1;
    std::printf("%u %d %d ", platform.GetLibApiWorkSpaceSize(), d.cube.baseM, d.cube.baseN);
    const unsigned char* p = reinterpret_cast<const unsigned char*>(&d);
    for (size_t i = 0; i < sizeof(d); ++i) std::printf("%02x", p[i]);
    std::printf("\n");
}
"""


def sgemmc_tiling(out_dim: int, inner: int):
    "The binding's GenerateTiling for a 1 x out_dim x inner product: (lib workspace bytes, baseM, baseN, tiling bytes)."
    import subprocess
    from ascendcraft.emu import INCLUDE_DIR
    tmp = Path(tempfile.mkdtemp(prefix="sgl_host_"))
    (tmp / "host.cpp").write_text(SGEMMC_HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp, check=True)
    o = subprocess.run([str(tmp / "host"), str(out_dim), str(inner)], capture_output=True, text=True, check=True).stdout.split()
    return int(o[0]), int(o[1]), int(o[2]), bytes.fromhex(o[3])


def sgemmc_shrink(gitdir: str, hidden: int = 256, max_rank: int = 32) -> str:
    """op_host/sgemmc_shrink.cpp (LoRA shrink, a mixed Matmul kernel): y[t, s*r:(s+1)*r] = scale[l] * x[t] @ W[l][s]^T
    (W[l] packed [slices, r, hidden] by the LoRA's rank r), cast to half; ranks multiples of 16 (the kernel's output burst
    is baseN halves in 32-byte blocks)."""
    b = built(gitdir, "csrc/lora/op_kernel/sgemmc_shrink_kernel.cpp", "sgemmc_shrink")
    lib, base_m, base_n, tiling = sgemmc_tiling(max_rank, hidden)
    slices = 2
    seq_len = np.array([2, 1], np.int32)
    lora_idx = np.array([1, 0], np.int32)
    ranks = np.array([max_rank, max_rank // 2], np.int32)
    scales = np.array([0.5, 2.0], np.float16)
    batch = int(seq_len.sum())
    rng = np.random.default_rng(13)
    x = (rng.standard_normal((batch, hidden)) * 0.25).astype(np.float16)
    w = (rng.standard_normal((2, slices * max_rank * hidden)) * 0.25).astype(np.float16)
    y = np.full((batch, slices * max_rank), -7, np.float16)
    u32 = lambda v: Scalar(v, "uint32_t")
    r = run(b, [GM("x", x), GM("weight", w), GM("lora_indices", lora_idx), u32(2), GM("seq_len", seq_len), u32(2),
                GM("lora_ranks", ranks), u32(2), GM("lora_scales", scales), u32(2), GM("y", y, "inout"), u32(batch),
                u32(hidden), u32(max_rank), u32(slices),
                Workspace(lib + batch * slices * base_m * base_n * 4),
                GM("tiling", np.frombuffer(tiling, np.uint8))], block_dim=batch * slices)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = np.zeros((batch, slices * max_rank))
    for t, req in enumerate([0, 0, 1]):
        l = lora_idx[req]
        rk = int(ranks[l])
        wl = w[l, :slices * rk * hidden].reshape(slices, rk, hidden).astype(np.float64)
        for s in range(slices):
            want[t, s * rk:(s + 1) * rk] = float(scales[l]) * (wl[s] @ x[t].astype(np.float64))
    got = r.outputs["y"].astype(np.float64)
    ulp = np.spacing(np.abs(want).astype(np.float16)).astype(np.float64)
    written = want != 0                   # a rank-16 LoRA's row fills 2 x 16 of its 64 columns; the rest keeps -7
    err = np.abs(got - want)[written]
    ok = bool(np.all(err <= ulp[written])) and bool(np.all(got[~written] == -7))
    return (f"sgemmc_shrink ({batch} tokens, hidden {hidden}, {slices} slices, ranks {ranks.tolist()}): max abs error "
            f"{err.max():.2e} ({'ok' if ok else 'MISMATCH'}: within one fp16 ulp, the columns past a row's rank untouched)")


def sgemmc_expand(gitdir: str, out_dim: int = 1024, max_rank: int = 16) -> str:
    """op_host/sgemmc_expand.cpp (LoRA expand, a mixed Matmul kernel): y[t, lo:hi] += x[t, s*r:(s+1)*r] @ W[l][lo:hi, :r]^T
    for each token t, slice s = [lo, hi), its request's LoRA l and that LoRA's rank r; the Matmul's C comes to UB block
    by block through the asynchronous Iterate<false>() / GetTensorC<false>(ub) / WaitGetTensorC()."""
    import subprocess
    from ascendcraft.emu import INCLUDE_DIR
    b = built(gitdir, "csrc/lora/op_kernel/sgemmc_expand_kernel.cpp", "sgemmc_expand")
    lib, base_m, base_n, tiling = sgemmc_tiling(out_dim, max_rank)
    slices = 2
    offsets = np.array([0, out_dim // 2, out_dim], np.int32)
    seq_len = np.array([2, 1], np.int32)                 # request 0: tokens 0-1, request 1: token 2
    lora_idx = np.array([1, 0], np.int32)
    ranks = np.array([max_rank, max_rank // 2], np.int32)
    batch = int(seq_len.sum())
    rng = np.random.default_rng(5)
    x = rng.standard_normal((batch, slices * max_rank)).astype(np.float16)
    w = rng.standard_normal((2, out_dim, max_rank)).astype(np.float16)
    y = rng.standard_normal((batch, out_dim)).astype(np.float16)
    ws = lib + batch * slices * base_m * base_n * 4
    u32 = lambda v: Scalar(v, "uint32_t")
    r = run(b, [GM("x", x), GM("weight", w), GM("lora_indices", lora_idx), u32(2), GM("seq_len", seq_len), u32(2),
                GM("lora_ranks", ranks), u32(2), GM("slice_offsets", offsets), u32(3), GM("y_in", y),
                GM("y_out", y.copy(), "inout"), u32(batch), u32(max_rank), u32(out_dim),
                Workspace(ws), GM("tiling", np.frombuffer(tiling, np.uint8))],
            block_dim=batch * slices)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = y.astype(np.float64)
    for t, req in enumerate([0, 0, 1]):
        lo_ra, rk = lora_idx[req], ranks[lora_idx[req]]
        for s in range(slices):
            lo, hi = offsets[s], offsets[s + 1]
            want[t, lo:hi] += x[t, s * rk:(s + 1) * rk].astype(np.float64) @ w[lo_ra, lo:hi, :rk].astype(np.float64).T
    got = r.outputs["y_out"].astype(np.float64)
    ulp = np.spacing(np.abs(want).astype(np.float16)).astype(np.float64)
    ok = bool(np.all(np.abs(got - want) <= ulp))
    blocks = (out_dim // 2 + base_n - 1) // base_n
    return (f"sgemmc_expand ({batch} tokens, {slices} slices of {out_dim // 2}, ranks {ranks.tolist()}, {blocks} blocks of C per "
            f"slice): max abs error {np.max(np.abs(got - want)):.2e} ({'ok' if ok else 'MISMATCH'}: within one fp16 ulp)")


def bgmv_expand(gitdir: str, batch: int = 5, rank: int = 16, hidden: int = 4608, full: int = 5120, offset: int = 256) -> str:
    """op_host/bgmv_expand.cpp (LoRA expand of one token per row, vector only): y[t, offset:offset+hidden] +=
    W[idx[t]] @ x[t] (x float32, W and y half), rows with idx < 0 left alone; tokens split ceil(batch / 40) per core.
    hidden = 4096 + 512 takes both the whole-tile loop and the kernel's last, partial iteration."""
    b = built(gitdir, "csrc/lora/op_kernel/bgmv_expand_kernel.cpp", "bgmv_expand_half")
    idx = np.array([2, 0, -1, 1, 0][:batch], np.int64)
    rng = np.random.default_rng(9)
    x = rng.standard_normal((batch, rank)).astype(np.float32)
    w = (rng.standard_normal((3, hidden, rank)) * 0.25).astype(np.float16)
    y = rng.standard_normal((batch, full)).astype(np.float16)
    per = (batch + AIV_CORES - 1) // AIV_CORES
    u32 = lambda v: Scalar(v, "uint32_t")
    r = run(b, [GM("x", x), GM("weight", w), GM("indices", idx), u32(batch), GM("y_in", y), GM("y_out", y.copy(), "inout"),
                u32(batch), u32(per), u32(rank), u32(hidden), u32(offset), u32(full)], block_dim=(batch + per - 1) // per)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = y.astype(np.float64)
    for t in range(batch):
        if idx[t] >= 0: want[t, offset:offset + hidden] += w[idx[t]].astype(np.float64) @ x[t].astype(np.float64)
    got = r.outputs["y_out"].astype(np.float64)
    ulp = np.spacing(np.abs(want).astype(np.float16)).astype(np.float64)
    ok = bool(np.all(np.abs(got - want) <= ulp)) and np.array_equal(got[idx < 0], y[idx < 0].astype(np.float64))
    return (f"bgmv_expand_half ({batch} tokens, rank {rank}, {hidden} of {full} columns): max abs error "
            f"{np.max(np.abs(got - want)):.2e} ({'ok' if ok else 'MISMATCH'}: within one fp16 ulp, the idx -1 row untouched)")


def bgmv_shrink(gitdir: str, batch: int = 5, rank: int = 16, hidden: int = 256, scale: float = 0.5) -> str:
    """op_host/bgmv_shrink.cpp (LoRA shrink of one token per row, vector only): y[t, :rank] = scale * W[idx[t]] @ x[t]
    (x and W half, W [loras, rank, hidden]; y float, the kernel's Y_T), rows with idx < 0 left alone; tokens split
    ceil(batch / 40) per core.
    The kernel calls ReduceSum<float> unqualified: it builds under the emulator's template-name-lookup rule."""
    b = built(gitdir, "csrc/lora/op_kernel/bgmv_shrink_kernel.cpp", "bgmv_shrink_half")
    idx = np.array([1, -1, 0, 2, 1][:batch], np.int64)
    rng = np.random.default_rng(11)
    x = rng.standard_normal((batch, hidden)).astype(np.float16)
    w = (rng.standard_normal((3, rank, hidden)) * 0.25).astype(np.float16)
    y = rng.standard_normal((batch, rank)).astype(np.float32)
    per = (batch + AIV_CORES - 1) // AIV_CORES
    u32 = lambda v: Scalar(v, "uint32_t")
    r = run(b, [GM("x", x), GM("weight", w), GM("indices", idx), u32(batch), GM("y", y.copy(), "inout"), u32(batch),
                u32(per), u32(hidden), u32(rank), Scalar(scale, "float")], block_dim=(batch + per - 1) // per)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = y.astype(np.float64)
    for t in range(batch):
        if idx[t] >= 0: want[t] = scale * (w[idx[t]].astype(np.float64) @ x[t].astype(np.float64))
    got = r.outputs["y"].astype(np.float64)
    tol = 1e-5 * np.max(np.abs(want))   # float32 sums of 256 products (the kernel's order, not NumPy's)
    ok = bool(np.all(np.abs(got - want) <= tol)) and np.array_equal(got[idx < 0], y[idx < 0].astype(np.float64))
    return (f"bgmv_shrink_half ({batch} tokens, hidden {hidden}, rank {rank}, scale {scale}): max abs error "
            f"{np.max(np.abs(got - want)):.2e} ({'ok' if ok else 'MISMATCH'}: within 1e-5 of the largest value, the "
            f"idx -1 row untouched)")


def sgmv_shrink(gitdir: str, rank: int = 16, hidden: int = 256, scale: float = 2.0) -> str:
    """op_host/sgmv_shrink.cpp (LoRA shrink by request: token t of request b, b found from the requests' sequence
    lengths, takes LoRA loraIndices[b]): y[t, :rank] = scale * W[lora] @ x[t] in float, a request with index -1 left
    alone. Like bgmv_shrink it calls ReduceSum<float> unqualified (the template-name-lookup rule)."""
    b = built(gitdir, "csrc/lora/op_kernel/sgmv_shrink_kernel.cpp", "sgmv_shrink_half")
    seq_len = np.array([2, 1, 3], np.int64)
    lora = np.array([1, -1, 0], np.int64)
    batch = int(seq_len.sum())
    rng = np.random.default_rng(13)
    x = rng.standard_normal((batch, hidden)).astype(np.float16)
    w = (rng.standard_normal((2, rank, hidden)) * 0.25).astype(np.float16)
    y = rng.standard_normal((batch, rank)).astype(np.float32)
    per = (batch + AIV_CORES - 1) // AIV_CORES
    u32 = lambda v: Scalar(v, "uint32_t")
    r = run(b, [GM("x", x), GM("weight", w), GM("lora_indices", lora), u32(len(lora)), GM("seq_len", seq_len),
                u32(len(seq_len)), GM("y", y.copy(), "inout"), u32(batch), u32(per), u32(hidden), u32(rank),
                Scalar(scale, "float")], block_dim=(batch + per - 1) // per)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    token_lora = np.repeat(lora, seq_len)
    want = y.astype(np.float64)
    for t in range(batch):
        if token_lora[t] >= 0: want[t] = scale * (w[token_lora[t]].astype(np.float64) @ x[t].astype(np.float64))
    got = r.outputs["y"].astype(np.float64)
    tol = 1e-5 * np.max(np.abs(want))
    skipped = token_lora < 0
    ok = bool(np.all(np.abs(got - want) <= tol)) and np.array_equal(got[skipped], y[skipped].astype(np.float64))
    return (f"sgmv_shrink_half ({batch} tokens in requests of {seq_len.tolist()}, hidden {hidden}, rank {rank}): max abs "
            f"error {np.max(np.abs(got - want)):.2e} ({'ok' if ok else 'MISMATCH'}: within 1e-5 of the largest value, "
            f"the index -1 request untouched)")


def sgemmv_shrink(gitdir: str, max_rank: int = 16, hidden: int = 256) -> str:
    """op_host/sgemmv_shrink.cpp (LoRA shrink by request with a rank and a scale per LoRA: int32 indices and sequence
    lengths, half scales): y[t, :rank[l]] = scale[l] * W[l][:rank[l]] @ x[t] in float, the columns past the rank and
    a request with index -1 left alone. It calls ReduceSum<float> unqualified (the template-name-lookup rule)."""
    b = built(gitdir, "csrc/lora/op_kernel/sgemmv_shrink_kernel.cpp", "sgemmv_shrink_half")
    seq_len = np.array([2, 1, 3], np.int32)
    lora = np.array([1, -1, 0], np.int32)
    ranks = np.array([16, 8], np.int32)
    scales = np.array([0.5, 2.0], np.float16)
    batch = int(seq_len.sum())
    rng = np.random.default_rng(17)
    x = rng.standard_normal((batch, hidden)).astype(np.float16)
    w = (rng.standard_normal((2, max_rank, hidden)) * 0.25).astype(np.float16)
    y = rng.standard_normal((batch, max_rank)).astype(np.float32)
    per = (batch + AIV_CORES - 1) // AIV_CORES
    u32 = lambda v: Scalar(v, "uint32_t")
    r = run(b, [GM("x", x), GM("weight", w), GM("lora_indices", lora), u32(len(lora)), GM("seq_len", seq_len),
                u32(len(seq_len)), GM("lora_ranks", ranks), u32(len(ranks)), GM("lora_scales", scales), u32(len(scales)),
                GM("y", y.copy(), "inout"), u32(batch), u32(per), u32(hidden), u32(max_rank)],
            block_dim=(batch + per - 1) // per)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    token_lora = np.repeat(lora, seq_len)
    want = y.astype(np.float64)
    for t in range(batch):
        if (l := token_lora[t]) >= 0:
            want[t, :ranks[l]] = float(scales[l]) * (w[l][:ranks[l]].astype(np.float64) @ x[t].astype(np.float64))
    got = r.outputs["y"].astype(np.float64)
    tol = 1e-5 * np.max(np.abs(want))
    ok = bool(np.all(np.abs(got - want) <= tol)) and np.array_equal(got[token_lora < 0], y[token_lora < 0].astype(np.float64))
    return (f"sgemmv_shrink_half ({batch} tokens in requests of {seq_len.tolist()}, hidden {hidden}, ranks "
            f"{ranks.tolist()}, scales {scales.tolist()}): max abs error {np.max(np.abs(got - want)):.2e} "
            f"({'ok' if ok else 'MISMATCH'}: within 1e-5 of the largest value, past the rank and the index -1 request untouched)")


def cache_loc_assign(gitdir: str) -> str:
    """op_host/cache_loc_assign.cpp (mode 0, the KV-cache slot table): token_pool[req[i], start[i]:end[i]] = the next
    end[i] - start[i] entries of out_cache_loc, rows spread over the 40 vector cores (int64 request indices: key 2). The
    kernel reads batch x MAX_STEP (16) entries of out_cache_loc whatever its length (here 45 of 96): past the tensor's
    end, inside the block torch_npu's allocator gives it, so the run uses that allocation (RunRules(gm_padding="torch_npu")); with
    each tensor's own bytes only ("strict") it stops there with gm-out-of-bounds."""
    b = built(gitdir, "csrc/cache_location_assign/op_kernel/cache_loc_assign_kernel.cpp", "cache_loc_assign")
    pool, row, vcore = 8, 64, AIV_CORES
    req = np.array([3, 0, 5, 7, 1, 6], np.int64)
    start = np.array([0, 10, 40, 5, 47, 20], np.int64)
    steps = np.array([4, 16, 1, 9, 3, 12], np.int64)
    end, batch = start + steps, len(req)
    loc = np.arange(1000, 1000 + int(steps.sum()), dtype=np.int32)
    tp = np.full((pool, row), -7, np.int32)
    a32, a64 = (lambda c: (c + 7) // 8 * 8), (lambda c: (c + 3) // 4 * 4)
    tiling = np.array([2, vcore, pool, batch, batch // vcore, batch % vcore, row, a64(batch), a64(batch) * 8, a32(16),
                       a32(16) * 4, a64(batch), a64(batch) * 8, batch * 16, a32(batch * 16), a32(batch * 16) * 4],
                      np.uint64)                                     # AssignCacheTillingData, as getTiling fills it
    args = [GM("req_pool_indices", req), GM("token_pool", tp.copy(), "inout"), GM("start_offset", start),
            GM("end_offset", end), GM("out_cache_loc", loc), GM("tiling", tiling.view(np.uint8)), Scalar(0, "uint32_t")]
    strict = run(b, args, block_dim=vcore)
    over = next((d for d in strict.diagnostics if d.kind == "gm-out-of-bounds"), None)
    r = run(b, args, block_dim=vcore, rules=RunRules(gm_padding="torch_npu"))
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want, k = tp.copy(), 0
    for i in range(batch):
        want[req[i], start[i]:end[i]] = loc[k:k + steps[i]]
        k += steps[i]
    ok = np.array_equal(r.outputs["token_pool"], want)
    return (f"cache_loc_assign ({batch} requests, {len(loc)} slots, {vcore} cores, torch_npu allocation): "
            f"{'exact' if ok else 'MISMATCH'}; strict: {'gm-out-of-bounds at line ' + str(over.line) if over else 'no over-read'}")


def assign_cache_op(gitdir: str) -> str:
    """op_host/assign_cache.cpp, as the repository's tests/python/sgl_kernel_npu/test_inplace_assign_cache.py calls it:
    dst[b, dst_start[b]:dst_end[b]] = src[src_start[b]:src_end[b]] (src the flat out_cache_loc, its starts the cumulative
    lengths); rows over 40 vector cores, each row's last burst merged into dst's own data and ordered across cores with
    IBSet / IBWait on the sync buffer."""
    b = built(gitdir, "csrc/assign_cache_op/op_kernel/assign_cache_op.cpp", "assign_cache_op")
    batch, length, cores = 6, 64, AIV_CORES
    start = np.array([0, 10, 40, 5, 47, 20], np.int64)
    steps = np.array([4, 16, 1, 9, 3, 12], np.int64)
    end, cum = start + steps, np.cumsum(steps)
    s_start, s_end = np.concatenate([[0], cum[:-1]]).astype(np.int64), cum.astype(np.int64)
    src = np.arange(1000, 1000 + int(cum[-1]), dtype=np.int32)
    dst = np.full((batch, length), -7, np.int32)
    sync_bytes = cores * 32 * 2 + 32
    tiling = np.array([batch, length, 4, sync_bytes, UB_BYTES], np.uint32)   # CustomAssignTilingData
    r = run(b, [GM("dst", dst.copy(), "inout"), GM("src", src), GM("dst_start", start), GM("dst_end", end),
                GM("src_start", s_start), GM("src_end", s_end), GM("sync", np.zeros(sync_bytes, np.uint8), "inout"),
                GM("tiling", tiling.view(np.uint8))], block_dim=cores)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = dst.copy()
    for i in range(batch): want[i, start[i]:end[i]] = src[s_start[i]:s_end[i]]
    ok = np.array_equal(r.outputs["dst"], want)
    return f"assign_cache_op int32 ({batch} rows of {length}, {len(src)} values, {cores} cores): {'exact' if ok else 'MISMATCH'}"


def _bf16(x: np.ndarray) -> np.ndarray:
    "float values rounded to bfloat16, as their 16 bits (the kernel's GM layout)."
    import torch
    return torch.from_numpy(np.ascontiguousarray(x, np.float32)).to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16)


def _from_bf16(bits: np.ndarray) -> np.ndarray:
    import torch
    return torch.from_numpy(np.ascontiguousarray(bits).view(np.int16)).view(torch.bfloat16).double().numpy()


def recurrent_gated_delta_rule(gitdir: str, b: int = 2, mtp: int = 1, nk: int = 8, nv: int = 16, dk: int = 128,
                               dv: int = 128, slots: int = 65, seed: int = 5) -> str:
    """op_host/recurrent_gated_delta_rule.cpp (decode-time gated delta net, vector; bf16 q / k / v packed in one
    mix_qkv row per token, a bf16 state of nv heads of dv x dk per slot) as tests/python/sgl_kernel_npu/
    test_recurrent_gated_delta_rule.py calls it: g and beta given, scale dk^-1/2, num_accepted_tokens random in
    1..mtp; with mtp > 1 the intermediate state (slots x mtp) is the state read and written and the recurrent state
    is read where a sequence starts at its slot's first step. The reference is the test's recurrence in float64
    (q and k L2-normalised per head; per token S = exp(g) S; S += sigmoid(beta) (v - S k) k^T; o = S (scale q)); its
    compare rule: out and state within rtol = atol = 2^-8. The binding computes vStep and the UB bytes left from the
    UB size (its formulas written out below) and passes the state pointer twice (read and written in place); here
    the written one is a second buffer holding the same values, which is the same for this kernel: each (batch,
    head) reads its starting state before writing its own slots, and no two batches share a slot."""
    b_ = built(gitdir, "csrc/recurrent_gated_delta_rule/op_kernel/recurrent_gated_delta_rule_kernel.cpp",
               "recurrent_gated_delta_rule")
    rng = np.random.default_rng(seed)
    s, t = mtp, b * mtp
    q = rng.random((b, s, nk, dk)); k = rng.random((b, s, nk, dk)); v = rng.random((b, s, nv, dv))
    mix = _bf16(np.concatenate([q.reshape(b, s, -1), k.reshape(b, s, -1), v.reshape(b, s, -1)], axis=-1))
    recurrent = _bf16(rng.random((slots, nv, dv, dk)))
    inter = _bf16(rng.random((slots, s, nv, dv, dk))) if mtp > 1 else None
    g = (-rng.random((b, s, nv))).astype(np.float32)
    beta = _bf16(rng.random((b, s, nv)))
    cache = rng.permutation(slots)[:b].astype(np.int32)
    ssm_idx = (cache[:, None] * s + np.arange(s, dtype=np.int32)).astype(np.int32)
    accepted = rng.integers(1, mtp + 1, b).astype(np.int32)
    seqlens = np.full(b, s, np.int32)
    scale = dk ** -0.5
    # the binding's UB arithmetic (MAX_MTP 8, 16-element alignment)
    align = lambda x: (x + 15) // 16 * 16
    a_nv, a_dv, a_dk = align(nv), align(dv), align(dk)
    used = 8 * (4 * a_dk + 2 * a_dv) + 128 + 8 * (4 * a_nv + 2 * a_nv)
    rest = UB_BYTES - used
    used += 8 * (8 * a_dk + 4 * a_dv + 4 * a_nv)
    coeff = (2 + 2) * a_dk + 4 + (4 + 4) * a_dk + 4 + 4
    v_step = (UB_BYTES - used) // coeff // 8 * 8
    times = -(-dv // v_step)
    v_step = (-(-dv // times) + 7) // 8 * 8
    rest -= ((2 + 2) * a_dk + 4) * v_step
    state_in = inter.reshape(-1, nv, dv, dk) if mtp > 1 else recurrent
    dummy = np.zeros(8, np.int32)
    args = [GM("mix_qkv", mix), GM("beta", beta), GM("init_state", state_in.copy()), GM("actual_seq_lengths", seqlens),
            GM("ssm_state_indices", ssm_idx), GM("recurrent_state", recurrent if mtp > 1 else dummy),
            GM("cache_indices", cache if mtp > 1 else dummy), GM("g", g), GM("gk", dummy), GM("num_accepted_tokens", accepted),
            GM("out", shape=(b, s, nv, dv), dtype=np.uint16, role="out"), GM("state_out", state_in.copy(), "inout"),
            Scalar(b, "uint32_t"), Scalar(s, "uint32_t"), Scalar(nk, "uint32_t"), Scalar(dk, "uint32_t"),
            Scalar(nv, "uint32_t"), Scalar(dv, "uint32_t"), Scalar(mtp > 1, "bool"), Scalar(True, "bool"),
            Scalar(True, "bool"), Scalar(v_step, "uint32_t"), Scalar(rest, "uint32_t"), Scalar(scale, "float")]
    r = run(b_, args, block_dim=AIV_CORES)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    # the reference: the test's golden recurrence, in float64 from the bf16 inputs
    x = _from_bf16(mix).reshape(t, -1)
    qr, kr, vr = x[:, :nk * dk].reshape(t, nk, dk), x[:, nk * dk:2 * nk * dk].reshape(t, nk, dk), x[:, 2 * nk * dk:].reshape(t, nv, dv)
    qr = qr / np.linalg.norm(qr, axis=-1, keepdims=True) * scale
    kr = kr / np.linalg.norm(kr, axis=-1, keepdims=True)
    state = _from_bf16(state_in).copy()
    if mtp > 1:
        state.reshape(slots, s, nv, dv, dk)[cache, 0] = _from_bf16(recurrent)[cache]
    alpha, bet = np.exp(g.astype(np.float64)).reshape(t, nv), 1 / (1 + np.exp(-_from_bf16(beta).reshape(t, nv)))
    o = np.zeros((t, nv, dv))
    flat_idx = ssm_idx.reshape(-1)
    for i in range(b):
        start = state[flat_idx[i * s + accepted[i] - 1]].copy()
        for h in range(nv):
            st, kv = start[h], h // (nv // nk)
            for tok in range(i * s, i * s + s):
                st = st * alpha[tok, h]
                st = st + np.outer((vr[tok, h] - st @ kr[tok, kv]) * bet[tok, h], kr[tok, kv])
                state[flat_idx[tok], h] = st
                o[tok, h] = st @ qr[tok, kv]
    eps = 2.0 ** -8
    got_o, got_s = _from_bf16(r.outputs["out"]).reshape(t, nv, dv), _from_bf16(r.outputs["state_out"])
    worst = max(float(np.max(np.abs(got_o - o) / (eps + eps * np.abs(o)))),
                float(np.max(np.abs(got_s - state) / (eps + eps * np.abs(state)))))
    return (f"recurrent_gated_delta_rule (b {b}, mtp {mtp}, nk {nk}, nv {nv}, dk {dk}, dv {dv}, {slots} slots, vStep "
            f"{v_step}): out and state worst {worst:.2f} of the test's allowed error ({'ok' if worst <= 1 else 'MISMATCH'})")


# The runs of each kernel-file entry, by its path: what `corpus.py run --match` calls for this source (match_entry).
RUNNERS = {
    "csrc/apply_token_bitmask/op_kernel/apply_token_bitmask.cpp":
        (lambda g: apply_token_bitmask(g, np.float32), lambda g: apply_token_bitmask(g, np.float16)),
    "csrc/tri_inv/op_kernel/tri_inv_kernel.cpp": (lambda g: tri_inv(g, np.float32), lambda g: tri_inv(g, np.float16, n=16)),
    "csrc/lora/op_kernel/sgemmc_expand_kernel.cpp": (sgemmc_expand,),
    "csrc/lora/op_kernel/sgemmc_shrink_kernel.cpp": (sgemmc_shrink,),
    "csrc/lora/op_kernel/bgmv_expand_kernel.cpp": (bgmv_expand,),
    "csrc/lora/op_kernel/bgmv_shrink_kernel.cpp": (bgmv_shrink,),
    "csrc/lora/op_kernel/sgmv_shrink_kernel.cpp": (sgmv_shrink,),
    "csrc/lora/op_kernel/sgemmv_shrink_kernel.cpp": (sgemmv_shrink,),
    "csrc/cache_location_assign/op_kernel/cache_loc_assign_kernel.cpp": (cache_loc_assign,),
    "csrc/assign_cache_op/op_kernel/assign_cache_op.cpp": (assign_cache_op,),
    # the test's first case at its shape; an mtp 2 case at a smaller shape than its second (64 x 2 of 65 slots)
    "csrc/recurrent_gated_delta_rule/op_kernel/recurrent_gated_delta_rule_kernel.cpp":
        (recurrent_gated_delta_rule, lambda g: recurrent_gated_delta_rule(g, b=4, mtp=2, nk=2, nv=4, slots=9, seed=6)),
}


def match_entry(entry: dict, gitdir: str) -> dict:
    """The entry's runs against NumPy (RUNNERS) as corpus results: match "pass" when every run agrees, "mismatch" when
    one does not, "run-error" when one stops (the emulator's diagnostic); {} for an entry with no run here."""
    runs = RUNNERS.get(entry["path"])
    if not runs: return {}
    lines = []
    for fn in runs:
        try:
            lines.append(fn(gitdir))
        except AssertionError as e:
            return {"match": "run-error", "match_detail": str(e)[:300]}
    bad = [l for l in lines if "MISMATCH" in l]
    return {"match": "mismatch" if bad else "pass", "match_detail": "; ".join(bad or lines)[:300]}


def main(argv=None) -> int:
    "python sgl_by_hand.py GITDIR [PATH_SUBSTRING]: every run, or those of the entries whose path contains the text."
    gitdir, *only = argv or sys.argv[1:]
    for path, runs in RUNNERS.items():
        if only and only[0] not in path: continue
        for fn in runs: print(fn(gitdir), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
