"""ListTensorDesc / TensorDesc (kernel_operator_list_tensor_intf.h): a kernel decodes the list-of-tensors layout (word 0
the byte offset of the pointers; per tensor a dim | index << 32 word and its shape; then the data pointers), reads
each tensor's pointer, dims and shape, and adds the two tensors it names; and the layout check stops a bad list."""
import numpy as np

from ascendcraft.emu import GM, build, run

KERNEL = """#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void addn(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR info)
{
    // the list an op's framework passes: 2 tensors of shape [4, 64]
    uint64_t list[1 + 2 * 3 + 2] = {(1 + 2 * 3) * 8, 2 | (0ull << 32), 4, 64, 2 | (1ull << 32), 4, 64,
                                    (uint64_t)(uintptr_t)x, (uint64_t)(uintptr_t)y};
    %(BREAK)s
    ListTensorDesc l((__gm__ void *)list);
    uint64_t shape[2];
    TensorDesc<float> d1;
    d1.SetShapeAddr(shape);
    l.GetDesc(d1, 1);
    GlobalTensor<int32_t> iGm;
    iGm.SetGlobalBuffer((__gm__ int32_t *)info);
    iGm.SetValue(0, l.GetSize());
    iGm.SetValue(1, d1.GetDim());
    iGm.SetValue(2, d1.GetIndex());
    iGm.SetValue(3, d1.GetShape(0));
    iGm.SetValue(4, d1.GetShape(1));
    iGm.SetValue(5, d1.GetDataPtr() == (__gm__ float *)y);
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(iGm);
    TPipe pipe;
    TBuf<TPosition::VECCALC> ab, bb;
    pipe.InitBuffer(ab, 256 * sizeof(float));
    pipe.InitBuffer(bb, 256 * sizeof(float));
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer(l.GetDataPtr<float>(0), 256);
    zGm.SetGlobalBuffer((__gm__ float *)z, 256);
    GlobalTensor<float> yGm = d1.GetDataObj();
    LocalTensor<float> a = ab.Get<float>(), b = bb.Get<float>();
    DataCopy(a, xGm, 256);
    DataCopy(b, yGm, 256);
    PipeBarrier<PIPE_ALL>();
    Add(a, a, b, 256);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, a, 256);
}
"""


def test_list_tensor_desc_decodes_the_list():
    x = np.arange(256, dtype=np.float32)
    y = np.full(256, 0.5, np.float32)
    b = build({"k.cpp": KERNEL % dict(BREAK="")})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    r = run(b, [GM("x", x), GM("y", y), GM("z", np.zeros(256, np.float32), "out"), GM("info", np.zeros(8, np.int32), "out")],
            block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    assert list(r.outputs["info"][:6]) == [2, 2, 1, 4, 64, 1]
    np.testing.assert_array_equal(r.outputs["z"], x + y)


def test_list_tensor_desc_checks_the_layout():
    b = build({"k.cpp": KERNEL % dict(BREAK="list[0] = 4 * 8;")})
    assert b.ok
    r = run(b, [GM("x", np.zeros(256, np.float32)), GM("y", np.zeros(256, np.float32)),
                GM("z", np.zeros(256, np.float32), "out"), GM("info", np.zeros(8, np.int32), "out")], block_dim=1)
    assert not r.ok and any(d.kind == "kernel-assert" for d in r.diagnostics)
