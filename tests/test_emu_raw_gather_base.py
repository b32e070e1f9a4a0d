"""The raw vgather's source address is Gather's srcBaseAddr: the API reference (Gather.md) asks it to be aligned to the
source element only, not to 32 bytes (hicann ops-math arg_max_with_value gathers from a static tensor's address + 4
bytes, and matched on the 910B). A base off the element width stops at the call. Kernel written here in that style."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ __vector__ void raw_gather_base(GM_ADDR x, GM_ADDR idx, GM_ADDR y) {
#if __DAV_C220_VEC__
    __ubuf__ float* in = reinterpret_cast<__ubuf__ float*>((uintptr_t)1024);
    __ubuf__ uint32_t* off = reinterpret_cast<__ubuf__ uint32_t*>((uintptr_t)4096);
    __ubuf__ float* out = reinterpret_cast<__ubuf__ float*>((uintptr_t)6144);
    copy_gm_to_ubuf(in, (__gm__ float*)x, 0, 1, 128 * 4 / 32, 0, 0);
    copy_gm_to_ubuf(off, (__gm__ uint32_t*)idx, 0, 1, 64 * 4 / 32, 0, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    set_mask_norm();
    set_vector_mask(0, (uint64_t)-1);
    vgather(reinterpret_cast<__ubuf__ uint32_t*>(out), off, SRC, 8, 1);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm((__gm__ float*)y, out, 0, 1, 64 * 4 / 32, 0, 0);
#endif
}
"""


def _run(tmp_path, src_expr):
    path = tmp_path / "k.cpp"
    path.write_text(KERNEL.replace("SRC", src_expr))
    b = build(path)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.arange(128, dtype=np.float32) * 0.5 - 7
    idx = (np.arange(64, dtype=np.uint32)[::-1] * 4).astype(np.uint32)   # element 63 - i of the base, in bytes
    return run(b, [GM("x", x), GM("idx", idx), GM("y", np.zeros(64, np.float32), "out")], block_dim=1), x


@pytest.mark.parametrize("src_expr, skip", [
    ("(uint64_t)(1024 + 4)", 1),                           # a UB address written as a number, one float in
    ("(uint64_t)((uintptr_t)in + 12)", 3),                 # a place past the pointer, three floats in
    ("(uint64_t)(1024 + 32)", 8),                          # on the 32-byte grid (as before)
])
def test_vgather_from_a_base_aligned_to_the_element_reads_there(tmp_path, src_expr, skip):
    r, x = _run(tmp_path, src_expr)
    assert r.ok, [d.render() for d in r.diagnostics]
    np.testing.assert_array_equal(r.outputs["y"], x[skip:skip + 64][::-1])


def test_vgather_from_a_base_off_the_element_width_stops_at_the_call(tmp_path):
    r, _ = _run(tmp_path, "(uint64_t)(1024 + 2)")
    e = [d for d in r.diagnostics if d.is_error]
    assert e and e[0].kind == "ub-misaligned" and "sizeof(uint32_t) = 4" in e[0].message and "vgather" in e[0].source_line, \
        [d.render() for d in r.diagnostics]
