"""A kernel that makes a TPipe and its queues in a helper it calls for every element (thirty-third round, scal).

LLM4AscendC's gemm_log_sum_exp_leaky_relu_leaky_relu_gelu_gelu answer computes exp and log of one float with a helper
that constructs a TPipe, InitBuffers two one-float queues, allocates, runs `Exp` on one element and frees: 8,192 calls a
row, two queues each. The emulator numbers a block's queues in the order InitBuffer makes them, and a LocalTensor kept
that number in 16 bits: past 32,767 queues the tensor's number no longer named its queue, and the run stopped at
`FreeTensor` with `queue-protocol` ("not allocated from this queue"). The number is 32 bits now; this kernel makes
34,000 queues in each of its two blocks. (A run of 40,000 calls, 80,000 queues, whose 16-bit event keys wrap, gives
the right values too: /tmp/scal/q/q.py, not kept.)
"""
import numpy as np

from ascendcraft.emu import GM, Scalar, build, run

CALLS = 17000
KERNEL = r'''#include "kernel_operator.h"
__aicore__ inline float ExpOne(float v)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> qIn;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> qOut;
    pipe.InitBuffer(qIn, 1, sizeof(float));
    pipe.InitBuffer(qOut, 1, sizeof(float));
    AscendC::LocalTensor<float> a = qIn.AllocTensor<float>();
    AscendC::LocalTensor<float> b = qOut.AllocTensor<float>();
    a(0) = v;
    AscendC::Exp(b, a, 1);
    const float out = b(0);
    qOut.FreeTensor(b);
    qIn.FreeTensor(a);
    return out;
}
extern "C" __global__ __aicore__ void exp_per_call(GM_ADDR x, GM_ADDR y, uint32_t calls)
{
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + 8 * AscendC::GetBlockIdx(), 8);
    yGm.SetGlobalBuffer((__gm__ float *)y + 8 * AscendC::GetBlockIdx(), 8);
    float sum = 0.0f;
    for (uint32_t j = 0; j < calls; ++j) sum += ExpOne(xGm.GetValue(j % 8));
    for (uint32_t i = 0; i < 8; ++i) yGm.SetValue(i, ExpOne(xGm.GetValue(i)) + sum * 0.0f);
}
'''


def test_a_pipe_made_per_call_past_32767_queues_keeps_its_tensors():
    b = build({"exp_per_call.cpp": KERNEL})
    assert b.ok, b.diagnostics
    x = np.linspace(-1, 1, 16).astype(np.float32)
    r = run(b, [GM("x", x), GM("y", None, "out", shape=(16,), dtype=np.float32), Scalar(CALLS, "uint32")], block_dim=2)
    assert r.ok, r.diagnostics
    np.testing.assert_allclose(r.outputs["y"], np.exp(x), rtol=1e-6)


# A TPipe's end visits the queues InitBuffer made in it (thirty-seventh round, speed: PipeState::queues; it visited every
# queue the block had made, so a TPipe a call cost time in proportion to the calls before it: 32,000 calls of ExpOne
# took 2.29 kernel CPU-s, now 0.026). The check it makes there must still see the last pipe's tensor left in its queue.
LEAKING = r'''#include "kernel_operator.h"
__aicore__ inline float ExpOne(float v, bool leave)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> qIn;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> qOut;
    pipe.InitBuffer(qIn, 1, sizeof(float));
    pipe.InitBuffer(qOut, 1, sizeof(float));
    AscendC::LocalTensor<float> a = qIn.AllocTensor<float>();
    AscendC::LocalTensor<float> b = qOut.AllocTensor<float>();   // EXPECT left
    a(0) = v;
    AscendC::Exp(b, a, 1);
    const float out = b(0);
    if (leave) qOut.EnQue(b);
    else qOut.FreeTensor(b);
    qIn.FreeTensor(a);
    return out;
}
extern "C" __global__ __aicore__ void exp_per_call(GM_ADDR x, GM_ADDR y, uint32_t calls, uint32_t leaveAt)
{
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 8);
    yGm.SetGlobalBuffer((__gm__ float *)y, 8);
    float sum = 0.0f;
    for (uint32_t j = 0; j < calls; ++j) sum += ExpOne(xGm.GetValue(j % 8), j == leaveAt);
    for (uint32_t i = 0; i < 8; ++i) yGm.SetValue(i, ExpOne(xGm.GetValue(i), false) + sum * 0.0f);
}
'''


def _leaking(leave_at):
    b = build({"exp_per_call.cpp": LEAKING})
    assert b.ok, b.diagnostics
    x = np.linspace(-1, 1, 8).astype(np.float32)
    return x, run(b, [GM("x", x), GM("y", None, "out", shape=(8,), dtype=np.float32), Scalar(CALLS, "uint32"),
                      Scalar(leave_at, "uint32")], block_dim=1)


def test_the_end_of_the_last_of_many_pipes_still_finds_its_tensor_left_in_its_queue():
    _, r = _leaking(CALLS - 3)
    assert not r.ok and len(r.errors) == 1, r.diagnostics
    e = r.errors[0]
    line = next(i + 1 for i, t in enumerate(LEAKING.splitlines()) if t.rstrip().endswith("EXPECT left"))
    assert (e.kind, e.line) == ("queue-leak", line), e
    assert "still in the queue" in e.message, e.message


def test_many_pipes_that_free_their_tensors_run_clean():
    x, r = _leaking(CALLS + 1)
    assert r.ok, r.diagnostics
    np.testing.assert_allclose(r.outputs["y"], np.exp(x), rtol=1e-6)
