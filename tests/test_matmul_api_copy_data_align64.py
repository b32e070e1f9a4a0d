"""copy_data_align64(dst, src, bytes): the device compiler's copy that CANN's generated tiling code uses, and that
ops-transformer's attention kernels (nsa_selected_attention_infer, incre_flash_attention) call to bring an array of
their tiling onto the stack. It copies the bytes it is given."""
import numpy as np

from ascendcraft.emu import GM, build, run

KERNEL = '''#include "kernel_operator.h"
using namespace AscendC;
struct CoreParams { uint32_t coreSidxEnd[50]; uint32_t other; };
extern "C" __global__ __aicore__ void k(GM_ADDR params, GM_ADDR out)
{
    const CoreParams* tiling = reinterpret_cast<const CoreParams*>(params);
    uint32_t coreSidxEnd[50];
    copy_data_align64((uint8_t *)coreSidxEnd, (uint8_t *)(tiling->coreSidxEnd), sizeof(coreSidxEnd));
    GlobalTensor<uint32_t> o;
    o.SetGlobalBuffer((__gm__ uint32_t *)out, 64);
    const uint32_t b = GetBlockIdx();
    o.SetValue(b, coreSidxEnd[b + 1] - coreSidxEnd[b]);
}
'''


def test_copy_data_align64_copies_the_tiling_array():
    b = build({"copy64.cpp": KERNEL})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    params = np.zeros(51, np.uint32)
    params[:50] = np.cumsum(np.arange(50, dtype=np.uint32) * 3 + 1)
    r = run(b, [GM("params", params), GM("out", np.zeros(64, np.uint32), "out")], block_dim=4)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    assert list(r.outputs["out"][:4]) == [int(params[i + 1] - params[i]) for i in range(4)]
