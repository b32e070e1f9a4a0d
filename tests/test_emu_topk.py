"""TopK (lib/sort) in its A2 form against NumPy: per row of an [outter, inner] tensor (n valid), the k largest or
smallest values and their indices, best first, ties in index order (a stable sort), in the Normal mode (outputs padded
to 32 bytes per row; indices generated, or one shared srcIndexLocal row with isInitIndex; finishLocal rows get index n)
and the Small mode (inner = 32, outputs of k per row); half and float. The documented rules: 1 <= k <= n, inner the
32-multiple of n, Small mode inner = 32."""
import subprocess

import numpy as np
import pytest

from ascendcraft.emu import GM, INCLUDE_DIR, build, run

KERNEL = r'''#include "kernel_operator.h"
#include "lib/sort/topk.h"
using namespace AscendC;
using T = CTYPE;
constexpr int32_t M = 3, INNER = 64, N = NVALID, K = KVAL, KV = (K * (int32_t)sizeof(T) + 31) / 32 * 32 / (int32_t)sizeof(T),
                  KI = (K + 7) / 8 * 8;
extern "C" __global__ __aicore__ void topk(GM_ADDR x, GM_ADDR xi, GM_ADDR fin, GM_ADDR v0, GM_ADDR i0, GM_ADDR v1, GM_ADDR i1,
                                           GM_ADDR v2, GM_ADDR i2)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 131072);
    GlobalTensor<T> xg, v0g, v1g, v2g;
    GlobalTensor<int32_t> xig, i0g, i1g, i2g;
    GlobalTensor<uint8_t> fg;
    xg.SetGlobalBuffer((__gm__ T *)x, M * INNER);
    xig.SetGlobalBuffer((__gm__ int32_t *)xi, M * 32);
    fg.SetGlobalBuffer((__gm__ uint8_t *)fin, 32);
    v0g.SetGlobalBuffer((__gm__ T *)v0, M * KV); i0g.SetGlobalBuffer((__gm__ int32_t *)i0, M * KI);
    v1g.SetGlobalBuffer((__gm__ T *)v1, M * KV); i1g.SetGlobalBuffer((__gm__ int32_t *)i1, M * KI);
    v2g.SetGlobalBuffer((__gm__ T *)v2, 32); i2g.SetGlobalBuffer((__gm__ int32_t *)i2, 32);
    LocalTensor<T> xl = buf.GetWithOffset<T>(M * INNER, 0);
    LocalTensor<int32_t> xil = buf.GetWithOffset<int32_t>(M * 32, 1024);
    LocalTensor<uint8_t> fl = buf.GetWithOffset<uint8_t>(32, 1536);
    LocalTensor<T> v0l = buf.GetWithOffset<T>(M * KV, 2048);
    LocalTensor<int32_t> i0l = buf.GetWithOffset<int32_t>(M * KI, 3072);
    LocalTensor<T> v1l = buf.GetWithOffset<T>(M * KV, 4096);
    LocalTensor<int32_t> i1l = buf.GetWithOffset<int32_t>(M * KI, 5120);
    LocalTensor<T> v2l = buf.GetWithOffset<T>(32, 6144);
    LocalTensor<int32_t> i2l = buf.GetWithOffset<int32_t>(32, 6400);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(32768, 65536);
    DataCopy(xl, xg, M * INNER);
    DataCopy(xil, xig, M * 32);
    DataCopy(fl, fg, 32);
    Duplicate(v2l, (T)0, 32);
    Duplicate(i2l, 0, 32);
    PipeBarrier<PIPE_ALL>();
    TopkTiling tiling;
    LocalTensor<bool> finish = fl.ReinterpretCast<bool>();
    TopKInfo info = {M, INNER, N};
    TopK<T, false, true>(v0l, i0l, xl, xil, finish, tmp, K, tiling, info, true);             // largest, finish flags
    TopK<T, true>(v1l, i1l, xl, xil, finish, tmp, K, tiling, info, false);                   // smallest, given indices
    TopKInfo small = {2, 32, 32};
    TopK<T, false, false, false, TopKMode::TOPK_NSMALL>(v2l, i2l, xl, xil, finish, tmp, 4, tiling, small, true);
    PipeBarrier<PIPE_ALL>();
    DataCopy(v0g, v0l, M * KV); DataCopy(i0g, i0l, M * KI);
    DataCopy(v1g, v1l, M * KV); DataCopy(i1g, i1l, M * KI);
    DataCopy(v2g, v2l, 32); DataCopy(i2g, i2l, 32);
}
'''
M, INNER = 3, 64


def _build(tmp_path, ctype, n, k):
    src = tmp_path / "topk.cpp"
    src.write_text(KERNEL.replace("CTYPE", ctype).replace("NVALID", str(n)).replace("KVAL", str(k)))
    return build(src)


