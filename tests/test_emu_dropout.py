"""DropOut (lib/filter) in its byte-mask and bit-mask modes, aligned and unaligned rows (mode 0 picks by the axes),
checked against NumPy: dst = src * mask / keepProb (a byte's value multiplies; a set bit keeps the element); the
keepProb rule; and GetDropOutMaxMinTmpSize."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void drop(GM_ADDR x, GM_ADDR m, GM_ADDR y)
{
    using T = %(T)s;
    constexpr uint32_t ROWS = %(R)d, SRC = %(S)d, MASK = %(M)d;
    TPipe pipe;
    TBuf<TPosition::VECCALC> ab, mb, ob, tb;
    pipe.InitBuffer(ab, ROWS * SRC * sizeof(T));
    pipe.InitBuffer(mb, ROWS * MASK < 32 ? 32 : ROWS * MASK);
    pipe.InitBuffer(ob, ROWS * SRC * sizeof(T));
    pipe.InitBuffer(tb, 4096);
    GlobalTensor<T> xGm, yGm; GlobalTensor<uint8_t> mGm;
    xGm.SetGlobalBuffer((__gm__ T *)x); yGm.SetGlobalBuffer((__gm__ T *)y); mGm.SetGlobalBuffer((__gm__ uint8_t *)m);
    LocalTensor<T> a = ab.Get<T>(), o = ob.Get<T>();
    LocalTensor<uint8_t> mk = mb.Get<uint8_t>(), tmp = tb.Get<uint8_t>();
    DataCopy(a, xGm, ROWS * SRC);
    DataCopy(mk, mGm, (ROWS * MASK + 31) / 32 * 32);
    PipeBarrier<PIPE_ALL>();
    DropOutShapeInfo info;
    info.firstAxis = ROWS; info.srcLastAxis = SRC; info.maskLastAxis = MASK;
    %(CALL)s;
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, o, ROWS * SRC);
}
"""


def model(x, mask, rows, src, mlen, keep, bits, dtype):
    xm = x.reshape(rows, src).astype(np.float32)
    mrow = mask[: rows * mlen].reshape(rows, mlen)
    if bits:
        m = np.unpackbits(mrow, axis=1, bitorder="little")[:, :src].astype(np.float32)
    else:
        m = mrow[:, :src].astype(np.float32)
    div = np.float32(1.0) / np.float32(keep)
    if dtype == np.float16:
        return ((xm * m).astype(np.float16).astype(np.float32) * np.float32(np.float16(div))).astype(np.float16).ravel()
    return (xm * m * div).astype(np.float32).ravel()


@pytest.mark.parametrize("T,dtype", [("float", np.float32), ("half", np.float16)])
@pytest.mark.parametrize("rows,src,mlen,bits", [(4, 64, 64, False), (4, 64, 96, False), (4, 128, 16, True), (4, 64, 32, True)],
                         ids=["byte-aligned", "byte-unaligned", "bit-aligned", "bit-unaligned"])
def test_dropout_matches_numpy(T, dtype, rows, src, mlen, bits):
    rng = np.random.default_rng(4)
    x = rng.standard_normal(rows * src).astype(dtype)
    mask = (rng.integers(0, 256, rows * mlen + 64) if bits else rng.integers(0, 2, rows * mlen + 64)).astype(np.uint8)
    if not bits:
        mask[0] = 3                                         # a byte's value multiplies, not just 0 / 1
    keep = 0.75
    calls = [f"DropOut(o, a, mk, tmp, {keep}f, info)", f"DropOut<T, false, 0>(o, a, mk, {keep}f, info)"]
    for call in calls:
        b = build({"k.cpp": KERNEL % dict(T=T, R=rows, S=src, M=mlen, CALL=call)})
        assert b.ok, "\n".join(d.render() for d in b.errors)
        r = run(b, [GM("x", x), GM("m", mask), GM("y", np.zeros(rows * src, dtype), "out")], block_dim=1)
        assert r.ok, "\n".join(map(str, r.diagnostics))
        np.testing.assert_array_equal(r.outputs["y"], model(x, mask, rows, src, mlen, keep, bits, dtype))


def test_dropout_keep_prob_rule():
    b = build({"k.cpp": KERNEL % dict(T="float", R=1, S=64, M=64, CALL="DropOut(o, a, mk, tmp, 1.0f, info)")})
    assert b.ok
    r = run(b, [GM("x", np.zeros(64, np.float32)), GM("m", np.zeros(64, np.uint8)), GM("y", np.zeros(64, np.float32), "out")],
            block_dim=1)
    assert not r.ok and any(d.kind == "dropout-prob" for d in r.diagnostics)


def test_dropout_host_sizes():
    import subprocess
    import tempfile
    from pathlib import Path

    from ascendcraft.emu import INCLUDE_DIR
    src = """#include <cstdio>
#include "tiling/tiling_api.h"
int main() {
    uint32_t mx = 0, mn = 0;
    AscendC::GetDropOutMaxMinTmpSize(ge::Shape({4, 64, 64}), 4, false, mx, mn);
    std::printf("%u %u ", mx, mn);
    AscendC::GetDropOutMaxMinTmpSize(ge::Shape({8}), 2, false, mx, mn);
    std::printf("%u %u\\n", mx, mn);
    return 0;
}
"""
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "h.cpp").write_text(src)
        subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "-o", f"{d}/h", f"{d}/h.cpp"], check=True)
        out = subprocess.run([f"{d}/h"], capture_output=True, text=True, check=True).stdout.split()
    assert list(map(int, out)) == [2 * 4 * 64 * 64 * 4, 512, 512, 512]
