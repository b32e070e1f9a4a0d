"""Scalar reads and writes through `__ubuf__` pointers made from numbers, as SGLang's laser_attention writes them
(`reinterpret_cast<__ubuf__ float*>((uintptr_t)offset)`, then `(diag + shift)[i] = vec[i]`): on the NPU the scalar unit
addresses UB directly; the build turns each cast to a `__ubuf__` pointer into the place of that offset in the core's
emulated UB (emu.numbered_ub_casts, raw_intrinsics.h ascendcraft::emu::ub_cast), so the scalar code and the raw intrinsics see
the same bytes. Kernels written here in laser_attention's style."""
import numpy as np

from ascendcraft.emu import GM, build, numbered_ub_casts, run

# x -> UB at 8 KB by DMA; the scalar unit reads it through one numbered pointer, the C-style cast's, and writes
# 2 x + 1 through another (reinterpret_cast, with pointer arithmetic) at 16 KB; vadd (raw) adds the two; y = 3 x + 1.
# Two vector cores: each works on its own UB at the same numbered addresses, on its own half of x.
SCALAR = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void raw_scalar(GM_ADDR x, GM_ADDR y) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    const int n = 64, base = AscendC::GetBlockIdx() * n;
    __ubuf__ float* in = (__ubuf__ float*)((uintptr_t)8 * 1024);
    __ubuf__ float* mid = reinterpret_cast<__ubuf__ float*>((uintptr_t)16 * 1024);
    __ubuf__ float* out = reinterpret_cast<__ubuf__ float*>((uintptr_t)24 * 1024);
    copy_gm_to_ubuf(in, (__gm__ float*)x + base, 0, 1, n * sizeof(float) / 32, 0, 0);
    set_flag(PIPE_MTE2, PIPE_S, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_S, EVENT_ID0);
    for (int i = 0; i < n; ++i) {
        (mid + 8)[i - 8] = in[i] * 2.0f + 1.0f;
    }
    set_flag(PIPE_S, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_S, PIPE_V, EVENT_ID0);
    set_vector_mask((uint64_t)0, (uint64_t)-1);
    vadd(out, mid, in, 1, 1, 1, 1, 8, 8, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm((__gm__ float*)y + base, out, 0, 1, n * sizeof(float) / 32, 0, 0);
}
"""


def test_scalar_access_through_numbered_ub_pointers_meets_the_raw_intrinsics():
    x = np.random.default_rng(38).standard_normal(128).astype(np.float32)
    b = build({"k.cpp": SCALAR})
    assert b.ok, b.diagnostics
    r = run(b, [GM("x", x), GM("y", np.zeros(128, np.float32), "out")], block_dim=2)
    assert r.ok, r.diagnostics
    np.testing.assert_allclose(r.outputs["y"], x * 3 + 1, rtol=1e-6, atol=1e-6)
    # vadd reads what only the scalar unit wrote: written bytes, not an uninitialised read
    assert not [d for d in r.diagnostics if d.kind == "ub-uninitialised"], r.diagnostics


def test_a_vector_read_of_ub_nothing_wrote_is_still_noted():
    # the same kernel with the scalar loop writing only the first half of `mid`: vadd's read of the rest is the note
    b = build({"k.cpp": SCALAR.replace("for (int i = 0; i < n; ++i)", "for (int i = 0; i < n / 2; ++i)")})
    assert b.ok, b.diagnostics
    r = run(b, [GM("x", np.ones(128, np.float32)), GM("y", np.zeros(128, np.float32), "out")], block_dim=2)
    d = next(d for d in r.diagnostics if d.kind == "ub-uninitialised")
    assert d.line == 18 and "byte 128 of the tensor (UB offset 16512)" in d.message, d.render()


# The scalar unit past either end of the core's UB: `top[i]` from 256 bytes below the UB's end (192 KB), or `low[-1]`
# at offset 0; i (a GM input) is 63 in bounds, 64 one element past.
OUT_OF_RANGE = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void raw_range(GM_ADDR idx, GM_ADDR y) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    __ubuf__ float* top = reinterpret_cast<__ubuf__ float*>((uintptr_t)192 * 1024 - 256);
    __ubuf__ float* low = (__ubuf__ float*)((uintptr_t)0);
    const int32_t i = ((__gm__ int32_t*)idx)[0];
    const int32_t below = ((__gm__ int32_t*)idx)[1];
    top[i] = 2.0f;
    low[below] = 3.0f;
    low[8] = top[i] + low[below];
    set_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm((__gm__ float*)y, low + 8, 0, 1, 1, 0, 0);
}
"""


def test_scalar_access_past_the_ub_is_a_named_error_at_its_line():
    b = build({"k.cpp": OUT_OF_RANGE})
    assert b.ok, b.diagnostics
    ok = run(b, [GM("idx", np.array([63, 0], np.int32)), GM("y", np.zeros(8, np.float32), "out")], block_dim=1)
    assert ok.ok, ok.diagnostics
    assert ok.outputs["y"][0] == 5.0
    for idx, line, offset in (([64, 0], 9, 192 * 1024), ([63, -1], 10, -4)):
        r = run(b, [GM("idx", np.array(idx, np.int32)), GM("y", np.zeros(8, np.float32), "out")], block_dim=1)
        assert not r.ok
        d = next(d for d in r.diagnostics if d.kind == "ub-out-of-range")
        assert d.line == line, d.render()
        assert f"UB offset {offset} " in d.message, d.render()


def test_the_rewrite_maps_each_cast_form_and_leaves_declarations():
    src = ("p = reinterpret_cast<__ubuf__ float *>((uintptr_t)off);\n"
           "q = (__ubuf__ half*)t.GetPhyAddr() + 3;\n"
           "r = (__ubuf__ float*)(uintptr_t)x[2];\n"
           "void f(__ubuf__ float*);\n"
           "n = sizeof(__ubuf__ float*);\n")
    out = numbered_ub_casts(src).splitlines()
    assert out == ["p = ::ascendcraft::emu::ub_cast<__ubuf__ float *>((uintptr_t)off);",
                   "q = ::ascendcraft::emu::ub_cast<__ubuf__ half*>(t.GetPhyAddr()) + 3;",
                   "r = ::ascendcraft::emu::ub_cast<__ubuf__ float*>((uintptr_t)x[2]);",
                   "void f(__ubuf__ float*);",
                   "n = sizeof(__ubuf__ float*);"]


def test_a_scalar_write_through_a_numbered_cube_buffer_pointer_is_still_named():
    # L1 is no scalar-unit memory (no rewrite maps __cbuf__): the SIGSEGV at its small address keeps its diagnostic
    src = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void raw_l1(GM_ADDR y) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    __cbuf__ float* l1 = reinterpret_cast<__cbuf__ float*>((uintptr_t)8192);
    l1[3] = 1.0f;
    (void)l1;
}
"""
    b = build({"k.cpp": src})
    assert b.ok, b.diagnostics
    r = run(b, [GM("y", np.zeros(8, np.float32), "out")], block_dim=1)
    assert not r.ok
    d = next(d for d in r.diagnostics if d.kind == "raw-buffer-pointer")
    assert "0x200c" in d.message and "GetValue / SetValue" in d.hint   # 8192 + 3 floats
