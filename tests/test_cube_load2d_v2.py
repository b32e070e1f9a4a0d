"""LoadData2DParamsV2 (the Load2D page's Load2Dv2 form, Ascend 950): A2 code that keeps a 950 branch beside its own
(asc-devkit's 06_compatibility_guide `fill` and `data_copy_l1togm`: the V2 load in a template member only the
`__NPU_ARCH__ == 3510` branch calls) compiles as with CANN's headers, where the struct name is looked up when the
template is defined; a kernel that does call the V2 load on the emulated A2 stops with a named error."""
from ascendcraft.emu import GM, build, run
import numpy as np

KERNEL = r'''#include "kernel_operator.h"
template <typename T>
struct Loader {
    __aicore__ inline void Load950(AscendC::LocalTensor<T>& a2, AscendC::LocalTensor<T>& a1)
    {
        AscendC::LoadData2DParamsV2 p;
        p.mStartPosition = 0; p.kStartPosition = 0; p.mStep = 1; p.kStep = 1;
        p.srcStride = 1; p.dstStride = 1; p.sid = 0; p.ifTranspose = false;
        AscendC::LoadData(a2, a1, p);
    }
};

extern "C" __global__ __aicore__ void load_v2(GM_ADDR x)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    AscendC::GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, 256);
    AscendC::LocalTensor<half> a1(AscendC::TPosition::A1, 0, 256);
    AscendC::LocalTensor<half> a2(AscendC::TPosition::A2, 0, 256);
    AscendC::DataCopy(a1, xGm, 256);
    AscendC::PipeBarrier<PIPE_ALL>();
#if CALL_V2
    Loader<half>().Load950(a2, a1);
#endif
}
'''


def _build(tmp_path, call: int):
    src = tmp_path / f"load_v2_{call}.cpp"
    src.write_text(KERNEL.replace("CALL_V2", str(call)))
    return build(src, entry="load_v2")


def test_an_uncalled_v2_load_compiles(tmp_path):
    b = _build(tmp_path, 0)
    assert b.ok, "\n".join(map(str, b.diagnostics))


def test_a_v2_load_on_a2_stops_named(tmp_path):
    b = _build(tmp_path, 1)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("x", np.zeros(256, np.float16))], block_dim=1)
    assert not r.ok
    assert any("LoadData2DParamsV2" in d.message and "950" in d.message for d in r.errors), [d.render() for d in r.diagnostics]
