"""The sort APIs' host side (GetConcatTmpSize, GetSortTmpSize, GetSortMaxMinTmpSize) and the SortConfig forms of Sort,
as an A2 (dav-2201) build has them: a full Sort<T, isFullSort> with the scratch GetSortTmpSize asks for matches NumPy's
descending sort; the SortConfig forms compile (the official A2 headers give them an empty body) and stop where they run,
naming the call; the SortConfig host query, 950-only, logs an error and leaves its outputs unset."""
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, INCLUDE_DIR, build, run

HOST = """#include <cstdio>
#include "tiling/tiling_api.h"
int main() {
    auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    std::printf("%u %u %u %u ", AscendC::GetConcatTmpSize(*plat, 128, 4), AscendC::GetConcatTmpSize(*plat, 128, 2),
                AscendC::GetSortTmpSize(*plat, 128, 4), AscendC::GetSortTmpSize(*plat, 128, 2));
    AscendC::SortConfig config;
    config.type = AscendC::SortType::MERGE_SORT;
    config.isDescend = true;
    uint32_t mx = 77, mn = 99;
    AscendC::GetSortMaxMinTmpSize(ge::Shape({1024}), ge::DT_FLOAT, ge::DT_UINT32, false, config, mx, mn);
    std::printf("%u %u\\n", mx, mn);
    return 0;
}
"""


def test_sort_host_sizes_as_on_a2():
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "h.cpp").write_text(HOST)
        subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "-o", f"{d}/h", f"{d}/h.cpp"], check=True)
        p = subprocess.run([f"{d}/h"], capture_output=True, text=True, check=True)
    # Concat needs no scratch on A2; Sort's is one 8-byte pair per element; the SortConfig query writes nothing
    assert list(map(int, p.stdout.split())) == [0, 0, 128 * 8, 128 * 8, 77, 99]
    assert "GetSortMaxMinTmpSize" in p.stderr and "Ascend 950" in p.stderr


KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
constexpr SortConfig DESC = {SortType::RADIX_SORT, true};
extern "C" __global__ __aicore__ void sort_k(GM_ADDR x, GM_ADDR v, GM_ADDR i)
{
    constexpr uint32_t N = 128;
    TPipe pipe;
    TBuf<TPosition::VECCALC> sb, ib, cb, db, tb, vb, ob;
    pipe.InitBuffer(sb, N * 4); pipe.InitBuffer(ib, N * 4); pipe.InitBuffer(cb, N * 8);
    pipe.InitBuffer(db, N * 8); pipe.InitBuffer(tb, TMP); pipe.InitBuffer(vb, N * 4); pipe.InitBuffer(ob, N * 4);
    GlobalTensor<float> xGm, vGm; GlobalTensor<uint32_t> iGm;
    xGm.SetGlobalBuffer((__gm__ float *)x); vGm.SetGlobalBuffer((__gm__ float *)v); iGm.SetGlobalBuffer((__gm__ uint32_t *)i);
    LocalTensor<float> s = sb.Get<float>(), concatTmp = cb.Get<float>(), sorted = db.Get<float>(), tmp = tb.Get<float>();
    LocalTensor<float> vals = vb.Get<float>();
    LocalTensor<uint32_t> idx = ib.Get<uint32_t>(), ids = ob.Get<uint32_t>();
    DataCopy(s, xGm, N);
    ArithProgression<int32_t>(idx.ReinterpretCast<int32_t>(), 0, 1, N);
    PipeBarrier<PIPE_ALL>();
    %(CALL)s
    PipeBarrier<PIPE_ALL>();
    DataCopy(vGm, vals, N);
    DataCopy(iGm, ids, N);
}
"""

A2_SORT = """LocalTensor<float> concat;
    Concat(concat, s, concatTmp, N / 16);
    Sort<float, true>(sorted, concat, idx, tmp, N / 32);
    Extract(vals, ids, sorted, N / 32);"""


def _run(call, tmp=128 * 8):
    b = build({"k.cpp": KERNEL.replace("TMP", str(tmp)) % dict(CALL=call)})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    x = np.random.default_rng(13).permutation(np.arange(128, dtype=np.float32) * 0.5 - 20).astype(np.float32)
    r = run(b, [GM("x", x), GM("v", np.zeros(128, np.float32), "out"), GM("i", np.zeros(128, np.uint32), "out")], block_dim=1)
    return x, r


def test_full_sort_with_the_host_scratch_size_matches_numpy():
    x, r = _run(A2_SORT)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    order = np.argsort(-x, kind="stable")
    np.testing.assert_array_equal(r.outputs["v"], x[order])
    np.testing.assert_array_equal(r.outputs["i"], order.astype(np.uint32))


@pytest.mark.parametrize("call", [
    "LocalTensor<uint8_t> shared = tb.Get<uint8_t>(); Sort<float, false, DESC>(vals, s, shared, N);",
    "Sort<float, false, DESC>(vals, s, N);",
    "Sort<float, uint32_t, false, DESC>(vals, ids, s, idx, N);",
    "LocalTensor<uint8_t> shared = tb.Get<uint8_t>(); Sort<float, uint32_t>(vals, ids, s, idx, shared, N);",
], ids=["tmp", "no-tmp", "index", "index-tmp"])
def test_sortconfig_forms_compile_and_stop_on_a2(call):
    _, r = _run(call)
    assert not r.ok
    d = next(d for d in r.diagnostics if d.kind == "unsupported")
    assert "SortConfig" in str(d) and "910B" in str(d)
