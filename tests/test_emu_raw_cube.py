"""The device compiler's raw cube intrinsics (raw_cube.h) and the raw vector forms of raw_vector_unary.h, as SGLang's
laser_attention writes them: cube buffers addressed by numbers (`(__cbuf__ half*)((uintptr_t)64 * 1024)`, `(__ca__
half*)0`), copy_gm_to_cbuf_multi_nd2nz_b16 / _b32s into L1, load_cbuf_to_ca / load_cbuf_to_cb (with and without the
per-fractal transpose, from a base fractal index), load_cbuf_to_cb_transpose for float, mad with init and accumulate,
copy_matrix_cc_to_gm as ND (set_nd_para) in float and half; a GEMM checked against NumPy, a load in the wrong layout
giving the numbers of that layout, an L0A overflow and a bad address as named errors. The vector side: vcmax with an
Order_t, vexp, vconv_f162f32 / vconv_f322f16 and vbrcb on UB addresses."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run, trace, op_names

M, K, N = 32, 32, 48
RNG = np.random.default_rng(37)

# C = A [M, K] @ B [K, N] two ways, on raw cube intrinsics only (no AscendC API call):
#   c  (float): K in two steps of 16 -- L0A the k-th column block of A (load_cbuf_to_ca from fractal kb * M / 16),
#               L0B the k-th row block of B transposed fractal by fractal (load_cbuf_to_cb, transpose, base kb, stride K
#               / 16); the first mad starts L0C from 0, the second accumulates onto it; out ND in float.
#   ch (half):  B given transposed (bt [N, K]): its NZ in L1 is B's ZN already, loaded whole (srcStride 1); out as half.
# TRANS_B is the transpose flag of c's B load (true is right); L0A_AT the L0A address of c's A (0 is right).
GEMM = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void raw_gemm(GM_ADDR a, GM_ADDR b, GM_ADDR bt, GM_ADDR c, GM_ADDR ch) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
#ifdef __DAV_C220_CUBE__
    constexpr int m = %(M)d, k = %(K)d, n = %(N)d;
    __cbuf__ half* l1a = reinterpret_cast<__cbuf__ half*>((uintptr_t)0);
    __cbuf__ half* l1b = reinterpret_cast<__cbuf__ half*>((uintptr_t)64 * 1024);
    __cbuf__ half* l1bt = reinterpret_cast<__cbuf__ half*>((uintptr_t)128 * 1024);
    __ca__ half* l0a = reinterpret_cast<__ca__ half*>((uintptr_t)L0A_AT);
    __cb__ half* l0b = reinterpret_cast<__cb__ half*>((uintptr_t)0);
    __cc__ float* l0c = reinterpret_cast<__cc__ float*>((uintptr_t)0);
    __cc__ float* l0c2 = reinterpret_cast<__cc__ float*>((uintptr_t)64 * 1024);
    set_padding(0);
    set_nd_para(0x1);
    copy_gm_to_cbuf_multi_nd2nz_b16(l1a, (__gm__ half*)a, 0, 1, m, k, 0, k, m, 1, 0);
    copy_gm_to_cbuf_multi_nd2nz_b16(l1b, (__gm__ half*)b, 0, 1, k, n, 0, n, k, 1, 0);
    copy_gm_to_cbuf_multi_nd2nz_b16(l1bt, (__gm__ half*)bt, 0, 1, n, k, 0, k, n, 1, 0);
    set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    for (int kb = 0; kb < k / 16; ++kb) {
        if (kb > 0) {
            set_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
            wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
        }
        load_cbuf_to_ca(l0a, l1a, kb * (m / 16), m / 16, 1, 0, 0, false, inc);
        load_cbuf_to_cb(l0b, l1b, kb, n / 16, k / 16, 0, 0, TRANS_B, inc);
        set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
        wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
        mad(l0c, l0a, l0b, m, 16, n, 0, 0, 0, kb == 0);
    }
    set_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
    for (int i = 0; i < m / 16; ++i)   // A whole: row block i's k / 16 fractals, m / 16 apart in L1
        load_cbuf_to_ca(l0a + i * k * 16, l1a + i * 256, 0, k / 16, m / 16, 0, 0, false, inc);
    load_cbuf_to_cb(l0b, l1bt, 0, k * n / 256, 1, 0, 0, false, inc);
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    mad(l0c2, l0a, l0b, m, k, n, 3, 0, 0, 1);
    set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    copy_matrix_cc_to_gm((__gm__ float*)c, l0c, 0, n, m, n, m, 0, NoQuant, 0, false, true);
    copy_matrix_cc_to_gm((__gm__ half*)ch, l0c2, 0, n, m, n, m, 3, F322F16, 0, false, true);
#endif
}
"""

