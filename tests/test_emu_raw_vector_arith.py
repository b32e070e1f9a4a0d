"""The device compiler's raw vector intrinsics that hicann ops-blas's arch22 kernels call instead of the AscendC API
(raw_vector_arith.h): vreducev2 (GatherMask by a built-in pattern), vmuls / vsub / vadd / vmul / vmla / vaxpy,
vgather, copy_gm_to_ubuf / copy_ubuf_to_gm, on __ubuf__ pointers written as UB addresses (`(__ubuf__ float*)
((uintptr_t)1024)`, as caxpy does), and the raw core indices get_block_idx / get_subblockdim / get_subblockid in a
mixed launch and in a vector-only one. Values against NumPy."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

N = 64   # complex elements: 128 floats, two repeats of 64 lanes

# A complex multiply by (2 + 3i) the way ops-blas caxpy does it: split real / imaginary parts with vreducev2's patterns
# 1 and 2, scale, combine, and interleave them back with vgather; and z = re * im + (re + im) with vadd and vmla.
CPLX = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ __vector__ void raw_cplx(GM_ADDR x, GM_ADDR idx, GM_ADDR y, GM_ADDR z) {
#if __DAV_C220_VEC__
    set_mask_norm();
    set_vector_mask((uint64_t)-1, (uint64_t)-1);
    __ubuf__ float* in = reinterpret_cast<__ubuf__ float*>((uintptr_t)0);
    __ubuf__ float* re = reinterpret_cast<__ubuf__ float*>((uintptr_t)1024);
    __ubuf__ float* im = reinterpret_cast<__ubuf__ float*>((uintptr_t)2048);
    __ubuf__ float* t = reinterpret_cast<__ubuf__ float*>((uintptr_t)3072);
    __ubuf__ uint32_t* off = reinterpret_cast<__ubuf__ uint32_t*>((uintptr_t)4096);
    __ubuf__ float* out = reinterpret_cast<__ubuf__ float*>((uintptr_t)6144);
    __ubuf__ float* w = reinterpret_cast<__ubuf__ float*>((uintptr_t)8192);
    copy_gm_to_ubuf_align_b32(in, x, 0, 1, 128 * 4, 0, 0, 0, 0);
    copy_gm_to_ubuf(off, (__gm__ uint32_t*)idx, 0, 1, 128 * 4 / 32, 0, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    vreducev2(reinterpret_cast<__ubuf__ uint32_t*>(re), reinterpret_cast<__ubuf__ uint32_t*>(in), nullptr, 2, 1, 1, 8, 8);
    vreducev2(reinterpret_cast<__ubuf__ uint32_t*>(im), reinterpret_cast<__ubuf__ uint32_t*>(in), nullptr, 2, 1, 2, 8, 8);
    pipe_barrier(PIPE_V);
    vmuls(t, re, 2.0f, 1, 1, 1, 8, 8);
    vmuls(t + 64, im, 3.0f, 1, 1, 1, 8, 8);
    pipe_barrier(PIPE_V);
    vsub(t, t, t + 64, 1, 1, 1, 1, 8, 8, 8);
    pipe_barrier(PIPE_V);
    vmuls(t + 64, re, 3.0f, 1, 1, 1, 8, 8);
    pipe_barrier(PIPE_V);
    vaxpy(t + 64, im, 2.0f, 1, 1, 1, 8, 8);
    pipe_barrier(PIPE_V);
    vgather(reinterpret_cast<__ubuf__ uint32_t*>(out), off, (uintptr_t)t, 8, 2);
    vadd(w, re, im, 1, 1, 1, 1, 8, 8, 8);
    pipe_barrier(PIPE_V);
    vmla(w, re, im, 1, 1, 1, 1, 8, 8, 8);
    vmul(w + 64, re, im, 1, 1, 1, 1, 8, 8, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm((__gm__ float*)y, out, 0, 1, 128 * 4 / 32, 0, 0);
    copy_ubuf_to_gm_align_b32((__gm__ float*)z, w, 0, 1, 128 * 4, 0, 0, 0, 0);
#endif
}
"""

# The raw core indices, written by every vector core at its GetBlockIdx() row: get_block_idx, get_subblockdim,
# get_subblockid and get_block_idx * get_subblockdim + get_subblockid.
INDICES = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void raw_idx(GM_ADDR y) {
    KERNEL_TASK_TYPE_DEFAULT(KIND);
    if ASCEND_IS_AIV {
        GlobalTensor<int32_t> g;
        g.SetGlobalBuffer((__gm__ int32_t*)y, 64);
        const int64_t i = GetBlockIdx();
        g.SetValue(i * 4 + 0, (int32_t)get_block_idx());
        g.SetValue(i * 4 + 1, (int32_t)get_subblockdim());
        g.SetValue(i * 4 + 2, (int32_t)get_subblockid());
        g.SetValue(i * 4 + 3, (int32_t)(get_block_idx() * get_subblockdim() + get_subblockid()));
    }
}
"""


def test_raw_intrinsics_on_ub_addresses_compute_a_complex_product_as_numpy_does():
    rng = np.random.default_rng(5)
    x = rng.standard_normal(2 * N).astype(np.float32)
    a, b = x[0::2], x[1::2]
    # vgather's byte offsets from t: output 2k is t[k] (real), 2k + 1 is t[64 + k] (imaginary)
    idx = np.empty(2 * N, np.uint32)
    idx[0::2] = np.arange(N) * 4
    idx[1::2] = (64 + np.arange(N)) * 4
    b_ = build({"k.cpp": CPLX})
    assert b_.ok, b_.diagnostics
    r = run(b_, [GM("x", x), GM("idx", idx), GM("y", np.zeros(2 * N, np.float32), "out"),
                 GM("z", np.zeros(2 * N, np.float32), "out")], block_dim=1)
    assert r.ok, r.diagnostics
    y, z = r.outputs["y"], r.outputs["z"]
    two, three = np.float32(2), np.float32(3)
    np.testing.assert_array_equal(y[0::2], two * a - three * b)
    np.testing.assert_allclose(y[1::2], three * a + two * b, rtol=2e-7, atol=1e-7)
    np.testing.assert_allclose(z[:N], a * b + (a + b), rtol=2e-7, atol=1e-7)
    np.testing.assert_array_equal(z[N:], a * b)


@pytest.mark.parametrize("kind, groups, ratio", [("KERNEL_TYPE_MIX_AIC_1_2", 3, 2), ("KERNEL_TYPE_AIV_ONLY", 5, 1)])
def test_raw_block_index_is_the_group_and_the_sub_block_the_vector_core_in_it(kind, groups, ratio):
    b_ = build({"k.cpp": INDICES.replace("KIND", kind)})
    assert b_.ok, b_.diagnostics
    cores = groups * ratio
    r = run(b_, [GM("y", np.full(64, -1, np.int32), "inout")], block_dim=groups)
    assert r.ok, r.diagnostics
    rows = r.outputs["y"][:4 * cores].reshape(cores, 4)
    i = np.arange(cores)
    np.testing.assert_array_equal(rows[:, 0], i // ratio)     # get_block_idx: the group
    np.testing.assert_array_equal(rows[:, 1], np.full(cores, ratio))
    np.testing.assert_array_equal(rows[:, 2], i % ratio)
    np.testing.assert_array_equal(rows[:, 3], i)              # = GetBlockIdx()
