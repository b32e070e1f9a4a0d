"""The event ids queues hold, counted as AscendC's TQueBind and TPipe count them (arch 2201): per HardEvent, an id taken
at each FreeTensor (kept by the freed buffer until its next AllocTensor) and at each EnQue (until DeQue); AllocTensor
takes none. VECIN queues use V_MTE2 / MTE2_V, VECCALC queues (no logical source) UB -> UB's MTE3_MTE2 / MTE2_MTE3, a
TQueBind<VECIN, VECOUT> the same. Each takes the lowest id of its event no one holds; an id past 7 is past the API
reference's 0..7: a warning at the FreeTensor or EnQue that takes it (CANN's CPU-debug build stops there; its NPU build hands out id 8, 9, ...
and kernels doing so have passed on the 910B), and the kernel runs to the right result. A tensor still allocated when
the TPipe ends is a warning too."""
import numpy as np

from ascendcraft.emu import GM, build, run

# Ten VECCALC queues of one buffer, all allocated at once and freed together each step (three LLM4AscendC kernels that
# passed on their 910B do this): the 9th and 10th FreeTensor take MTE3_MTE2 ids 8 and 9.
TEN_VECCALC = r"""#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t L = 64;
extern "C" __global__ __aicore__ void ten(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TQue<TPosition::VECCALC, 1> q[10];
    for (int i = 0; i < 10; i++) pipe.InitBuffer(q[i], 1, L * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x);
    yg.SetGlobalBuffer((__gm__ float*)y);
    for (uint32_t step = 0; step < 2; step++) {
        LocalTensor<float> t[10];
        for (int i = 0; i < 10; i++) t[i] = q[i].AllocTensor<float>();
        DataCopy(t[0], xg[step * L], L);
        for (int i = 1; i < 10; i++) Adds(t[i], t[i - 1], 1.0f, L);
        DataCopy(yg[step * L], t[9], L);
        for (int i = 9; i >= 2; i--) q[i].FreeTensor(t[i]);
        q[1].FreeTensor(t[1]);  // FREE9
        q[0].FreeTensor(t[0]);  // FREE10
    }
}
"""


def _line(src, mark):
    return next(i + 1 for i, line in enumerate(src.splitlines()) if mark in line)


