"""CumSum (lib/math) against NumPy: along the last axis (each row's running sum) and along the first axis (each
column's running sum down the rows), outputLastRow copying the result's last row, half and float; the A2 data path
(along the rows half is summed in float and rounded once; along a row the running sum stays in half). The documented
rules: inner a whole number of 32-byte blocks, a sharedTmpBuffer of at least GetCumSumMaxMinTmpSize's minimum."""
import subprocess

import numpy as np
import pytest

from ascendcraft.emu import GM, INCLUDE_DIR, build, run

KERNEL = r'''#include "kernel_operator.h"
#include "lib/math/cumsum.h"
using namespace AscendC;
using T = CTYPE;
constexpr uint32_t M = 5, K = KLEN;
constexpr CumSumConfig lastCfg = {true, false, true};
constexpr CumSumConfig firstCfg = {false, false, true};
extern "C" __global__ __aicore__ void cumsum(GM_ADDR x, GM_ADDR y0, GM_ADDR l0, GM_ADDR y1, GM_ADDR l1)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 131072);
    GlobalTensor<T> xg, g0, h0, g1, h1;
    xg.SetGlobalBuffer((__gm__ T *)x, M * K);
    g0.SetGlobalBuffer((__gm__ T *)y0, M * K);
    h0.SetGlobalBuffer((__gm__ T *)l0, K);
    g1.SetGlobalBuffer((__gm__ T *)y1, M * K);
    h1.SetGlobalBuffer((__gm__ T *)l1, K);
    LocalTensor<T> xl = buf.GetWithOffset<T>(M * K, 0);
    LocalTensor<T> d0 = buf.GetWithOffset<T>(M * K, 8192);
    LocalTensor<T> r0 = buf.GetWithOffset<T>(K, 16384);
    LocalTensor<T> d1 = buf.GetWithOffset<T>(M * K, 24576);
    LocalTensor<T> r1 = buf.GetWithOffset<T>(K, 32768);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(TMPBYTES, 65536);
    DataCopy(xl, xg, M * K);
    PipeBarrier<PIPE_ALL>();
    CumSumInfo info = {M, K};
    CumSum<T, lastCfg>(d0, r0, xl, tmp, info);
    CumSum<T, firstCfg>(d1, r1, xl, tmp, info);
    PipeBarrier<PIPE_ALL>();
    DataCopy(g0, d0, M * K);
    DataCopy(h0, r0, K);
    DataCopy(g1, d1, M * K);
    DataCopy(h1, r1, K);
}
'''
M = 5


def _build(tmp_path, ctype, k, tmp_bytes=32768, inner="K"):
    src = tmp_path / "cumsum.cpp"
    src.write_text(KERNEL.replace("CTYPE", ctype).replace("KLEN", str(k)).replace("TMPBYTES", str(tmp_bytes))
                   .replace("CumSumInfo info = {M, K};", f"CumSumInfo info = {{M, {inner}}};"))
    return build(src)


def _io(x):
    z = np.zeros_like(x)
    return [GM("x", x), GM("y0", z, "out"), GM("l0", z[0].copy(), "out"), GM("y1", z.copy(), "out"),
            GM("l1", z[0].copy(), "out")]


@pytest.mark.parametrize("ctype, dtype, k", [("float", np.float32, 40), ("half", np.float16, 48)])
def test_cumsum_both_axes_against_numpy(tmp_path, ctype, dtype, k):
    b = _build(tmp_path, ctype, k)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(14)
    x = rng.uniform(-4, 4, (M, k)).astype(dtype)
    r = run(b, _io(x), block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    # the A2 rounding: along a row, each partial sum in T; down the rows, half sums in float
    last = np.zeros_like(x)
    for j in range(k):
        last[:, j] = x[:, j] if j == 0 else (last[:, j - 1] + x[:, j]).astype(dtype)
    first = np.cumsum(x.astype(np.float32), axis=0).astype(dtype)
    np.testing.assert_array_equal(r.outputs["y0"], last)
    np.testing.assert_array_equal(r.outputs["l0"], last[-1])
    np.testing.assert_array_equal(r.outputs["y1"], first)
    np.testing.assert_array_equal(r.outputs["l1"], first[-1])
    np.testing.assert_allclose(r.outputs["y0"].astype(np.float64), np.cumsum(x.astype(np.float64), 1), atol=0.1)


def test_cumsum_unaligned_inner_and_small_tmp_stop(tmp_path):
    r = run(_build(tmp_path, "float", 40, inner="36"), _io(np.zeros((M, 40), np.float32)), block_dim=1)
    assert not r.ok and r.diagnostics[0].kind == "adv-shape" and "144 bytes" in r.diagnostics[0].message
    r = run(_build(tmp_path, "half", 48, 1024), _io(np.zeros((M, 48), np.float16)), block_dim=1)
    d = r.diagnostics[0]
    assert not r.ok and d.kind == "adv-tmp-space" and "GetCumSumMaxMinTmpSize" in d.hint, d.render()


HOST = r'''#include "tiling/tiling_api.h"
#include <cstdio>
int main() {
    uint32_t a, b, c, d, e, f;
    AscendC::GetCumSumMaxMinTmpSize(ge::Shape({5, 48}), 2, true, false, a, b);
    AscendC::GetCumSumMaxMinTmpSize(ge::Shape({5, 48}), 2, false, false, c, d);
    AscendC::GetCumSumMaxMinTmpSize(ge::Shape({5, 40}), 4, false, false, e, f);
    std::printf("%u %u %u %u %u %u\n", a, b, c, d, e, f);
}
'''


def test_host_tmp_sizes(tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    got = list(map(int, subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True).stdout.split()))
    assert got == [48 * 16 * 2 + 16 * 48 * 2 * 2, 48 * 16 * 2 + 16 * 48 * 2 * 2, 5 * 48 * 4, 5 * 48 * 4, 0, 0]
