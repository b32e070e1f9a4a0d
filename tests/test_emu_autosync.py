"""Auto-sync: the compiler's automatic synchronisation of the pipes of one core (setting `auto_sync`, on by default).

With it on, the racing kernels of tests/emu_kernels/race/ run clean and match NumPy, and the trace carries the
SetFlag/WaitFlag pair the compiler inserts, so the cost model charges the wait. With it off, the same kernels stop
with the ub-race error naming the missing flag. Hazards auto-sync does not cover (blocks writing the same GM bytes
without SyncAll) are errors in both modes.
"""
import numpy as np
import pytest
from test_emu_race import BLOCKS, RACE, RACY, args_for, check_outputs, marked

from ascendcraft.config import load_settings
from ascendcraft.cost import kernel_time
from ascendcraft.emu import GM, build, run, trace
from ascendcraft.trace import Kind, Pipe

AUTO_EVENT = 15  # runtime/race.h kAutoSyncEvent


def test_auto_sync_is_on_by_default_and_can_be_switched_off():
    assert load_settings(env={}).auto_sync is True
    assert load_settings(env={"ASCENDCRAFT_AUTO_SYNC": "false"}).auto_sync is False


@pytest.mark.parametrize("name", sorted(RACY))
def test_a_kernel_relying_on_auto_sync_runs_and_matches(name):
    b = build(RACE / f"{name}.cpp")
    on = run(b, args_for(name), block_dim=BLOCKS)
    assert on.ok and not on.diagnostics, "\n".join(map(str, on.diagnostics))
    check_outputs(name, on)
    off = run(b, args_for(name), block_dim=BLOCKS, auto_sync=False)
    d = off.errors[0]
    assert d.kind == "ub-race" and d.context["event"] == RACY[name][3]
    assert f"SetFlag<HardEvent::{RACY[name][3]}>" in d.hint and "auto_sync" in d.hint


def test_the_setting_decides_when_no_argument_is_given():
    b = build(RACE / "v_s_missing.cpp")
    r = run(b, args_for("v_s_missing"), block_dim=BLOCKS, settings=load_settings().replace(auto_sync=False))
    assert [d.kind for d in r.errors] == ["ub-race"]


def waits(t, auto=True):
    r = t.records
    sel = (r["kind"] == Kind.WAIT) & ((r["event"] == AUTO_EVENT) if auto else True)
    return r[sel]


def test_the_trace_carries_the_inserted_wait_before_the_racing_instruction():
    path = RACE / "v_s_missing.cpp"
    b = build(path)
    t = trace(b, args_for("v_s_missing"), block_dim=BLOCKS)
    w = waits(t)
    assert len(w) == BLOCKS and set(w["src_pipe"]) == {Pipe.V} and set(w["dst_pipe"]) == {Pipe.S}
    line = marked(path.read_text(), "EXPECT: ub-race")
    for core in range(BLOCKS):
        recs = t.records[t.records["core"] == core]
        i = int(np.flatnonzero((recs["kind"] == Kind.WAIT) & (recs["event"] == AUTO_EVENT))[0])
        assert recs[i - 1]["kind"] == Kind.SET and recs[i - 1]["pipe"] == Pipe.V   # SET on the vector pipe ...
        assert recs[i + 1]["kind"] == Kind.INSTR and recs[i + 1]["line"] == line    # ... then the GetValue that needed it
        assert t.op_names[recs[i + 1]["op"]] == "GetValue"
    assert len(waits(trace(b, args_for("v_s_missing"), block_dim=BLOCKS, auto_sync=False))) == 0


def test_the_cost_model_charges_auto_sync_like_the_manual_flag():
    auto = trace(build(RACE / "v_s_missing.cpp"), args_for("v_s_missing"), block_dim=BLOCKS)
    manual = trace(build(RACE / "v_s_flag.cpp"), args_for("v_s_flag"), block_dim=BLOCKS)
    free = trace(build(RACE / "v_s_missing.cpp"), args_for("v_s_missing"), block_dim=BLOCKS, auto_sync=False)
    t_auto, t_manual, t_free = (kernel_time(t).total_us for t in (auto, manual, free))
    assert t_auto == pytest.approx(t_manual, rel=1e-6)   # the inserted wait costs what the hand-written flag costs
    assert t_auto >= t_free     # never cheaper than no wait (here the model hides the short V -> S wait entirely)


def test_a_synchronised_kernel_gets_no_extra_waits():
    t = trace(build(RACE / "v_s_flag.cpp"), args_for("v_s_flag"), block_dim=BLOCKS)
    assert len(waits(t)) == 0


