"""AscendQuant, AscendDequant and AscendAntiQuant (lib/quantization) in their Ascend 910B (A2) forms against NumPy
models of the A2 data path (no ml_dtypes: bfloat16 is handled as uint16 bits):
- AscendQuant: float / half -> int8, computed in half (source, scale and offset rounded to half first), rounding half
  to even and saturating; per tensor and per channel (scale tensor, offset scalar or tensor);
- AscendDequant: int32 -> float (float scale tensor), bfloat16 (a bfloat16 scalar scale), half (uint64 scale whose
  low 32 bits are a float), row by row of DequantParams with dst rows padded to 32 bytes;
- AscendAntiQuant: int8 -> half per channel (offset / scale of shape [1, N] from SetShapeInfo, and [2, N] groups from
  AntiQuantShapeInfo) and -> bfloat16 per tensor (scalars, computed in float).
The documented rules: only the A2 dtype combinations compile; counts that break the rules stop with `adv-shape`."""
import subprocess

import numpy as np
import pytest

from ascendcraft.emu import GM, INCLUDE_DIR, build, run

QUANT = r'''#include "kernel_operator.h"
#include "lib/quantization/ascend_quant.h"
using namespace AscendC;
using T = CTYPE;
constexpr uint32_t N = 256, CH = 64;
extern "C" __global__ __aicore__ void quant(GM_ADDR x, GM_ADDR sc, GM_ADDR of, GM_ADDR y0, GM_ADDR y1, GM_ADDR y2)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 65536);
    GlobalTensor<T> xg, sg, og;
    GlobalTensor<int8_t> g0, g1, g2;
    xg.SetGlobalBuffer((__gm__ T *)x, N);
    sg.SetGlobalBuffer((__gm__ T *)sc, CH);
    og.SetGlobalBuffer((__gm__ T *)of, CH);
    g0.SetGlobalBuffer((__gm__ int8_t *)y0, N);
    g1.SetGlobalBuffer((__gm__ int8_t *)y1, N);
    g2.SetGlobalBuffer((__gm__ int8_t *)y2, N);
    LocalTensor<T> xl = buf.GetWithOffset<T>(N, 0);
    LocalTensor<T> sl = buf.GetWithOffset<T>(CH, 2048);
    LocalTensor<T> ol = buf.GetWithOffset<T>(CH, 4096);
    LocalTensor<int8_t> d0 = buf.GetWithOffset<int8_t>(N, 8192);
    LocalTensor<int8_t> d1 = buf.GetWithOffset<int8_t>(N, 12288);
    LocalTensor<int8_t> d2 = buf.GetWithOffset<int8_t>(N, 16384);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(1024, 32768);
    DataCopy(xl, xg, N);
    DataCopy(sl, sg, CH);
    DataCopy(ol, og, CH);
    PipeBarrier<PIPE_ALL>();
    AscendQuant<T>(d0, xl, tmp, 3.5f, 1.25f, N);             // per tensor
    AscendQuant<T>(d1, xl, sl, (T)-2.0f, CH, CALCOUNT);       // per channel, a scalar offset
    AscendQuant<T>(d2, xl, tmp, sl, ol);                      // per channel, an offset tensor (whole tensors)
    PipeBarrier<PIPE_ALL>();
    DataCopy(g0, d0, N);
    DataCopy(g1, d1, N);
    DataCopy(g2, d2, N);
}
'''
N, CH = 256, 64


def f16(x):
    return np.asarray(x, np.float64).astype(np.float16).astype(np.float64)


def quant_ref(x, scale, offset):      # the A2 path: everything in half, then round half to even, saturate
    return np.clip(np.rint(f16(f16(f16(x) * f16(scale)) + f16(offset))), -128, 127).astype(np.int8)


def _build(tmp_path, name, text):
    src = tmp_path / f"{name}.cpp"
    src.write_text(text)
    return build(src)


