"""`TPipe a = ...; a = b;`: AscendC's TPipe is copy-assignable (hicann ops-nn add_layer_norm_grad and
layer_norm_grad_v3 keep a member `TPipe pipe_` and assign the kernel's pipe to it, then InitBuffer through the member).
The member then hands out UB from where the kernel's pipe stands. Kernels written here in that style; the first test
failed to compile without the assignment ("use of deleted function")."""
import numpy as np

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;

// a helper that keeps its own TPipe and takes the kernel's allocation state by assignment
class Tail {
public:
    __aicore__ inline void Init(TPipe& pipe, uint32_t n)
    {
        pipe_ = pipe;
        pipe_.InitBuffer(buf_, n * sizeof(float));
    }
    __aicore__ inline LocalTensor<float> Get() { return buf_.Get<float>(); }
private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> buf_;
};

extern "C" __global__ __aicore__ void assigned_pipe(GM_ADDR x, GM_ADDR y, GM_ADDR addr)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> head;
    pipe.InitBuffer(head, 64 * sizeof(float));
    GlobalTensor<float> xg, yg;
    GlobalTensor<uint32_t> ag;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    ag.SetGlobalBuffer((__gm__ uint32_t *)addr, 8);
    LocalTensor<float> a = head.Get<float>();
    DataCopy(a, xg, 64);
    PipeBarrier<PIPE_ALL>();
    Tail tail;
    tail.Init(pipe, 64);
    LocalTensor<float> b = tail.Get();
    Duplicate(b, 3.0f, 64);        // the copy's buffer lies after the kernel pipe's one: `a` keeps x
    Add(b, a, b, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, b, 64);
    ag.SetValue(0, static_cast<uint32_t>(b.GetPhyAddr() - a.GetPhyAddr()));
}
'''


def run_assigned(src: str):
    "Build and run the kernel `src` on x = 0..63; (x, the run's outputs)."
    b = build({"assigned_pipe.cpp": src})
    assert b.ok, [d.render() for d in b.diagnostics]
    x = np.arange(64, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.empty(64, np.float32), "out"), GM("addr", np.zeros(8, np.uint32), "out")],
            block_dim=1)
    assert r.ok, [d.render() for d in r.diagnostics]
    return x, r.outputs


def test_an_assigned_tpipe_hands_out_ub_after_the_one_it_copies():
    x, out = run_assigned(KERNEL)
    np.testing.assert_array_equal(out["y"], x + 3)
    assert out["addr"][0] == 64 * 4   # right after the kernel pipe's 256 bytes


def test_an_assigned_tpipe_after_reset_starts_again_at_the_beginning_of_ub():
    # add_layer_norm_grad resets the kernel's pipe, then gives its state to the helper: the helper's buffers start at 0
    # again, where the kernel's own (now dead) buffer was
    src = KERNEL.replace("    Tail tail;\n", "    pipe.Reset();\n    Tail tail;\n") \
        .replace("    Duplicate(b, 3.0f, 64);        // the copy's buffer lies after the kernel pipe's one: `a` keeps x\n"
                 "    Add(b, a, b, 64);\n", "    Adds(b, b, 3.0f, 64);\n")
    x, out = run_assigned(src)
    assert out["addr"][0] == 0
    np.testing.assert_array_equal(out["y"], x + 3)   # the same bytes: what the kernel's buffer held is read