# A float product F = X [16, 16] @ Y [16, 16] as laser_attention's diagonal matmul makes it: both into L1 with
# copy_gm_to_cbuf_multi_nd2nz_b32s, X into L0A as it lies, Y into L0B with load_cbuf_to_cb_transpose (one 16 x 16-word
# square, two 16 x 8 fractals).
GEMM_F32 = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void raw_gemm_f32(GM_ADDR x, GM_ADDR y, GM_ADDR f) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
#ifdef __DAV_C220_CUBE__
    __cbuf__ float* l1x = reinterpret_cast<__cbuf__ float*>((uintptr_t)256 * 1024);
    __cbuf__ float* l1y = reinterpret_cast<__cbuf__ float*>((uintptr_t)384 * 1024);
    __ca__ float* l0a = reinterpret_cast<__ca__ float*>((uintptr_t)0);
    __cb__ float* l0b = reinterpret_cast<__cb__ float*>((uintptr_t)0);
    __cc__ float* l0c = reinterpret_cast<__cc__ float*>((uintptr_t)0);
    set_nd_para(0x1);
    copy_gm_to_cbuf_multi_nd2nz_b32s(l1x, (__gm__ float*)x, 0, 1, 16, 16, 0, 16, 16, 1, 0);
    copy_gm_to_cbuf_multi_nd2nz_b32s(l1y, (__gm__ float*)y, 0, 1, 16, 16, 0, 16, 16, 1, 0);
    set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    load_cbuf_to_ca(l0a, l1x, 0, 2, 1, 0, 0, false, inc);
    load_cbuf_to_cb_transpose(l0b, l1y, 0, 1, 1, 0, inc, 0);
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    mad(l0c, l0a, l0b, 16, 16, 16, 3, 0, 0, 1);
    set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    copy_matrix_cc_to_gm((__gm__ float*)f, l0c, 0, 16, 16, 16, 16, 3, NoQuant, 0, false, true);