@pytest.mark.parametrize("ctype, dtype", [("float", np.float32), ("half", np.float16)])
def test_ascend_quant_per_tensor_and_per_channel(tmp_path, ctype, dtype):
    b = _build(tmp_path, "quant", QUANT.replace("CTYPE", ctype).replace("CALCOUNT", "N"))
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(10)
    x = (rng.standard_normal(N) * 30).astype(dtype)
    x[:8] = [0.5, 1.5, 2.5, -0.5, -1.5, 100, -100, 0.25]     # ties and saturation (after * 3.5 + 1.25 below)
    sc = (rng.uniform(0.5, 3, CH)).astype(dtype)
    of = rng.uniform(-4, 4, CH).astype(dtype)
    outs = [GM(f"y{i}", np.zeros(N, np.int8), "out") for i in range(3)]
    r = run(b, [GM("x", x), GM("sc", sc), GM("of", of), *outs], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    x64 = x.astype(np.float64)
    np.testing.assert_array_equal(r.outputs["y0"], quant_ref(x64, 3.5, 1.25))
    np.testing.assert_array_equal(r.outputs["y1"], quant_ref(x64, np.tile(sc, N // CH), -2.0))
    np.testing.assert_array_equal(r.outputs["y2"], quant_ref(x64, np.tile(sc, N // CH), np.tile(of, N // CH)))
    assert (r.outputs["y0"] == 127).any() and (r.outputs["y0"] == -128).any()


def test_ascend_quant_rounds_half_to_even():
    # 0.5 * 1 + 0 -> 0, 1.5 -> 2, 2.5 -> 2, -0.5 -> -0, -1.5 -> -2 (round half to even), not away from zero
    assert list(quant_ref(np.array([0.5, 1.5, 2.5, -0.5, -1.5]), 1, 0)) == [0, 2, 2, 0, -2]


def test_ascend_quant_calcount_not_a_multiple_of_scalecount_stops(tmp_path):
    b = _build(tmp_path, "quant", QUANT.replace("CTYPE", "float").replace("CALCOUNT", "96"))
    assert b.ok
    z = np.zeros(N, np.float32)
    r = run(b, [GM("x", z), GM("sc", np.ones(CH, np.float32)), GM("of", np.zeros(CH, np.float32)),
                *[GM(f"y{i}", np.zeros(N, np.int8), "out") for i in range(3)]], block_dim=1)
    assert not r.ok
    d = r.diagnostics[0]
    assert d.kind == "adv-shape" and "scaleCount 64" in d.message and "divides calCount 96" in d.message, d.render()


DEQUANT = r'''#include "kernel_operator.h"
#include "lib/quantization/ascend_dequant.h"
using namespace AscendC;
constexpr uint32_t M = 4, K = 24, CC = 16, KB = 32;   // a row of 24 int32 (96 bytes); bf16 / half dst rows of 32
extern "C" __global__ __aicore__ void dequant(GM_ADDR x, GM_ADDR sc, GM_ADDR su, GM_ADDR y0, GM_ADDR y1, GM_ADDR y2)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 65536);
    GlobalTensor<int32_t> xg;
    GlobalTensor<float> sg, g0;
    GlobalTensor<uint64_t> ug;
    GlobalTensor<bfloat16_t> g1;
    GlobalTensor<half> g2;
    xg.SetGlobalBuffer((__gm__ int32_t *)x, M * K);
    sg.SetGlobalBuffer((__gm__ float *)sc, K);
    ug.SetGlobalBuffer((__gm__ uint64_t *)su, K);
    g0.SetGlobalBuffer((__gm__ float *)y0, M * K);
    g1.SetGlobalBuffer((__gm__ bfloat16_t *)y1, M * KB);
    g2.SetGlobalBuffer((__gm__ half *)y2, M * K * 2);
    LocalTensor<int32_t> xl = buf.GetWithOffset<int32_t>(M * K, 0);
    LocalTensor<float> sl = buf.GetWithOffset<float>(K, 1024);
    LocalTensor<uint64_t> ul = buf.GetWithOffset<uint64_t>(K, 2048);
    LocalTensor<float> d0 = buf.GetWithOffset<float>(M * K, 4096);
    LocalTensor<bfloat16_t> d1 = buf.GetWithOffset<bfloat16_t>(M * KB, 8192);
    LocalTensor<half> d2 = buf.GetWithOffset<half>(M * K * 2, 12288);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(4096, 32768);
    DataCopy(xl, xg, M * K);
    DataCopy(sl, sg, K);
    DataCopy(ul, ug, K);
    Duplicate(d0, 0.0f, M * K);
    Duplicate(d1, (bfloat16_t)0.0f, M * KB);
    Duplicate(d2, (half)0.0f, M * K * 2);
    PipeBarrier<PIPE_ALL>();
    AscendDequant(d0, xl, sl, tmp, {M, K, CC});                     // float scale tensor, the first CC of each row
    AscendDequant<bfloat16_t, float>(d1, xl, 0.375f, {M, K, K});     // a float scalar, dst rows padded to 32
    AscendDequant<half, uint64_t>(d2, xl, ul, M * K);               // uint64 scale: [M, K] rows of K
    PipeBarrier<PIPE_ALL>();
    DataCopy(g0, d0, M * K);
    DataCopy(g1, d1, M * KB);
    DataCopy(g2, d2, M * K * 2);
}
'''


def bf16_bits(x):        # float32 -> bfloat16 bits, round to nearest even
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def test_ascend_dequant_forms(tmp_path):
    b = _build(tmp_path, "dequant", DEQUANT)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    M, K, CC, KB = 4, 24, 16, 32
    rng = np.random.default_rng(11)
    x = rng.integers(-(1 << 20), 1 << 20, (M, K)).astype(np.int32)
    sc = rng.uniform(-0.01, 0.01, K).astype(np.float32)
    su = (sc.view(np.uint32).astype(np.uint64) | (np.uint64(0xABC) << np.uint64(32)))   # high bits: not the scale
    r = run(b, [GM("x", x), GM("sc", sc), GM("su", su), GM("y0", np.zeros((M, K), np.float32), "out"),
                GM("y1", np.zeros((M, KB), np.uint16), "out"), GM("y2", np.zeros((M, 2 * K), np.float16), "out")],
            block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    xf = x.astype(np.float32)
    want0 = np.zeros((M, K), np.float32)
    want0[:, :CC] = xf[:, :CC] * sc[:CC]
    np.testing.assert_array_equal(r.outputs["y0"], want0)
    want1 = np.zeros((M, KB), np.uint16)
    want1[:, :K] = bf16_bits(xf * np.float32(0.375))
    np.testing.assert_array_equal(r.outputs["y1"].view(np.uint16), want1)
    want2 = np.zeros((M, 2 * K), np.float16)          # half rows of K = 24 pad to 32 elements
    want2.reshape(-1)[: M * 32].reshape(M, 32)[:, :K] = (xf * sc).astype(np.float16)
    np.testing.assert_array_equal(r.outputs["y2"], want2)


def test_ascend_dequant_a2_types_only(tmp_path):
    bad = _build(tmp_path, "dq", DEQUANT.replace("AscendDequant<half, uint64_t>(d2, xl, ul, M * K);",
                                                 "AscendDequant(d2, xl, sl, M * K);"))
    assert not bad.ok and any("AscendDequant on Ascend 910B" in str(d) for d in bad.diagnostics)


ANTIQUANT = r'''#include "kernel_operator.h"
#include "lib/quantization/ascend_antiquant.h"
using namespace AscendC;
constexpr uint32_t K = 8, N = 64;
extern "C" __global__ __aicore__ void antiquant(GM_ADDR x, GM_ADDR of, GM_ADDR sc, GM_ADDR y0, GM_ADDR y1, GM_ADDR y2)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 65536);
    GlobalTensor<int8_t> xg;
    GlobalTensor<half> og, sg, g0, g1;
    GlobalTensor<bfloat16_t> g2;
    xg.SetGlobalBuffer((__gm__ int8_t *)x, K * N);
    og.SetGlobalBuffer((__gm__ half *)of, 2 * N);
    sg.SetGlobalBuffer((__gm__ half *)sc, 2 * N);
    g0.SetGlobalBuffer((__gm__ half *)y0, K * N);
    g1.SetGlobalBuffer((__gm__ half *)y1, K * N);
    g2.SetGlobalBuffer((__gm__ bfloat16_t *)y2, K * N);
    LocalTensor<int8_t> xl = buf.GetWithOffset<int8_t>(K * N, 0);
    LocalTensor<half> ol = buf.GetWithOffset<half>(2 * N, 1024);
    LocalTensor<half> sl = buf.GetWithOffset<half>(2 * N, 2048);
    LocalTensor<half> d0 = buf.GetWithOffset<half>(K * N, 4096);
    LocalTensor<half> d1 = buf.GetWithOffset<half>(K * N, 8192);
    LocalTensor<bfloat16_t> d2 = buf.GetWithOffset<bfloat16_t>(K * N, 12288);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(8192, 32768);
    DataCopy(xl, xg, K * N);
    DataCopy(ol, og, 2 * N);
    DataCopy(sl, sg, 2 * N);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<half> o1 = ol[0], s1 = sl[0];
    uint32_t shape[] = {1, N};
    o1.SetShapeInfo(ShapeInfo(2, shape, DataFormat::ND));
    s1.SetShapeInfo(ShapeInfo(2, shape, DataFormat::ND));
    AscendAntiQuant<int8_t, half, false>(d0, xl, o1, s1, tmp, K);           // per channel, [1, N] from SetShapeInfo
    AntiQuantShapeInfo groups = {2, N, 2, N};
    AscendAntiQuant<int8_t, half, false>(d1, xl, ol, sl, K, groups);        // two groups of K / 2 rows
    AscendAntiQuant<int8_t, bfloat16_t, false>(d2, xl, (bfloat16_t)-3.0f, (bfloat16_t)0.3f, tmp, K);   // per tensor
    PipeBarrier<PIPE_ALL>();
    DataCopy(g0, d0, K * N);
    DataCopy(g1, d1, K * N);
    DataCopy(g2, d2, K * N);
}
'''


def test_ascend_antiquant_per_channel_and_per_tensor(tmp_path):
    b = _build(tmp_path, "antiquant", ANTIQUANT)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    K, N = 8, 64
    rng = np.random.default_rng(12)
    x = rng.integers(-128, 128, (K, N)).astype(np.int8)
    of = rng.uniform(-8, 8, (2, N)).astype(np.float16)
    sc = rng.uniform(-0.2, 0.2, (2, N)).astype(np.float16)
    r = run(b, [GM("x", x), GM("of", of), GM("sc", sc), GM("y0", np.zeros((K, N), np.float16), "out"),
                GM("y1", np.zeros((K, N), np.float16), "out"), GM("y2", np.zeros((K, N), np.uint16), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    xh = x.astype(np.float16)
    np.testing.assert_array_equal(r.outputs["y0"], (xh + of[0]) * sc[0])          # half arithmetic, as A2
    rows = np.arange(K) // (K // 2)
    np.testing.assert_array_equal(r.outputs["y1"], (xh + of[rows]) * sc[rows])
    s = (bf16_bits(np.float32(0.3)).astype(np.uint32) << 16).view(np.float32)
    want = bf16_bits((x.astype(np.float32) + np.float32(-3.0)) * s)               # float arithmetic, then bf16
    np.testing.assert_array_equal(r.outputs["y2"].view(np.uint16), want)


def test_ascend_antiquant_group_that_does_not_divide_k_stops(tmp_path):
    b = _build(tmp_path, "antiquant", ANTIQUANT.replace("groups = {2, N, 2, N}", "groups = {3, N, 3, N}"))
    assert b.ok
    z8 = np.zeros((8, 64), np.int8)
    r = run(b, [GM("x", z8), GM("of", np.zeros((2, 64), np.float16)), GM("sc", np.ones((2, 64), np.float16)),
                GM("y0", np.zeros((8, 64), np.float16), "out"), GM("y1", np.zeros((8, 64), np.float16), "out"),
                GM("y2", np.zeros((8, 64), np.uint16), "out")], block_dim=1)
    assert not r.ok
    d = r.diagnostics[0]
    assert d.kind == "adv-shape" and "[3, 64]" in d.message and "AntiQuantShapeInfo" in d.hint, d.render()


HOST = r'''#include "tiling/tiling_api.h"
#include <cstdio>
int main() {
    uint32_t qmax, qmin, dmax, dmin, amax, amin, bmax, bmin;
    AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({1024}), 4, qmax, qmin);
    AscendC::GetAscendDequantMaxMinTmpSize(ge::Shape({4, 64}), 4, dmax, dmin);
    AscendC::GetAscendAntiQuantMaxMinTmpSize(ge::Shape({8, 128}), ge::Shape({128}), false, ge::DataType::DT_INT8,
                                             ge::DataType::DT_FLOAT16, amax, amin);
    AscendC::GetAscendAntiQuantMaxMinTmpSize(ge::Shape({8, 128}), ge::Shape({128}), false, ge::DT_INT8, ge::DT_BF16,
                                             bmax, bmin);
    std::printf("%u %u %u %u %u %u %u %u\n", qmax, qmin, dmax, dmin, amax, amin, bmax, bmin);
}
'''


def test_host_tmp_sizes(tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    got = list(map(int, subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True).stdout.split()))
    per_channel_bf16 = 128 * 2 * 4 + 64 * 8 * 4
    assert got == [2048, 512, (64 + 256 + 72) * 4, (64 + 64 + 72) * 4, 0, 0, per_channel_bf16, per_channel_bf16]