def test_ten_veccalc_buffers_freed_together_warn_at_the_ninth_free_and_run():
    x = np.arange(128, dtype=np.float32)
    r = run(build({"ten.cpp": TEN_VECCALC}), [GM("x", x), GM("y", np.zeros(128, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], x + 9)
    warned = [d for d in r.diagnostics if d.kind == "queue-too-many"]
    assert [d.line for d in warned] == [_line(TEN_VECCALC, "FREE9"), _line(TEN_VECCALC, "FREE10")]
    assert all(d.severity == "warning" for d in warned)
    assert "MTE3_MTE2" in warned[0].message and "event id 8 " in warned[0].message and warned[0].hint


# Eight VECIN queues (GM -> UB: MTE2_V at EnQue, V_MTE2 at FreeTensor) and a TQueBind<VECIN, VECOUT> (UB -> UB:
# MTE2_MTE3, MTE3_MTE2): nine buffers of position VECIN allocated at once, but no event past 8 ids.
NINE_VECIN = r"""#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t L = 64;
extern "C" __global__ __aicore__ void nine(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> in[COUNT];
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> through;
    TBuf<TPosition::VECCALC> accBuf;
    for (int i = 0; i < COUNT; i++) pipe.InitBuffer(in[i], 1, L * sizeof(float));
    pipe.InitBuffer(through, 1, L * sizeof(float));
    pipe.InitBuffer(accBuf, L * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x);
    yg.SetGlobalBuffer((__gm__ float*)y);
    LocalTensor<float> acc = accBuf.Get<float>();
    Duplicate(acc, 0.0f, L);
    LocalTensor<float> t[COUNT];
    for (int i = 0; i < COUNT; i++) {
        t[i] = in[i].AllocTensor<float>();
        DataCopy(t[i], xg[i * L], L);
        in[i].EnQue(t[i]);
        SEQUENTIAL
    }
    LocalTensor<float> u = through.AllocTensor<float>();
    DataCopy(u, xg, L);
    through.EnQue(u);
    for (int i = 0; i < COUNT; i++) {
        if (!SEQUENTIAL_ON) { t[i] = in[i].DeQue<float>(); Add(acc, acc, t[i], L); in[i].FreeTensor(t[i]); }  // FREE
    }
    u = through.DeQue<float>();
    DataCopy(yg[L], u, L);
    through.FreeTensor(u);
    DataCopy(yg, acc, L);
}
"""
SEQUENTIAL_STEP = "t[i] = in[i].DeQue<float>(); Add(acc, acc, t[i], L); in[i].FreeTensor(t[i]);  // SEQFREE"


def _nine(count, sequential):
    src = (NINE_VECIN.replace("COUNT", str(count)).replace("SEQUENTIAL_ON", "true" if sequential else "false")
           .replace("SEQUENTIAL", SEQUENTIAL_STEP if sequential else ""))
    x = np.arange(count * 64, dtype=np.float32)
    r = run(build({"nine.cpp": src}), [GM("x", x), GM("y", np.zeros(128, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"][:64], x.reshape(count, 64).sum(0))
    np.testing.assert_array_equal(r.outputs["y"][64:], x[:64])
    return src, [d for d in r.diagnostics if d.kind == "queue-too-many"]


def test_nine_vecin_position_buffers_at_once_on_two_events_run_without_a_warning():
    # our count before (buffers allocated at once per TPosition) stopped this kernel at through.AllocTensor
    _, warned = _nine(8, sequential=False)
    assert warned == []


def test_nine_vecin_buffers_used_one_after_another_hold_nine_ids():
    # never more than one VECIN tensor allocated at once, but every freed buffer keeps its V_MTE2 id: the 9th free warns
    src, warned = _nine(9, sequential=True)
    assert [d.line for d in warned] == [_line(src, "SEQFREE")] and "V_MTE2" in warned[0].message


# NPUKernelBench's GroupNormSwish answer (passed on the 910B) allocates its mean / rstd tensors again after the last
# group and never frees them: the TPipe's end does not wait on an allocated buffer, so it is a warning, and a tensor
# left in its queue (EnQue without DeQue: its flag stays set) is still an error (tests/emu_kernels/broken/queue_leak.cpp).
LEFT_ALLOCATED = r"""#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t L = 64;
extern "C" __global__ __aicore__ void left(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, L * sizeof(float));
    pipe.InitBuffer(outQ, 1, L * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x);
    yg.SetGlobalBuffer((__gm__ float*)y);
    LocalTensor<float> out = outQ.AllocTensor<float>();
    for (uint32_t step = 0; step < 2; step++) {
        LocalTensor<float> t = inQ.AllocTensor<float>();
        DataCopy(t, xg[step * L], L);
        inQ.EnQue(t);
        t = inQ.DeQue<float>();
        Muls(out, t, 2.0f, L);
        inQ.FreeTensor(t);
        outQ.EnQue(out);
        out = outQ.DeQue<float>();
        DataCopy(yg[step * L], out, L);
        outQ.FreeTensor(out);
        out = outQ.AllocTensor<float>();  // AGAIN
    }
}
"""


def test_a_tensor_allocated_and_never_freed_at_the_kernels_end_is_a_warning():
    x = np.arange(128, dtype=np.float32)
    r = run(build({"left.cpp": LEFT_ALLOCATED}), [GM("x", x), GM("y", np.zeros(128, np.float32), "out")], block_dim=2)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], 2 * x)
    leaks = [d for d in r.diagnostics if d.kind == "queue-leak"]
    assert [(d.severity, d.line) for d in leaks] == [("warning", _line(LEFT_ALLOCATED, "AGAIN"))]


# Ids, not a count: nine VECIN buffers freed one after another hold V_MTE2 ids 0..8 (the 9th free warns); allocating
# the fourth again gives id 3 back, so its next FreeTensor takes id 3 (8 ids are held then, but none past 7 is new).
IDS = r"""#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t L = 64;
extern "C" __global__ __aicore__ void ids(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> in[9];
    TBuf<TPosition::VECCALC> accBuf;
    for (int i = 0; i < 9; i++) pipe.InitBuffer(in[i], 1, L * sizeof(float));
    pipe.InitBuffer(accBuf, L * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x);
    yg.SetGlobalBuffer((__gm__ float*)y);
    LocalTensor<float> acc = accBuf.Get<float>();
    Duplicate(acc, 0.0f, L);
    for (int i = 0; i < 9; i++) {
        LocalTensor<float> t = in[i].AllocTensor<float>();
        DataCopy(t, xg[i * L], L);
        in[i].EnQue(t);
        t = in[i].DeQue<float>();
        Add(acc, acc, t, L);
        in[i].FreeTensor(t);  // FREE
    }
    LocalTensor<float> again = in[3].AllocTensor<float>();
    DataCopy(again, xg[3 * L], L);
    in[3].EnQue(again);
    again = in[3].DeQue<float>();
    Add(acc, acc, again, L);
    in[3].FreeTensor(again);  // AGAIN
    DataCopy(yg, acc, L);
}
"""


def test_a_freed_buffer_allocated_again_gives_its_id_back_to_the_lowest_free_choice():
    x = np.arange(9 * 64, dtype=np.float32)
    r = run(build({"ids.cpp": IDS}), [GM("x", x), GM("y", np.zeros(64, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], x.reshape(9, 64).sum(0) + x[3 * 64:4 * 64])
    warned = [d for d in r.diagnostics if d.kind == "queue-too-many"]
    assert [d.line for d in warned] == [_line(IDS, "// FREE")] and "event id 8 " in warned[0].message


# On an AIC, AscendC's TPipe holds M_MTE1 event ids 0, 1 and 2 from its making to its end (TPipe::Init, for the Matmul
# API's L0 buffers and bias). An A2 or B2 queue's FreeTensor (L1 -> L0A / L0B: M_MTE1) takes the lowest id after them:
# six A2 buffers freed together take ids 3..8, and the B2 buffer freed after them id 9.
SIX_A2 = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void six_a2(GM_ADDR c)
{
    TPipe pipe;
    TQue<TPosition::A2, 1> qa2[6];
    TQue<TPosition::B2, 1> qb2;
    TQue<TPosition::CO1, 1> qc1;
    for (int i = 0; i < 6; i++) pipe.InitBuffer(qa2[i], 1, 4 * 512);
    pipe.InitBuffer(qb2, 1, 4 * 512);
    pipe.InitBuffer(qc1, 1, 16 * 16 * sizeof(float));
    GlobalTensor<float> cGm;
    cGm.SetGlobalBuffer((__gm__ float *)c, 256);
    LocalTensor<half> a2[6];
    for (int i = 0; i < 6; i++) a2[i] = qa2[i].AllocTensor<half>();
    LocalTensor<half> b2 = qb2.AllocTensor<half>();
    LocalTensor<float> c1 = qc1.AllocTensor<float>();
    Fill(a2[0], InitConstValueParams<half>(1, 4, 0, (half)1));
    Fill(b2, InitConstValueParams<half>(1, 4, 0, (half)2));
    PipeBarrier<PIPE_ALL>();
    MmadParams mm;
    mm.m = 16; mm.n = 16; mm.k = 64;
    Mmad(c1, a2[0], b2, mm);
    PipeBarrier<PIPE_ALL>();
    Fixpipe(cGm, c1, FixpipeParamsV220(16, 16, 16, 16, false));
    PipeBarrier<PIPE_ALL>();
    for (int i = 5; i >= 1; i--) qa2[i].FreeTensor(a2[i]);
    qa2[0].FreeTensor(a2[0]);   // SIXTH
    qb2.FreeTensor(b2);         // B2 (L1 -> L0B: M_MTE1 too)
    qc1.FreeTensor(c1);
}
'''


def test_on_an_aic_the_pipe_holds_three_m_mte1_ids_and_the_sixth_l0_buffer_freed_takes_id_8():
    r = run(build({"six_a2.cpp": SIX_A2}), [GM("c", np.full(256, -1, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["c"], np.full(256, 128, np.float32))   # 64 x 1 x 2
    warned = [d for d in r.diagnostics if d.kind == "queue-too-many"]
    assert [d.line for d in warned] == [_line(SIX_A2, "SIXTH"), _line(SIX_A2, "B2 (")]
    assert all(d.severity == "warning" for d in warned)
    assert "M_MTE1" in warned[0].message and "event id 8 " in warned[0].message and "event id 9 " in warned[1].message
    assert "the TPipe itself holds ids 0..2" in warned[0].message