def _io(x, xi, fin, dtype, k):
    kv = -(-k * np.dtype(dtype).itemsize // 32) * 32 // np.dtype(dtype).itemsize
    ki = -(-k // 8) * 8
    return [GM("x", x), GM("xi", xi), GM("fin", fin), GM("v0", np.zeros((M, kv), dtype), "out"),
            GM("i0", np.zeros((M, ki), np.int32), "out"), GM("v1", np.zeros((M, kv), dtype), "out"),
            GM("i1", np.zeros((M, ki), np.int32), "out"), GM("v2", np.zeros(32, dtype), "out"),
            GM("i2", np.zeros(32, np.int32), "out")]


@pytest.mark.parametrize("ctype, dtype, n, k", [("float", np.float32, 64, 5), ("half", np.float16, 60, 9)])
def test_topk_against_numpy(tmp_path, ctype, dtype, n, k):
    b = _build(tmp_path, ctype, n, k)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(19)
    x = rng.integers(-20, 20, (M, INNER)).astype(dtype)       # small integers: many ties
    xi = (np.arange(M * 32, dtype=np.int32) * 3 + 100)
    xi_row = np.zeros(M * 32, np.int32)
    xi_row[:] = xi
    fin = np.zeros(32, np.uint8)
    fin[1] = 1                                                 # row 1 is marked finished
    r = run(b, _io(x, xi_row, fin, dtype, k), block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    shared_index = np.concatenate([xi_row, np.zeros(INNER, np.int32)])[:INNER]   # Normal mode: one row of indices
    for row in range(M):
        vals = x[row, :n].astype(np.float64)
        down = np.argsort(-vals, kind="stable")[:k]
        up = np.argsort(vals, kind="stable")[:k]
        np.testing.assert_array_equal(r.outputs["v0"][row, :k], x[row, down])
        np.testing.assert_array_equal(r.outputs["i0"][row, :k], down if row != 1 else np.full(k, n))
        np.testing.assert_array_equal(r.outputs["v1"][row, :k], x[row, up])
        np.testing.assert_array_equal(r.outputs["i1"][row, :k], shared_index[up])
    for row in range(2):                                       # Small mode: two rows of 32 (the first 64 elements)
        flat = x.reshape(-1)[row * 32:(row + 1) * 32].astype(np.float64)
        top = np.argsort(-flat, kind="stable")[:4]
        np.testing.assert_array_equal(r.outputs["v2"][row * 4:row * 4 + 4], flat[top].astype(dtype))
        np.testing.assert_array_equal(r.outputs["i2"][row * 4:row * 4 + 4], top)


def test_topk_k_beyond_n_stops(tmp_path):
    b = _build(tmp_path, "float", 40, 41)
    assert b.ok
    r = run(b, _io(np.zeros((M, INNER), np.float32), np.zeros(M * 32, np.int32), np.zeros(32, np.uint8), np.float32, 41),
            block_dim=1)
    assert not r.ok
    d = r.diagnostics[0]
    assert d.kind == "adv-shape" and "k = 41 must be in [1, n = 40]" in d.message, d.render()


HOST = r'''#include "tiling/tiling_api.h"
#include <cstdio>
int main() {
    platform_ascendc::PlatformAscendC platform;
    optiling::TopkTiling t;
    uint32_t mx, mn;
    bool ok = AscendC::GetTopKMaxMinTmpSize(platform, 64, 3, false, false, AscendC::TopKMode::TOPK_NORMAL, true, 4, mx, mn);
    bool ok2 = AscendC::TopKTilingFunc(platform, 64, 3, 5, 4, false, AscendC::TopKMode::TOPK_NORMAL, true, t);
    std::printf("%d %d %u %u %d %d\n", ok, ok2, mn, mx, t.tmpLocalSize, t.kAlignFourBytes);
}
'''


def test_host_sizes(tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["1", "1", str(20 * 64), str(20 * 64), str(20 * 64), "8"]


def test_topk_finish_flags_in_small_mode_stop(tmp_path):
    src = tmp_path / "topk.cpp"
    src.write_text(KERNEL.replace("CTYPE", "float").replace("NVALID", "64").replace("KVAL", "5")
                   .replace("TopK<T, false, false, false, TopKMode::TOPK_NSMALL>", "TopK<T, false, true, false, TopKMode::TOPK_NSMALL>"))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))       # compiles, as with the official headers (a run-time rule)
    r = run(b, _io(np.zeros((M, INNER), np.float32), np.zeros(M * 32, np.int32), np.zeros(32, np.uint8), np.float32, 5),
            block_dim=1)
    assert not r.ok
    d = r.diagnostics[0]
    assert d.kind == "adv-shape" and "isHasfinish = true in the Small mode" in d.message, d.render()


CONSTANTS = r'''#include "kernel_operator.h"
using namespace AscendC;
DECL
extern "C" __global__ __aicore__ void consts(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 256);
    yg.SetGlobalBuffer((__gm__ float *)y, 256);
    LocalTensor<float> a = buf.Get<float>();
    DataCopy(a, xg, 256);
    Muls(a, a, (float)(SIXTEEN / TWO), 256 / SIXTEEN * EIGHT);   // the first 128 elements times 8
    DataCopy(yg, a, 256);
}
'''


def test_topk_constants_are_file_scope_names():
    """The A2 TopK implementation's constants (SIXTEEN, TWO, EIGHT, ...) are names every kernel sees, as with the official
    kernel_operator.h (ops-nn top_k_top_p_sample uses SIXTEEN without declaring it): computed counts and scalars as NumPy.
    A kernel declaring one of them at file scope itself gets an ambiguous reference, as the official headers give, with
    a hint that says where the other declaration is."""
    b = build({"k.cpp": CONSTANTS.replace("DECL", "")})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    x = np.arange(256, dtype=np.float32) - 100
    r = run(b, [GM("x", x), GM("y", np.zeros(256, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], np.where(np.arange(256) < 128, x * 8, x))
    b = build({"k.cpp": CONSTANTS.replace("DECL", "constexpr uint32_t TWO = 2;")})
    assert not b.ok
    d = b.errors[0]
    assert "reference to" in d.message and "is ambiguous" in d.message and "SIXTEEN / TWO" in d.source_line, d.render()
    assert "declare yours inside a namespace" in d.hint, d.render()
