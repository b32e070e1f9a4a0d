"""`gm-read-race`: a block that reads GM bytes another block wrote since the last SyncAll, with nothing ordering the write
before the read. The emulator runs the blocks one at a time in index order, so such a read always sees a lower block's
write; on the NPU the blocks run at once and the read sees old or new bytes depending on timing (linnlh's GroupNormV2
passes one workspace as its mean and its variance buffer: block 0's variances land over the means the other blocks have
still to gather). A warning names the read's line, both blocks, the tensor and the bytes; the run goes on. A block's own
writes, reads after a SyncAll, reads ordered by IBSet / IBWait, and a GM flag hand-over of the kernel's own (a poll, with
or without DataCacheCleanAndInvalid) are not reported."""
import numpy as np

from ascendcraft.emu import GM, build, run

N = 4   # blocks

# Two passes over a workspace, as GroupNormV2 makes them: each block writes its partial (its x), SyncAll, gathers every
# block's partial and sums them; then writes a second partial (2 x) at SECOND, SyncAll, gathers and sums those too.
# y[block] = sum of the first partials + sum of the second ones. SECOND 0: the second partials land on the first ones.
TWO_PASS = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void two_pass(GM_ADDR x, GM_ADDR work, GM_ADDR y)
{
    const int32_t n = GetBlockNum(), me = GetBlockIdx();
    GlobalTensor<float> xGm, workGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, n * 8);
    workGm.SetGlobalBuffer((__gm__ float *)work, 2 * n * 8);
    yGm.SetGlobalBuffer((__gm__ float *)y, n * 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> part = buf.Get<float>();
    LocalTensor<float> all = part[64];
    LocalTensor<float> sum = part[512];
    const int32_t second = SECOND;
    DataCopy(part, xGm[me * 8], 8);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(workGm[me * 8], part, 8);
    SyncAll();
    DataCopy(all, workGm, n * 8);                      // GATHER1
    SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
    for (int32_t j = 0; j < 8; ++j) {
        float s = 0;
        for (int32_t b = 0; b < n; ++b) s += all.GetValue(b * 8 + j);
        sum.SetValue(j, s);
        part.SetValue(j, part.GetValue(j) * 2);
    }
    SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
    DataCopy(workGm[second + me * 8], part, 8);
    SyncAll();
    DataCopy(all, workGm[second], n * 8);              // GATHER2
    SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
    for (int32_t j = 0; j < 8; ++j) {
        float s = sum.GetValue(j);
        for (int32_t b = 0; b < n; ++b) s += all.GetValue(b * 8 + j);
        sum.SetValue(j, s);
    }
    SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
    DataCopy(yGm[me * 8], sum, 8);
}
'''


def _line(src: str, mark: str) -> int:
    return next(i for i, text in enumerate(src.splitlines(), 1) if mark in text)


def _two_pass(second: int):
    src = TWO_PASS.replace("SECOND;", f"{second};")
    b = build({"two_pass.cpp": src})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.arange(N * 8, dtype=np.float32).reshape(N, 8) / 8
    r = run(b, [GM("x", x.ravel()), GM("work", np.zeros(2 * N * 8, np.float32), "workspace"),
                GM("y", np.zeros(N * 8, np.float32), "out")], block_dim=N)
    return src, x, r


def _races(r):
    return [d for d in r.diagnostics if d.kind == "gm-read-race"]


def test_a_gather_of_partials_another_block_has_overwritten_is_reported():
    src, x, r = _two_pass(second=0)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)          # a warning: the run goes on
    races = _races(r)
    assert races and all(d.severity == "warning" for d in races), "\n".join(d.render() for d in r.diagnostics)
    first = races[0]
    assert first.line == _line(src, "GATHER1")
    assert first.context["writer_block"] == 0 and first.context["reader_block"] == 1
    assert first.context["buffer"] == "work" and first.context["offset"] == 0 and first.context["bytes"] == 32
    assert "block 1 reads bytes 0..31 of 'work' that block 0 wrote" in first.message
    assert "SyncAll" in first.hint and "separate workspace" in first.hint
    # once per (writer, reader, tensor): every later block read every lower block's second partial in the first gather
    pairs = [(d.context["writer_block"], d.context["reader_block"]) for d in races]
    assert sorted(pairs) == sorted({(w, rd) for rd in range(N) for w in range(rd)})


def test_partials_kept_apart_and_read_after_syncall_are_not_reported():
    _, x, r = _two_pass(second=N * 8)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    assert not _races(r), "\n".join(d.render() for d in _races(r))
    want = np.tile(x.sum(0) * 3, N)
    np.testing.assert_allclose(r.outputs["y"], want, rtol=1e-6)


# Scalar GM access: each block writes its slot with SetValue and reads a slot with GetValue. MODE 0: the previous
# block's slot (block 0 its own), unordered (block 1 reads what block 0 wrote); MODE 1: the same, but each block sets an
# IBSet flag after its write and waits for the previous block's flag (IBWait) first; MODE 2: its own slot only.
SCALAR = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void scalar_slots(GM_ADDR sync, GM_ADDR work, GM_ADDR y)
{
    const int32_t n = GetBlockNum(), me = GetBlockIdx(), mode = MODE;
    GlobalTensor<int32_t> sg, workGm, yGm;
    sg.SetGlobalBuffer((__gm__ int32_t *)sync, 64 * n);
    workGm.SetGlobalBuffer((__gm__ int32_t *)work, 8 * n);
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 8 * n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> ubw;
    pipe.InitBuffer(ubw, 32 * n);
    LocalTensor<int32_t> w = ubw.Get<int32_t>();
    workGm.SetValue(me * 8, (me + 1) * 10);
    if (mode == 1) {
        if (me > 0) IBWait(sg, w, me - 1, 0);
        IBSet(sg, w, me, 0);
    }
    const int32_t from = mode == 2 || me == 0 ? me : me - 1;
    yGm.SetValue(me * 8, workGm.GetValue(from * 8));     // READ
}
'''