GM_OVERLAP = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void both_write(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qi;
    TQue<TPosition::VECOUT, 1> qo;
    pipe.InitBuffer(qi, 1, 256 * sizeof(float));
    pipe.InitBuffer(qo, 1, 256 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 256);   // every block writes the same 256 floats, with its own values
    LocalTensor<float> a = qi.AllocTensor<float>();
    DataCopy(a, xGm, 256);
    qi.EnQue(a);
    a = qi.DeQue<float>();
    LocalTensor<float> b = qo.AllocTensor<float>();
    Adds(b, a, 1.0f + GetBlockIdx(), 256);
    qo.EnQue(b);
    qi.FreeTensor(a);
    b = qo.DeQue<float>();
    DataCopy(yGm, b, 256);
    qo.FreeTensor(b);
}
"""


@pytest.mark.parametrize("auto_sync", [True, False])
def test_cross_core_gm_hazards_stay_errors_in_both_modes(auto_sync):
    x = np.arange(256, dtype=np.float32)
    r = run(build({"both_write.cpp": GM_OVERLAP}), [GM("x", x), GM("y", np.empty_like(x), "out")], block_dim=2,
            auto_sync=auto_sync)
    assert [d.kind for d in r.errors] == ["gm-overlap"]


GATHERS = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void gathers(GM_ADDR x, GM_ADDR idx, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ab, ob, db;
    pipe.InitBuffer(ab, 4 * 256 * sizeof(half));
    pipe.InitBuffer(ob, 2 * 64 * sizeof(uint32_t));
    pipe.InitBuffer(db, 4 * 256 * sizeof(half));
    GlobalTensor<half> xg, yg;
    GlobalTensor<uint32_t> ig;
    xg.SetGlobalBuffer((__gm__ half *)x, 256);
    ig.SetGlobalBuffer((__gm__ uint32_t *)idx, 128);
    yg.SetGlobalBuffer((__gm__ half *)y, 4 * 256);
    LocalTensor<half> a = ab.Get<half>(), d = db.Get<half>();
    LocalTensor<uint32_t> off = ob.Get<uint32_t>();
    DataCopy(a, xg, 256);
    Brcb(d, a, 2, {1, 8});                                           // reads a right after MTE2 wrote it
    DataCopy(a[256], xg, 256);
    Transpose(d[256], a[256]);
    DataCopy(off, ig, 64);
    Gather(d[512], a[512], off, 0, 64);                                    // offsets and src: MTE2 -> V
    DataCopy(off[64], ig[64], 64);
    Gatherb(d[768].ReinterpretCast<uint16_t>(), a[768].ReinterpretCast<uint16_t>(), off[64], 1, {1, 8});
    DataCopy(yg, d, 4 * 256);
}
'''


def test_auto_sync_inserts_the_waits_of_gather_brcb_and_transpose_in_trace_mode():
    import numpy as np
    b = build({"gathers.cpp": GATHERS})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    args = [GM("x", None, shape=(256,), dtype=np.float16), GM("idx", None, shape=(128,), dtype=np.uint32),
            GM("y", None, "out", shape=(1024,), dtype=np.float16)]
    t = trace(b, args, block_dim=1)
    recs = t.records
    for api in ("Brcb", "Transpose", "Gather", "Gatherb"):
        i = int(np.flatnonzero((recs["kind"] == Kind.INSTR) & (recs["op"] == t.op_index(api)))[0])
        before = recs[i - 1]
        assert before["kind"] == Kind.WAIT and before["event"] == AUTO_EVENT, api     # the wait the compiler inserts ...
        assert (before["src_pipe"], before["dst_pipe"]) == (Pipe.MTE2, Pipe.V), api   # ... for the copy in, just before
    assert len(waits(trace(b, args, block_dim=1, auto_sync=False))) == 0


INTEGER_EVENT = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void plus_one(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 256);
    LocalTensor<float> t = buf.Get<float>();
    const uint16_t ev = 1;           // an integer event id, as cann-ops conv3dv2 keeps its ping-pong flags
    DataCopy(t, xGm, 256);
    set_flag(PIPE_MTE2, PIPE_V, ev);
    WAIT_IN
    Adds(t, t, 1.0f, 256);
    set_flag(PIPE_V, PIPE_MTE3, ev);
    wait_flag(PIPE_V, PIPE_MTE3, ev);
    DataCopy(yGm, t, 256);
}
'''


def test_set_flag_and_wait_flag_take_an_integer_event_id(tmp_path):
    "The compiler's set_flag / wait_flag with a uint16_t event id: the pair orders the pipes (auto-sync off), NumPy."
    off = load_settings().replace(auto_sync=False)
    x = np.random.default_rng(3).standard_normal(256).astype(np.float32)
    for wait, ok in (("wait_flag(PIPE_MTE2, PIPE_V, ev);", True), ("", False)):
        path = tmp_path / f"plus_one_{ok}.cpp"
        path.write_text(INTEGER_EVENT.replace("WAIT_IN", wait))
        b = build(path, entry="plus_one")
        assert b.ok, "\n".join(d.render() for d in b.errors)
        r = run(b, [GM("x", x), GM("y", np.empty(256, np.float32), "out")], block_dim=1, settings=off)
        if ok:
            assert r.ok and not r.diagnostics, "\n".join(map(str, r.diagnostics))
            np.testing.assert_array_equal(r.outputs["y"], x + 1)
        else:   # the MTE2 -> V flag set and never waited for: the read of t races the copy
            assert "ub-race" in [d.kind for d in r.errors], r
