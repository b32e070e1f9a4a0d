"""DataCopy's count form (`DataCopy(dst, src, count)`) with a count that is not a 32-byte multiple: AscendC sets
blockLen = count / (32 / sizeof(T)), and on the NPU the copy moves those whole blocks and reports nothing (asc-devkit's
DataCopyCheck asserts alignment only in CANN's CPU-debug build: "In NPU mode, no error is reported. The value is
rounded down by 32B."). LLM4AscendC's two triangular matmuls, which passed on their 910B, clear each row's other
triangle with such counts, down to 1 float (the part they miss is already 0). The emulator copies the whole blocks,
as the NPU does, none under one block, with one `copy-misaligned` warning per line (it was an error before). A kernel
that writes nothing at all is still `no-output`; the explicit form's blockLen 0 is still `copy-params`."""
import numpy as np

from ascendcraft.emu import GM, Scalar, build, run

KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void rows(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t small) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 64 * sizeof(float));
    pipe.InitBuffer(b, 64 * sizeof(float));
    GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x);
    yg.SetGlobalBuffer((__gm__ float*)y);
    zg.SetGlobalBuffer((__gm__ float*)z);
    LocalTensor<float> u = a.Get<float>(), v = b.Get<float>();
    Duplicate(v, -1.0f, 64);
    PipeBarrier<PIPE_V>();
    DataCopy(u, xg, 60);                        // GM -> UB: 240 bytes, 224 copied
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    DataCopy(v, u, 20);                         // UB -> UB: 80 bytes, 64 copied
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    for (int32_t row = 0; row < 4; ++row)
        DataCopy(yg[row * 16], v, 16 - row);    // UB -> GM: 64, 60, 56, 52 bytes; 64, 32, 32, 32 copied
    if (small) DataCopy(zg, v, small);          // under one block: nothing
}
"""


def _run(small: int):
    x = np.arange(64, dtype=np.float32)
    y = np.full(64, 7.0, np.float32)
    return run(build({"rows.cpp": KERNEL}), [GM("x", x), GM("y", y, "inout"), GM("z", np.full(8, 7.0, np.float32), "inout"),
                                             Scalar(small, "uint32_t")], block_dim=1)


def test_a_count_past_whole_blocks_copies_the_whole_blocks_with_one_warning_per_line():
    r = _run(0)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = np.full(64, 7.0, np.float32)
    v = np.full(64, -1.0, np.float32)
    v[:16] = np.arange(16)                          # the UB -> UB copy's 16 floats (of 20); the GM -> UB copy's 56
    for row in range(4):
        n = (16 - row) * 4 // 32 * 8                # whole 32-byte blocks of floats
        want[row * 16: row * 16 + n] = v[:n]
    np.testing.assert_array_equal(r.outputs["y"], want)
    warned = [d for d in r.diagnostics if d.severity == "warning"]
    lines = KERNEL.splitlines()
    at = lambda text: next(i + 1 for i, l in enumerate(lines) if text in l)
    assert sorted((d.kind, d.line) for d in warned) == sorted(
        [("copy-misaligned", at("DataCopy(u, xg, 60)")), ("copy-misaligned", at("DataCopy(v, u, 20)")),
         ("copy-misaligned", at("DataCopy(yg[row * 16]"))])   # the loop's line once, not for each row
    assert "copies only 224 bytes" in next(d.message for d in warned if d.line == at("DataCopy(u, xg, 60)"))


def test_a_count_under_one_block_copies_nothing_with_a_warning():
    r = _run(5)                                     # 20 bytes
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["z"], np.full(8, 7.0, np.float32))
    line = next(i + 1 for i, l in enumerate(KERNEL.splitlines()) if "DataCopy(zg" in l)
    w = next(d for d in r.diagnostics if d.line == line)
    assert (w.kind, w.severity) == ("copy-misaligned", "warning") and "copies nothing" in w.message
