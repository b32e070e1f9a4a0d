"""`if constexpr (TILING_KEY_IS(k))`: CANN's per-key build makes TILING_KEY_IS a constant expression (ops-nn
fused_patch_mlp chooses its template arguments so). The emulator builds such a kernel once per tiling key too; each
launch runs the branch of its key (checked against NumPy), a run-time `if (TILING_KEY_IS(k))` in the same kernel still
reads the launch's key, and a key no branch names is the `tiling-key` error when the block writes nothing."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, key_var_conditions, run

KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;

template <bool twice, int add>
__aicore__ inline void Scale(GlobalTensor<float>& x, GlobalTensor<float>& y, TBuf<TPosition::VECCALC>& buf)
{
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, x, 64);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    if constexpr (twice) Muls(t, t, 2.0f, 64);
    PipeBarrier<PIPE_V>();
    Adds(t, t, static_cast<float>(add), 64);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(y, t, 64);
}

extern "C" __global__ __aicore__ void by_key(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    zg.SetGlobalBuffer((__gm__ float *)z, 8);
    if constexpr (TILING_KEY_IS(1)) {
        Scale<false, 1>(xg, yg, buf);
    } else if constexpr (TILING_KEY_IS(11) || TILING_KEY_LIST(21, 22)) {
        Scale<true, 3>(xg, yg, buf);
    }
    if (TILING_KEY_IS(22)) {   // a run-time test: the launch's key
        zg.SetValue(0, 22.0f);
    } else {
        zg.SetValue(0, 7.0f);
    }
}
'''


def test_the_conditions_name_the_keys_of_the_constexpr_tests():
    c = key_var_conditions({"k.cpp": KERNEL})
    assert c is not None and c.file == "k.cpp" and c.keys == ["1", "11", "21", "22"] and c.complete
    assert KERNEL.split("\n")[c.line - 1].strip().startswith("if constexpr (TILING_KEY_IS(1))")


@pytest.mark.parametrize("key, twice, add, flag", [(1, False, 1, 7.0), (11, True, 3, 7.0), (21, True, 3, 7.0),
                                                   (22, True, 3, 22.0)])
def test_each_key_runs_its_branch(key, twice, add, flag):
    x = np.random.default_rng(key).standard_normal(64).astype(np.float32)
    r = run(build({"k.cpp": KERNEL}), [GM("x", x), GM("y", np.zeros(64, np.float32), "out"),
                                      GM("z", np.zeros(8, np.float32), "out")], block_dim=1, tiling_key=key)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_allclose(r.outputs["y"], (x * 2 if twice else x) + add, rtol=1e-6)
    assert r.outputs["z"][0] == flag


def test_a_key_without_a_branch_is_the_tiling_key_error():
    src = KERNEL.split("    if (TILING_KEY_IS(22))")[0] + "}\n"
    r = run(build({"k.cpp": src}), [GM("x", np.zeros(64, np.float32)), GM("y", np.zeros(64, np.float32), "out"),
                                   GM("z", np.zeros(8, np.float32), "out")], block_dim=1, tiling_key=5)
    errs = [d for d in r.diagnostics if d.is_error]
    assert errs and errs[0].kind == "tiling-key" and "if constexpr" in errs[0].message, \
        "\n".join(d.render() for d in r.diagnostics)