#endif
}
"""


def _gemm(trans_b="true", l0a_at="0"):
    src = (GEMM % {"M": M, "K": K, "N": N}).replace("TRANS_B", trans_b).replace("L0A_AT", l0a_at)
    b = build({"k.cpp": src})
    assert b.ok, b.diagnostics
    a = RNG.standard_normal((M, K)).astype(np.float16)
    bm = RNG.standard_normal((K, N)).astype(np.float16)
    args = [GM("a", a), GM("b", bm), GM("bt", np.ascontiguousarray(bm.T)), GM("c", np.zeros((M, N), np.float32), "out"),
            GM("ch", np.zeros((M, N), np.float16), "out")]
    return b, args, run(b, args, block_dim=1), a.astype(np.float64), bm.astype(np.float64)


def test_raw_fp16_gemm_split_k_accumulates_and_the_transposed_b_load_matches_numpy():
    _, _, r, a, bm = _gemm()
    assert r.ok, r.diagnostics
    ref = a @ bm
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-4)      # fp32 accumulation, float out
    np.testing.assert_allclose(r.outputs["ch"].astype(np.float64), ref, rtol=2e-3, atol=2e-2)   # F322F16 out


def test_b_loaded_without_the_fractal_transpose_gives_the_numbers_of_that_layout():
    _, _, r, a, bm = _gemm(trans_b="false")
    assert r.ok, r.diagnostics   # the hardware does not notice either
    # L0B then holds each 16 x 16 block of B transposed in place
    bw = bm.reshape(K // 16, 16, N // 16, 16).transpose(0, 3, 2, 1).reshape(K, N)
    np.testing.assert_allclose(r.outputs["c"], a @ bw, rtol=1e-5, atol=1e-4)
    assert np.abs(r.outputs["c"] - a @ bm).max() > 1.0
    np.testing.assert_allclose(r.outputs["ch"].astype(np.float64), a @ bm, rtol=2e-3, atol=2e-2)   # the other product


def test_an_l0a_load_past_its_end_is_an_l0_overflow_at_the_line():
    src_line = "load_cbuf_to_ca(l0a, l1a, kb * (m / 16)"
    _, _, r, _, _ = _gemm(l0a_at="63 * 1024 + 512")   # two fractals (1 KB) from 63.5 KB: past L0A's 64 KB
    assert not r.ok
    d = next(d for d in r.diagnostics if d.kind == "l0-overflow")
    assert "L0A" in d.message and "LoadData" in d.message
    lines = (GEMM % {"M": M, "K": K, "N": N}).splitlines()
    assert src_line in lines[d.line - 1], (d.line, lines[d.line - 1])


def test_an_address_outside_the_buffer_is_a_named_error():
    _, _, r, _, _ = _gemm(l0a_at="0x70000000")
    assert not r.ok
    d = next(d for d in r.diagnostics if d.kind == "cube-raw-address")
    assert "load_cbuf_to_ca" in d.message and "L0A" in d.message and "__ca__" in d.hint


def test_raw_float_product_with_the_b32_transposed_load_matches_numpy():
    b = build({"k.cpp": GEMM_F32})
    assert b.ok, b.diagnostics
    x = RNG.standard_normal((16, 16)).astype(np.float32)
    y = RNG.standard_normal((16, 16)).astype(np.float32)
    r = run(b, [GM("x", x), GM("y", y), GM("f", np.zeros((16, 16), np.float32), "out")], block_dim=1)
    assert r.ok, r.diagnostics
    np.testing.assert_allclose(r.outputs["f"], x.astype(np.float64) @ y.astype(np.float64), rtol=1e-5, atol=1e-5)


def test_trace_records_the_raw_calls_on_the_cube_pipes():
    b, args, r, _, _ = _gemm()
    assert r.ok, r.diagnostics
    t = trace(b, args, block_dim=1)
    names = op_names()
    ops = {names[o] for o in np.unique(t.records["op"])}
    assert {"LoadData", "Mmad", "Fixpipe", "DataCopy"} <= ops
    assert (t.records["op"] == names.index("Mmad")).sum() == K // 16 + 1


# The vector side: x [2, 128] half. vcmax(ONLY_VALUE) the max of each row; vexp of x; vconv_f162f32 x -> float (four
# repeats of 64), vconv_f322f16 back; vbrcb of the first 16 floats, each filling one 32-byte block; vcadd (compat.h) of
# the floats, its sums written from the second element of a UB address (laser_attention's `vcadd(lj + lines, ...)`).
VEC = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void raw_vec(GM_ADDR x, GM_ADDR mx, GM_ADDR ex, GM_ADDR xf, GM_ADDR xh, GM_ADDR br, GM_ADDR sm) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
#ifdef __DAV_C220_VEC__
    __ubuf__ half* in = reinterpret_cast<__ubuf__ half*>((uintptr_t)0);
    __ubuf__ half* mxu = reinterpret_cast<__ubuf__ half*>((uintptr_t)1024);
    __ubuf__ half* exu = reinterpret_cast<__ubuf__ half*>((uintptr_t)2048);
    __ubuf__ float* xfu = reinterpret_cast<__ubuf__ float*>((uintptr_t)4096);
    __ubuf__ half* xhu = reinterpret_cast<__ubuf__ half*>((uintptr_t)8192);
    __ubuf__ float* bru = reinterpret_cast<__ubuf__ float*>((uintptr_t)16384);
    __ubuf__ float* sumu = reinterpret_cast<__ubuf__ float*>((uintptr_t)20480);
    set_mask_norm();
    set_vector_mask((uint64_t)-1, (uint64_t)-1);
    copy_gm_to_ubuf(in, (__gm__ half*)x, 0, 1, 256 * 2 / 32, 0, 0);
    vector_dup(mxu, (half)0, 1, 1, 1, 8, 8);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    pipe_barrier(PIPE_V);
    vcmax(mxu, in, 2, 1, 1, 8, (Order_t)0b10);
    vexp(exu, in, 2, 1, 1, 8, 8);
    vconv_f162f32(xfu, in, 4, 1, 1, 8, 4);
    pipe_barrier(PIPE_V);
    vconv_f322f16(xhu, xfu, 4, 1, 1, 4, 8);
    vbrcb((__ubuf__ uint32_t*)bru, (__ubuf__ uint32_t*)xfu, 1, 8, 2);
    vector_dup(sumu, 0, 1, 1, 1, 8, 8);
    pipe_barrier(PIPE_V);
    vcadd(sumu + 1, xfu, 4, 1, 1, 8, false);   // one sum per repeat, from the second element (4 bytes in)
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm((__gm__ half*)mx, mxu, 0, 1, 1, 0, 0);
    copy_ubuf_to_gm((__gm__ half*)ex, exu, 0, 1, 256 * 2 / 32, 0, 0);
    copy_ubuf_to_gm((__gm__ float*)xf, xfu, 0, 1, 256 * 4 / 32, 0, 0);
    copy_ubuf_to_gm((__gm__ half*)xh, xhu, 0, 1, 256 * 2 / 32, 0, 0);
    copy_ubuf_to_gm((__gm__ float*)br, bru, 0, 1, 16 * 8 * 4 / 32, 0, 0);
    copy_ubuf_to_gm((__gm__ float*)sm, sumu, 0, 1, 1, 0, 0);
#endif
}
"""


