"""DropOutBitModeInit(sharedTmpBuffer): what DropOut<T, false> does first in bit mode (256 zero bytes of the buffer into
the compare-mask register), for kernels that then call DropOut<T, true> (ops-transformer flash_attention_score and
flash_attention_score_grad, Matmul-API kernels). The mask register reads back zero, and the bit-mode DropOut after it
matches NumPy."""
import numpy as np

from ascendcraft.emu import GM, build, run

KERNEL = '''#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t ROWS = 2, COLS = 128, MASK_BYTES = COLS / 8;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR m, GM_ADDR y, GM_ADDR cmp)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * ROWS * COLS * sizeof(half) + 1024);
    LocalTensor<half> src = buf.Get<half>();
    LocalTensor<half> dst = src[ROWS * COLS];
    LocalTensor<uint8_t> mask = src[2 * ROWS * COLS].template ReinterpretCast<uint8_t>();
    LocalTensor<uint8_t> tmp = src[3 * ROWS * COLS].template ReinterpretCast<uint8_t>();
    LocalTensor<half> cmpOut = src[3 * ROWS * COLS + 256];
    GlobalTensor<half> xGm, yGm, cmpGm;
    GlobalTensor<uint8_t> mGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, ROWS * COLS);
    yGm.SetGlobalBuffer((__gm__ half *)y, ROWS * COLS);
    cmpGm.SetGlobalBuffer((__gm__ half *)cmp, 16);
    mGm.SetGlobalBuffer((__gm__ uint8_t *)m, ROWS * MASK_BYTES);
    DataCopy(src, xGm, ROWS * COLS);
    DataCopy(mask, mGm, ROWS * MASK_BYTES);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    DropOutBitModeInit(tmp);
    GetCmpMask(cmpOut);
    DropOutShapeInfo info;
    info.firstAxis = ROWS;
    info.srcLastAxis = COLS;
    info.maskLastAxis = MASK_BYTES;
    DropOut<half, true, DROPOUT_MODE_BIT_ALIGN>(dst, src, mask, tmp, 0.8f, info);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, dst, ROWS * COLS);
    DataCopy(cmpGm, cmpOut, 16);
}
'''


def check_mask_and_dropout(kernel: str, seed: int):
    "Build and run `kernel` on a random half input and byte mask: the compare mask reads back zero, the output is NumPy's."
    b = build({"k.cpp": kernel})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((2, 128)).astype(np.float16)
    m = rng.integers(0, 256, (2, 16)).astype(np.uint8)
    r = run(b, [GM("x", x), GM("m", m), GM("y", np.zeros((2, 128), np.float16), "out"),
                GM("cmp", np.full(16, 7, np.float16), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    assert not r.outputs["cmp"][:8].view(np.uint16).any()   # 128 bits of the compare mask: zero
    keep = np.unpackbits(m, axis=1, bitorder="little").astype(bool)
    want = np.where(keep, x.astype(np.float32) / np.float32(0.8), 0).astype(np.float16)
    np.testing.assert_allclose(r.outputs["y"].astype(np.float32), want.astype(np.float32), rtol=2e-3, atol=1e-3)


def test_dropout_bit_mode_init_then_bit_mode_dropout():
    check_mask_and_dropout(KERNEL, 2)


def test_dropout_bit_mode_init_without_a_buffer_uses_the_free_ub():
    "DropOutBitModeInit() takes its 256 bytes past the InitBuffer allocations: the same mask register, the same output."
    check_mask_and_dropout(KERNEL.replace("DropOutBitModeInit(tmp);", "DropOutBitModeInit();"), 3)
