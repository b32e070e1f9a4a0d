"""get_imm(imm), the device compiler's immediate load, as the official kernel-launch samples of 2023 use it
(cplusplus/level1_single_api/4_op_dev/6_ascendc_custom_op/kernel_invocation Add_tile and LeakyReLU, kept in the two
copies of Ascend/samples the corpus has): their tiling header's GET_TILING_DATA copies the tiling struct from GM into
the UB at `(__ubuf__ uint8_t*)get_imm(0)` with copy_gm_to_ubuf, waits with pipe_barrier(PIPE_ALL) and reads the fields
through that pointer before the pipe's buffers take the UB. Before: `'get_imm' was not declared in this scope`.

The kernel is written for the test in that style: z = x + y in half over 2 blocks, its length and tile count from the
tiling struct."""
import numpy as np

from ascendcraft.emu import GM, build, run

TILING_H = r'''
#pragma once
#include "kernel_operator.h"
struct ScaleTiling {
    uint32_t totalLength;
    uint32_t tileNum;
};
inline __aicore__ int32_t Blocks32(int32_t n) { return ((n + 31) & ~31) / 32; }
#define READ_TILING(tilingData, tilingPointer)                                                    \
    ScaleTiling tilingData;                                                                       \
    __ubuf__ uint8_t* tilingUb = (__ubuf__ uint8_t*)get_imm(0);                                   \
    copy_gm_to_ubuf(((__ubuf__ uint8_t*)(tilingUb)), ((__gm__ uint8_t*)(tilingPointer)), 0, 1,   \
                    Blocks32(sizeof(ScaleTiling)), 0, 0);                                         \
    pipe_barrier(PIPE_ALL);                                                                       \
    __ubuf__ ScaleTiling* tilingView = reinterpret_cast<__ubuf__ ScaleTiling*>(tilingUb);         \
    (tilingData).totalLength = tilingView->totalLength;                                           \
    (tilingData).tileNum = tilingView->tileNum;
'''

KERNEL = r'''
#include "kernel_operator.h"
#include "tiling.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void add_tiled(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling)
{
    READ_TILING(t, tiling);
    uint32_t block = t.totalLength / GetBlockNum();
    uint32_t tile = block / t.tileNum;
    GlobalTensor<half> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ half*)x + block * GetBlockIdx(), block);
    yGm.SetGlobalBuffer((__gm__ half*)y + block * GetBlockIdx(), block);
    zGm.SetGlobalBuffer((__gm__ half*)z + block * GetBlockIdx(), block);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inX, inY;
    TQue<QuePosition::VECOUT, 1> outZ;
    pipe.InitBuffer(inX, 1, tile * sizeof(half));
    pipe.InitBuffer(inY, 1, tile * sizeof(half));
    pipe.InitBuffer(outZ, 1, tile * sizeof(half));
    for (uint32_t i = 0; i < t.tileNum; i++) {
        LocalTensor<half> a = inX.AllocTensor<half>();
        LocalTensor<half> b = inY.AllocTensor<half>();
        DataCopy(a, xGm[i * tile], tile);
        DataCopy(b, yGm[i * tile], tile);
        inX.EnQue(a);
        inY.EnQue(b);
        a = inX.DeQue<half>();
        b = inY.DeQue<half>();
        LocalTensor<half> c = outZ.AllocTensor<half>();
        Add(c, a, b, tile);
        outZ.EnQue(c);
        inX.FreeTensor(a);
        inY.FreeTensor(b);
        c = outZ.DeQue<half>();
        DataCopy(zGm[i * tile], c, tile);
        outZ.FreeTensor(c);
    }
}
'''


def test_a_tiling_struct_read_through_ub_at_get_imm_0_drives_the_kernel():
    rng = np.random.default_rng(11)
    n = 2 * 4 * 128
    x, y = rng.uniform(-4, 4, n).astype(np.float16), rng.uniform(-4, 4, n).astype(np.float16)
    tiling = np.zeros(8, np.uint32)
    tiling[:2] = (n, 4)
    b = build({"k.cpp": KERNEL, "tiling.h": TILING_H})
    assert b.ok, [d.render() for d in b.diagnostics]
    r = run(b, [GM("x", x), GM("y", y), GM("z", np.zeros(n, np.float16), "out"), GM("tiling", tiling)], block_dim=2)
    assert r.ok, [d.render() for d in r.diagnostics]
    np.testing.assert_array_equal(r.outputs["z"], x + y)


def test_get_imm_gives_its_immediate():
    src = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void imm(GM_ADDR out)
{
    AscendC::GlobalTensor<int64_t> o;
    o.SetGlobalBuffer((__gm__ int64_t*)out, 4);
    o.SetValue(0, get_imm(0));
    o.SetValue(1, get_imm(4096));
    o.SetValue(2, get_imm(65535));
}
'''
    b = build({"k.cpp": src})
    assert b.ok, [d.render() for d in b.diagnostics]
    r = run(b, [GM("out", np.full(4, -1, np.int64), "inout")], block_dim=1)
    assert r.ok, [d.render() for d in r.diagnostics]
    np.testing.assert_array_equal(r.outputs["out"], [0, 4096, 65535, -1])
