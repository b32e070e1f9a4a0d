"""Mixed AIC/AIV launches on the emulator (runtime/emu_sync_cross.cpp): a MIX_AIC_1_2 launch of n blocks runs n cube
cores and 2n vector cores with the documented GetBlockIdx / GetSubBlockIdx / GetTaskRation; CrossCoreSetFlag /
CrossCoreWaitFlag hand a GEMM's tiles from the cube core to the vector cores through a GM workspace and back; a missing
hand-over (the vector core reads the cube's output without waiting, or the cube core overwrites a slot the vector cores
still read) is a `cross-core-race` error at the line of the read; a wait nobody can release is a deadlock error at the
wait, not a hang; mode 0 synchronises all vector cores. The kernel type comes from the source (ascendcraft.emu_kind)."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, Scalar, build, run, trace, op_names

KERNEL = Path(__file__).parent / "emu_kernels" / "good" / "cross_mixed.cpp"
SRC = KERNEL.read_text().splitlines()
RNG = np.random.default_rng(1515)


def _line(d) -> str:
    return SRC[d.line - 1]


def _matmul_relu(entry, groups=2, tiles=3, n=32, k=64):
    m = groups * tiles * 16
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bt = RNG.standard_normal((n, k)).astype(np.float16)
    ref = np.maximum(a.astype(np.float64) @ bt.astype(np.float64).T, 0)
    b = build(KERNEL, entry=entry)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    args = [GM("a", a), GM("bt", bt), GM("y", np.empty((m, n), np.float32), "out"),
            GM("ws", np.empty(groups * 2 * 16 * n, np.float32), "workspace"),
            Scalar(n, "uint32_t"), Scalar(k, "uint32_t"), Scalar(tiles, "uint32_t")]
    return b, args, run(b, args, block_dim=groups), ref


def test_core_ids_follow_the_documented_mixed_layout():
    b = build(KERNEL, entry="core_ids")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("ids", np.full((9, 8), -1, np.int32), "out")], block_dim=3)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    ids = r.outputs["ids"][:, :5]
    for g in range(3):   # GetBlockIdx, GetSubBlockIdx, GetTaskRation, GetBlockNum, ASCEND_IS_AIC
        assert ids[3 * g].tolist() == [g, 0, 1, 3, 1]
        assert ids[3 * g + 1].tolist() == [2 * g, 0, 2, 3, 0]
        assert ids[3 * g + 2].tolist() == [2 * g + 1, 1, 2, 3, 0]


def test_cube_to_vector_hand_over_through_gm_matches_numpy():
    _, _, r, ref = _matmul_relu("matmul_relu")
    assert r.ok, "\n".join(map(str, r.diagnostics))
    assert not r.diagnostics
    np.testing.assert_allclose(r.outputs["y"], ref, rtol=1e-5, atol=1e-4)


def test_reading_the_cubes_output_without_waiting_is_an_error_at_the_read():
    _, _, r, _ = _matmul_relu("matmul_relu_no_wait")
    assert not r.ok
    d = next(d for d in r.diagnostics if d.kind == "cross-core-race")
    assert "DataCopy(x, wsGm" in _line(d)                      # the vector core's read
    assert "Fixpipe" in d.message and "AIV 0 of group 0" in d.message and "the AIC of group 0" in d.message
    assert "CrossCoreWaitFlag" in d.hint


def test_overwriting_a_slot_the_vector_cores_still_read_is_an_error():
    _, _, r, _ = _matmul_relu("matmul_relu_no_back_pressure")
    assert not r.ok
    d = next(d for d in r.diagnostics if d.kind == "cross-core-race")
    # the cube core ran ahead and refilled slot 0 with tile 2 before the vector cores read tile 0
    assert "DataCopy(x, wsGm" in _line(d) and "Fixpipe" in d.message


def test_a_wait_nobody_releases_is_a_deadlock_error_not_a_hang():
    _, _, r, _ = _matmul_relu("matmul_relu_wrong_flag")
    assert not r.ok
    d = next(d for d in r.diagnostics if d.kind == "cross-core-deadlock")
    assert "CrossCoreWaitFlag" in _line(d)
    assert "CrossCoreWaitFlag(5)" in d.message and "hangs" in d.message


@pytest.mark.parametrize("entry,ok", [("rotate", True), ("rotate_no_barrier", False)])
def test_mode_0_synchronises_all_vector_cores(entry, ok):
    b = build(KERNEL, entry=entry)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.arange(32, dtype=np.float32)
    r = run(b, [GM("x", x), GM("ws", np.empty(32, np.float32), "workspace"), GM("y", np.empty(32, np.float32), "out")],
            block_dim=4)
    assert r.ok == ok, "\n".join(map(str, r.diagnostics))
    if ok:
        np.testing.assert_array_equal(r.outputs["y"], np.roll(x, -8))
    else:
        d = next(d for d in r.diagnostics if d.kind == "cross-core-race")
        assert "DataCopy(wsGm[i * 8], t, 8)" in _line(d)       # a neighbour's publish races this core's read


def test_trace_records_the_cores_and_their_flags():
    b, args, _, _ = _matmul_relu("matmul_relu")
    t = trace(b, args, block_dim=2)
    assert t.meta["cores"] == {"kernel_type": "KERNEL_TYPE_MIX_AIC_1_2", "aic_per_group": 1, "aiv_per_group": 2, "groups": 2}
    names = op_names()
    core = t.records["core"]
    op = t.records["op"]
    mmad = np.unique(core[op == names.index("Mmad")])
    relu = np.unique(core[op == names.index("Relu")])
    assert mmad.tolist() == [0, 3] and relu.tolist() == [1, 2, 4, 5]   # slot 3g is the AIC of group g
    sets = t.records[(op == names.index("CrossCoreSetFlag")) & (core == 0)]
    assert len(sets) == 3 and set(sets["pipe"].tolist()) == {6}        # the cube core's sets ride the FIX pipe



SPELLINGS = {   # how kernels ported from the devkit's own code hand over (cann-ops mat_mul_v3, weight_quant_batch_matmul_v2)
    # the device compiler's intrinsics: the config word carries the mode in bits 4..5 and the flag id in bits 8..11
    "raw": {"CrossCoreSetFlag<2, PIPE_FIX>(3)": "ffts_cross_core_sync(PIPE_FIX, 0x321)",
            "CrossCoreSetFlag<2, PIPE_MTE3>(4)": "ffts_cross_core_sync(PIPE_MTE3, GetffstMsg(2, 4))",
            "CrossCoreWaitFlag(3)": "wait_flag_dev(3)", "CrossCoreWaitFlag(4)": "wait_flag_dev(4)"},
    # the Matmul library's names (mode 2 on A2)
    "event": {"CrossCoreSetFlag<2, PIPE_FIX>(3)": "NotifyEvent<PIPE_FIX>(3)",
              "CrossCoreSetFlag<2, PIPE_MTE3>(4)": "NotifyEvent<PIPE_MTE3>(4)",
              "CrossCoreWaitFlag(3)": "WaitEvent(3)", "CrossCoreWaitFlag(4)": "WaitEvent<PIPE_S>(4)"},
}


def _respelled(tmp_path, spelling):
    "cross_mixed.cpp with its hand-over written another way; only that spelling is left in the code."
    src = KERNEL.read_text()
    for old, new in SPELLINGS[spelling].items(): src = src.replace(old, new)
    code = "\n".join(l.split("//")[0] for l in src.splitlines()).split("core_ids")[0]
    assert "CrossCoreSetFlag" not in code and "CrossCoreWaitFlag(3)" not in code
    path = tmp_path / f"cross_{spelling}.cpp"
    path.write_text(src)
    return path


@pytest.mark.parametrize("spelling,entry", [("raw", "matmul_relu"), ("raw", "matmul_relu_no_wait"), ("event", "matmul_relu")])
def test_other_spellings_of_the_hand_over_work_like_the_named_api(tmp_path, spelling, entry):
    path = _respelled(tmp_path, spelling)
    groups, tiles, n, k = 2, 3, 32, 64
    m = groups * tiles * 16
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bt = RNG.standard_normal((n, k)).astype(np.float16)
    b = build(path, entry=entry)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("bt", bt), GM("y", np.empty((m, n), np.float32), "out"),
                GM("ws", np.empty(groups * 2 * 16 * n, np.float32), "workspace"),
                Scalar(n, "uint32_t"), Scalar(k, "uint32_t"), Scalar(tiles, "uint32_t")], block_dim=groups)
    if entry == "matmul_relu":
        assert r.ok and not r.diagnostics, "\n".join(map(str, r.diagnostics))
        np.testing.assert_allclose(r.outputs["y"], np.maximum(a.astype(np.float64) @ bt.astype(np.float64).T, 0),
                                   rtol=1e-5, atol=1e-4)
    else:   # the missing wait is still found: the raw set is the same hand-over as CrossCoreSetFlag
        assert not r.ok
        d = next(d for d in r.diagnostics if d.kind == "cross-core-race")
        assert "DataCopy(x, wsGm" in path.read_text().splitlines()[d.line - 1]



AIC_ONLY = """#include "kernel_operator.h"