def _scalar(mode: int):
    src = SCALAR.replace("MODE;", f"{mode};")
    b = build({"scalar_slots.cpp": src})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("sync", np.zeros(64 * N, np.int32), "inout"), GM("work", np.zeros(8 * N, np.int32), "workspace"),
                GM("y", np.zeros(8 * N, np.int32), "out")], block_dim=N)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    return src, r


def test_a_scalar_read_of_another_blocks_unordered_write_is_reported():
    src, r = _scalar(0)
    races = _races(r)
    assert [(d.context["writer_block"], d.context["reader_block"]) for d in races] == [(0, 1), (1, 2), (2, 3)]
    assert all(d.line == _line(src, "READ") and d.context["bytes"] == 4 for d in races)
    assert races[1].context["offset"] == 32                         # block 2 reads block 1's slot: bytes 32..35


def test_scalar_reads_ordered_by_block_flags_or_of_own_writes_are_not_reported():
    for mode in (1, 2):
        _, r = _scalar(mode)
        assert not _races(r), (mode, "\n".join(d.render() for d in _races(r)))
        want = [max(b, 1) * 10 if mode == 1 else (b + 1) * 10 for b in range(N)]
        assert list(r.outputs["y"][::8]) == want


# GM flag hand-overs of the kernel's own. DCCI: each block writes its value, then its flag (SetValue, then
# DataCacheCleanAndInvalid); block 0 spins on every other block's flag (DataCacheCleanAndInvalid, GetValue) and then
# copies their values in. POLL: no DataCacheCleanAndInvalid: every block copies all the flags into UB until all are set,
# then reads the next block's value (hicann ops-nn index_fill's barrier).
DCCI = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void dcci_hand_over(GM_ADDR flags, GM_ADDR vals, GM_ADDR y)
{
    const int32_t n = GetBlockNum(), me = GetBlockIdx();
    GlobalTensor<int32_t> flagGm, valGm, yGm;
    flagGm.SetGlobalBuffer((__gm__ int32_t *)flags, 16 * n);
    valGm.SetGlobalBuffer((__gm__ int32_t *)vals, 8 * n);
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 8 * n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<int32_t> v = buf.Get<int32_t>();
    valGm.SetValue(me * 8, (me + 1) * 100);
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(valGm[me * 8]);
    flagGm.SetValue(me * 16, 1);
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flagGm[me * 16]);
    if (me != 0) return;
    for (int32_t b = 1; b < n; ++b) {
        int32_t seen = 0;
        while (seen == 0) {
            DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flagGm[b * 16]);
            seen = flagGm.GetValue(b * 16);
        }
    }
    DataCopy(v, valGm, 8 * n);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(yGm, v, 8 * n);
}
'''

POLL = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void poll_hand_over(GM_ADDR flags, GM_ADDR vals, GM_ADDR y)
{
    const int32_t n = GetBlockNum(), me = GetBlockIdx();
    GlobalTensor<uint8_t> flagGm;
    GlobalTensor<int32_t> valGm, yGm;
    flagGm.SetGlobalBuffer((__gm__ uint8_t *)flags, n);
    valGm.SetGlobalBuffer((__gm__ int32_t *)vals, 8 * n);
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 8 * n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<int32_t> v = buf.Get<int32_t>();
    LocalTensor<uint8_t> f = buf.Get<uint8_t>()[512];
    Duplicate(v, (me + 1) * 7, 8);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(valGm[me * 8], v, 8);
    f.SetValue(0, 1);
    SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
    DataCopyPad(flagGm[me], f, DataCopyExtParams{1, 1, 0, 0, 0});
    PipeBarrier<PIPE_ALL>();
    for (bool all = false; !all;) {
        DataCopyPad(f, flagGm, DataCopyExtParams{1, static_cast<uint32_t>(n), 0, 0, 0}, DataCopyPadExtParams<uint8_t>{true, 0, 0, 0});
        SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
        all = true;
        for (int32_t b = 0; b < n; ++b) all = all && f.GetValue(b) == 1;
    }
    DataCopy(v, valGm[((me + 1) % n) * 8], 8);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(yGm[me * 8], v, 8);
}
'''


def test_gm_flag_hand_overs_of_the_kernels_own_are_not_reported():
    for name, src, flag_dtype, flag_len, value in (("dcci_hand_over", DCCI, np.int32, 16 * N, lambda b: (b + 1) * 100),
                                                  ("poll_hand_over", POLL, np.uint8, N, lambda b: ((b + 1) % N + 1) * 7)):
        b = build({f"{name}.cpp": src})
        assert b.ok, "\n".join(map(str, b.diagnostics))
        r = run(b, [GM("flags", np.zeros(flag_len, flag_dtype), "inout"), GM("vals", np.zeros(8 * N, np.int32), "inout"),
                    GM("y", np.zeros(8 * N, np.int32), "inout")], block_dim=N)
        assert r.ok, "\n".join(d.render() for d in r.diagnostics)
        assert not _races(r), (name, "\n".join(d.render() for d in _races(r)))
        assert list(r.outputs["y"][::8]) == [value(b) for b in range(N)]
