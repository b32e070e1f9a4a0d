"""The sorting family of Ascend 910B (A2), checked against NumPy: Sort32 (32 scores at a time into (score, index)
pairs), MrgSort (merge sorted pair lists; GetMrgSortResult), and the advanced Concat / Sort (full) / Extract /
GetSortLen (public kernels: TopKV3, MoeSoftMaxTopk, MoeInitRoutingV2, EmbeddingDenseGradV2). Descending scores;
equal scores keep their order."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

SORT = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void sorts(GM_ADDR x, GM_ADDR xh, GM_ADDR y, GM_ADDR idx, GM_ADDR yh, GM_ADDR idxh, GM_ADDR m, GM_ADDR cnt)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * 1024);
    GlobalTensor<float> xg, yg, mg; GlobalTensor<half> xhg, yhg; GlobalTensor<uint32_t> ig, ihg; GlobalTensor<int32_t> cg;
    xg.SetGlobalBuffer((__gm__ float *)x, 128);
    xhg.SetGlobalBuffer((__gm__ half *)xh, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 128);
    ig.SetGlobalBuffer((__gm__ uint32_t *)idx, 128);
    yhg.SetGlobalBuffer((__gm__ half *)yh, 64);
    ihg.SetGlobalBuffer((__gm__ uint32_t *)idxh, 64);
    mg.SetGlobalBuffer((__gm__ float *)m, 128);
    cg.SetGlobalBuffer((__gm__ int32_t *)cnt, 8);
    LocalTensor<float> score = buf.GetWithOffset<float>(128, 0);
    LocalTensor<uint32_t> index = buf.GetWithOffset<uint32_t>(128, 512);
    LocalTensor<float> sorted = buf.GetWithOffset<float>(GetSortLen<float>(128), 1024);
    LocalTensor<float> tmp = buf.GetWithOffset<float>(256, 2048);
    LocalTensor<float> vals = buf.GetWithOffset<float>(128, 3072);
    LocalTensor<uint32_t> ids = buf.GetWithOffset<uint32_t>(128, 3584);
    LocalTensor<float> pairs = buf.GetWithOffset<float>(256, 4096);
    LocalTensor<float> merged = buf.GetWithOffset<float>(256, 5120);
    LocalTensor<half> hs = buf.GetWithOffset<half>(64, 6144);
    LocalTensor<half> hsorted = buf.GetWithOffset<half>(2 * GetSortLen<half>(64), 9216);  // A2 half Extract reads 2x
    LocalTensor<half> htmp = buf.GetWithOffset<half>(256, 7168);
    LocalTensor<half> hvals = buf.GetWithOffset<half>(64, 8192);
    LocalTensor<uint32_t> hids = buf.GetWithOffset<uint32_t>(128, 8448);
    DataCopy(score, xg, 128);
    DataCopy(hs, xhg, 64);
    CreateVecIndex(index.ReinterpretCast<int32_t>(), 0, 128);
    PipeBarrier<PIPE_ALL>();
    // the advanced API: full sort of 128 floats, then scores and indices apart
    LocalTensor<float> concat;
    Concat(concat, score, tmp, 8);
    Sort<float, true>(sorted, concat, index, tmp, 4);
    PipeBarrier<PIPE_V>();
    Extract(vals, ids, sorted, 4);
    // half: 64 scores
    LocalTensor<half> hconcat;
    Concat(hconcat, hs, htmp, 4);
    Duplicate(hsorted[GetSortLen<half>(64)], (half)0, GetSortLen<half>(64));
    Sort<half, true>(hsorted, hconcat, index, htmp, 2);
    PipeBarrier<PIPE_V>();
    Extract(hvals, hids, hsorted, 2);   // half: the indices come from twice the repeats (as A2's GatherMask form does)
    // the basic instructions: two sorted lists of 32, merged with MrgSort (2 lists) and stopping at the first exhausted
    Sort32(pairs, score, index, 2);
    PipeBarrier<PIPE_V>();
    MrgSortSrcList<float> lists(pairs[0], pairs[GetSortOffset<float>(32)], pairs[0], pairs[0]);
    uint16_t lens[4] = {32, 32, 0, 0};
    MrgSort4Info info(lens, false, 3, 1);
    MrgSort(merged, lists, info);
    PipeBarrier<PIPE_V>();
    uint16_t n1, n2, n3, n4;
    GetMrgSortResult(n1, n2, n3, n4);
    uint32_t taken[4];
    MrgSort<float, true>(tmp, lists, lens, taken, 3, 1);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, vals, 128);
    DataCopy(ig, ids, 128);
    DataCopy(yhg, hvals, 64);
    DataCopy(ihg, hids, 64);
    DataCopy(mg, merged, 128);
    cg.SetValue(0, n1); cg.SetValue(1, n2); cg.SetValue(2, (int32_t)taken[0]); cg.SetValue(3, (int32_t)taken[1]);
}
'''


@pytest.fixture(scope="module")
def sorts(tmp_path_factory):
    src = tmp_path_factory.mktemp("sort") / "sorts.cpp"
    src.write_text(SORT)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return b


def test_sort_family_against_numpy(sorts):
    rng = np.random.default_rng(11)
    x = rng.standard_normal(128).astype(np.float32)
    x[10] = x[70] = x[100] = 5.0                       # equal scores keep their order
    xh = rng.standard_normal(64).astype(np.float16)
    r = run(sorts, [GM("x", x), GM("xh", xh), GM("y", np.zeros(128, np.float32), "out"), GM("idx", np.zeros(128, np.uint32), "out"),
                    GM("yh", np.zeros(64, np.float16), "out"), GM("idxh", np.zeros(64, np.uint32), "out"),
                    GM("m", np.zeros(128, np.float32), "out"), GM("cnt", np.zeros(8, np.int32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    order = np.argsort(-x, kind="stable")
    np.testing.assert_array_equal(r.outputs["idx"], order)
    np.testing.assert_array_equal(r.outputs["y"], x[order])
    assert list(r.outputs["idx"][:3]) == [10, 70, 100]
    orderh = np.argsort(-xh.astype(np.float32), kind="stable")
    np.testing.assert_array_equal(r.outputs["yh"], xh[orderh])
    np.testing.assert_array_equal(r.outputs["idxh"], orderh)
    # MrgSort of the two Sort32 groups of the first 64 scores: the 64 sorted, as (score, index) pairs
    m = r.outputs["m"].view(np.uint32).reshape(64, 2)
    o64 = np.argsort(-x[:64], kind="stable")
    np.testing.assert_array_equal(m[:, 0].view(np.float32), x[:64][o64])
    np.testing.assert_array_equal(m[:, 1], o64)
    cnt = r.outputs["cnt"]
    assert cnt[0] == 32 and cnt[1] == 32              # both lists used up
    # with ifExhaustedSuspension the merge stops when the first list runs out
    a, b = np.sort(x[:32])[::-1], np.sort(x[32:64])[::-1]
    first_out = 0 if a[-1] > b[-1] else 1
    assert cnt[2 + first_out] == 32 and 0 < cnt[3 - first_out] < 32
    other = b if first_out == 0 else a
    assert cnt[3 - first_out] == np.sum(other > max(a[-1], b[-1]))   # taken before the other ran out


def test_mrgsort_bad_valid_bit_stops_at_the_call(tmp_path):
    src = tmp_path / "badmrg.cpp"
    src.write_text(r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void badmrg(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> a = buf.Get<float>();
    Duplicate(a, 0.0f, 1024);
    PipeBarrier<PIPE_V>();
    MrgSortSrcList<float> lists(a[0], a[64], a[128], a[192]);
    uint16_t lens[4] = {32, 32, 32, 32};
    MrgSort(a[512], lists, MrgSort4Info(lens, false, 5, 1));
}
''')
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("x", np.zeros(8, np.float32))], block_dim=1)
    assert not r.ok
    d = r.diagnostics[0]
    assert d.kind == "bad-argument" and "badmrg.cpp:13" in d.render() and "validBit 5" in d.render(), d.render()