extern "C" __global__ __aicore__ void aic_only(GM_ADDR ids)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    static_assert(KERNEL_TYPE_MIX_AIC_1_2 == AscendC::KERNEL_TYPE_MIX_AIC_1_2 && KERNEL_TYPE_MIX_VECTOR_CORE == 9, "");
    AscendC::GlobalTensor<int32_t> out;
    out.SetGlobalBuffer((__gm__ int32_t *)ids);
    out.SetValue(AscendC::GetBlockIdx(), ASCEND_IS_AIC ? 1 : 2);
}
"""


def test_kernel_types_are_global_names_as_in_ascendc(tmp_path):
    "KERNEL_TYPE_* are global (cann-ops mmad names KERNEL_TYPE_AIC_ONLY without `using namespace AscendC`)."
    path = tmp_path / "aic_only.cpp"
    path.write_text(AIC_ONLY)
    b = build(path, entry="aic_only")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("ids", np.zeros(8, np.int32), "out")], block_dim=3)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    assert r.outputs["ids"][:3].tolist() == [1, 1, 1]   # three AICs (an AIV would write 2)


def test_set_sync_base_addr_leaves_the_hand_over_as_it_was(tmp_path):
    "SetSyncBaseAddr (the FFTS base-address register, ops-nn transpose_batch_mat_mul's SetFftsBaseAddr) on every core."
    src = KERNEL.read_text().replace("    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);\n    RunMatmulRelu<Bug::None>",
                                     "    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);\n    AscendC::SetSyncBaseAddr(0x12340000ULL);\n"
                                     "    RunMatmulRelu<Bug::None>", 1)
    assert "SetSyncBaseAddr" in src
    path = tmp_path / "cross_ffts.cpp"
    path.write_text(src)
    groups, tiles, n, k = 2, 3, 32, 64
    m = groups * tiles * 16
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bt = RNG.standard_normal((n, k)).astype(np.float16)
    b = build(path, entry="matmul_relu")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("bt", bt), GM("y", np.empty((m, n), np.float32), "out"),
                GM("ws", np.empty(groups * 2 * 16 * n, np.float32), "workspace"),
                Scalar(n, "uint32_t"), Scalar(k, "uint32_t"), Scalar(tiles, "uint32_t")], block_dim=groups)
    assert r.ok and not r.diagnostics, "\n".join(map(str, r.diagnostics))
    ref = np.maximum(a.astype(np.float64) @ bt.astype(np.float64).T, 0)
    np.testing.assert_allclose(r.outputs["y"], ref, rtol=1e-5, atol=1e-4)