def test_raw_vector_reduce_exp_conversions_and_broadcast_match_numpy():
    b = build({"k.cpp": VEC})
    assert b.ok, b.diagnostics
    x = (RNG.standard_normal(256) * 2).astype(np.float16)
    r = run(b, [GM("x", x), GM("mx", np.zeros(16, np.float16), "out"), GM("ex", np.zeros(256, np.float16), "out"),
                GM("xf", np.zeros(256, np.float32), "out"), GM("xh", np.zeros(256, np.float16), "out"),
                GM("br", np.zeros(128, np.float32), "out"), GM("sm", np.zeros(8, np.float32), "out")], block_dim=1)
    assert r.ok, r.diagnostics
    rows = x.reshape(2, 128)
    np.testing.assert_array_equal(r.outputs["mx"][:2], rows.max(axis=1))     # the value alone, one per repeat
    np.testing.assert_array_equal(r.outputs["mx"][2:], 0)
    np.testing.assert_allclose(r.outputs["ex"].astype(np.float64), np.exp(x.astype(np.float64)), rtol=2e-3)
    np.testing.assert_array_equal(r.outputs["xf"], x.astype(np.float32))
    np.testing.assert_array_equal(r.outputs["xh"], x)
    np.testing.assert_array_equal(r.outputs["br"], np.repeat(x[:16].astype(np.float32), 8))
    # vcadd on a UB address written as a number, its sums from an element that is not 32-byte aligned
    np.testing.assert_allclose(r.outputs["sm"][1:5], x.astype(np.float64).reshape(4, 64).sum(axis=1), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(r.outputs["sm"][[0, 5, 6, 7]], 0)


def test_a_scalar_write_through_a_numbered_ub_pointer_reaches_the_cores_ub():
    # laser_attention's form_diagmat writes `diag[i] = vec[i]` on __ubuf__ pointers made from numbers: the NPU's scalar
    # unit follows them; the build maps each cast to a __ubuf__ pointer onto this core's UB (emu.numbered_ub_casts), so
    # the write lands where the raw copy out reads (this test asserted `raw-buffer-pointer` before that mapping)
    src = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void raw_scalar(GM_ADDR y) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    __ubuf__ float* diag = reinterpret_cast<__ubuf__ float*>((uintptr_t)8192);
    for (int i = 0; i < 8; ++i) diag[i] = 0.5f * i;
    diag[3] = 1.0f;
    set_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm((__gm__ float*)y, diag, 0, 1, 1, 0, 0);
}
"""
    b = build({"k.cpp": src})
    assert b.ok, b.diagnostics
    r = run(b, [GM("y", np.zeros(8, np.float32), "out")], block_dim=1)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], [0, 0.5, 1, 1, 2, 2.5, 3, 3.5])
