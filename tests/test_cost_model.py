"""Behaviour of the trace-driven kernel cost model on synthetic traces that follow the 09_trace protocol."""
import time

import pytest

from ascendcraft.cost import kernel_time, record_costs, summary_table, tiled_trace
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.soc import load_soc
from ascendcraft.timeline import timeline_svg
from ascendcraft.trace import Kind, Pipe, Trace, make_records

SOC = load_soc("Ascend910B2")


@pytest.fixture(autouse=True)
def cold_l2(monkeypatch):
    "These tests check one call's HBM and pipe times from a cold L2; the default warm start is in test_l2_state.py."
    monkeypatch.setenv("ASCENDCRAFT_L2_STATE", "cold")


def device_work(cost) -> float:
    "Modelled time minus launch and start-up: the part that scales with the work."
    return cost.total_us - cost.overhead_us


def test_double_buffering_hides_compute_of_a_memory_bound_kernel():
    single = kernel_time(tiled_trace(4 * 2**20, tile=8192, bufs=1, blocks=1), SOC)
    double = kernel_time(tiled_trace(4 * 2**20, tile=8192, bufs=2, blocks=1), SOC)
    assert single.verdict == double.verdict == "memory-bound"
    assert single.pipe_busy_us == pytest.approx(double.pipe_busy_us, rel=1e-3)   # same work on every pipe
    # one buffer serialises each tile's vector work with its copy-in; two buffers overlap them
    assert single.total_us - double.total_us > 0.5 * single.pipe_busy_us["V"]


def test_double_buffering_matters_more_when_compute_is_heavier():
    ops = ("Exp", "Mul", "Add")
    single = kernel_time(tiled_trace(4 * 2**20, tile=8192, bufs=1, blocks=1, ops=ops), SOC)
    double = kernel_time(tiled_trace(4 * 2**20, tile=8192, bufs=2, blocks=1, ops=ops), SOC)
    assert double.total_us < single.total_us - 0.5 * single.pipe_busy_us["V"]


@pytest.mark.parametrize("blocks", [1, 48])
def test_twice_the_bytes_cost_twice_the_time(blocks):
    one = kernel_time(tiled_trace(blocks * 2**20, tile=8192, blocks=blocks), SOC)
    two = kernel_time(tiled_trace(2 * blocks * 2**20, tile=8192, blocks=blocks), SOC)
    assert two.gm_bytes == 2 * one.gm_bytes
    assert 1.9 < device_work(two) / device_work(one) < 2.1


def test_more_cores_never_cost_more_and_approach_the_bandwidth_bound():
    n = 64 * 2**20                                   # 256 MiB in, 256 MiB out
    times = []
    for blocks in (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 40, 48):
        c = kernel_time(tiled_trace(n, tile=16384, blocks=blocks), SOC, timeline_blocks=0)
        times.append(c.total_us)
        assert c.total_us >= c.launch_us + c.bound_us
    assert all(b <= a for a, b in zip(times, times[1:])), times
    one, full = times[0], c
    # one core is bound by its own MTE rate: it moves its bytes at no more than its peak rate
    assert one > 10 * full.bound_us
    assert full.total_us <= 1.02 * (full.bound_us + full.overhead_us)
    assert full.phases[0].mte_scale < 0.5           # 48 cores had to share HBM


def test_one_core_runs_at_its_mte_rate():
    c = kernel_time(tiled_trace(8 * 2**20, tile=16384, blocks=1), SOC)
    rate = c.pipe_bytes["MTE2"] / (device_work(c) * 1e-6)
    peak = SOC.mte2_bytes_per_cycle * SOC.clock_hz
    assert 0.85 * peak < rate <= peak
    assert c.phases[0].mte_scale == 1.0


def test_blocks_beyond_the_core_count_run_in_waves():
    # vector-bound: HBM sharing does not blur the waves (6 pairs: at the fitted 1.35 TB/s stream rate, 4 pairs of
    # special functions take about as long as the bytes, so they no longer make the kernel clearly vector-bound)
    ops = ("Exp", "Ln") * 6
    per_block = 2**18
    w1 = kernel_time(tiled_trace(48 * per_block, tile=8192, blocks=48, ops=ops), SOC)
    w2 = kernel_time(tiled_trace(96 * per_block, tile=8192, blocks=96, ops=ops), SOC)
    w49 = kernel_time(tiled_trace(49 * per_block, tile=8192, blocks=49, ops=ops), SOC)
    assert (w1.waves, w2.waves, w49.waves) == (1, 2, 2)
    assert w1.verdict == "vector-bound"
    assert 1.95 < device_work(w2) / device_work(w1) < 2.05
    # one extra block makes core 0 run two blocks back to back: nearly the time of two full waves
    assert 1.9 < device_work(w49) / device_work(w1) < 2.05
    assert w49.slowest_core == 0


def test_transcendental_tiles_become_vector_bound():
    plain = kernel_time(tiled_trace(16 * 2**20, tile=8192, blocks=48), SOC)
    heavy = kernel_time(tiled_trace(16 * 2**20, tile=8192, blocks=48, ops=("Exp", "Ln", "Tanh", "Sigmoid", "Erf")), SOC)
    assert plain.verdict == "memory-bound" and heavy.verdict == "vector-bound"
    assert heavy.pipe_busy_pct["V"] > 80
    assert "V busy" in heavy.reason


def test_tiny_launches_are_overhead_bound():
    tiny = kernel_time(tiled_trace(1024, tile=1024, blocks=1), SOC)
    assert tiny.verdict == "overhead-bound"
    assert tiny.total_us < 2 * (SOC.launch_us + SOC.block_head_us)
    # a call from torch: the timed call's own host cost plus the op's dispatch, then the device time
    assert tiny.call_us == pytest.approx(tiny.total_us + SOC.call_host_us + SOC.op_host_us + SOC.op_dispatch_us)


def test_small_copies_and_misaligned_gm_are_slower():
    big = kernel_time(tiled_trace(2**20, tile=16384, blocks=1), SOC)
    small = kernel_time(tiled_trace(2**20, tile=256, blocks=1), SOC)    # 1 KB copies
    assert small.total_us > 2 * big.total_us
    shifted = kernel_time(tiled_trace(2**20, tile=16384, blocks=1, gm_offset=64), SOC)   # 32 B- but not 512 B-aligned
    odd = kernel_time(tiled_trace(2**20, tile=16384, blocks=1, gm_offset=4), SOC)        # not even 32 B-aligned
    assert big.total_us < shifted.total_us < odd.total_us
    assert device_work(shifted) / device_work(big) == pytest.approx(1 / SOC.gm_aligned32_efficiency, rel=0.05)


def _flag(core, pipe, kind, src, dst, event, op=0):
    return dict(core=core, pipe=pipe, kind=kind, src_pipe=src, dst_pipe=dst, event=event, op=op)


def _records(rows):
    cols = {k: [r.get(k, 0) for r in rows] for k in set().union(*rows)}
    return make_records(**cols)


def test_syncall_phases_end_with_the_slowest_core():
    rows = []
    for b, reps in ((0, 20000), (1, 1000)):          # block 0 has 20x the vector work before the barrier
        rows += [dict(core=b, pipe=Pipe.V, kind=Kind.INSTR, op=0, repeats=reps),
                 dict(core=b, pipe=Pipe.ALL, kind=Kind.SYNC_ALL, op=1),
                 dict(core=b, pipe=Pipe.V, kind=Kind.INSTR, op=0, repeats=1000)]
    c = kernel_time(Trace(_records(rows), ["Add", "SyncAll"], 2), SOC)
    assert len(c.phases) == 2
    slow = SOC.us(SOC.scalar_issue_cycles + SOC.vector_startup_cycles + 20000)
    assert c.phases[0].time_us == pytest.approx(slow + SOC.block_head_us, rel=1e-6)
    assert c.phases[1].time_us == pytest.approx(c.phases[1].core_us[1], rel=1e-9)
    assert c.total_us == pytest.approx(SOC.launch_us + sum(p.time_us for p in c.phases) + SOC.sync_all_us)


def test_user_flags_order_pipes_and_scalar_waits_block_issue():
    rows = [dict(core=0, pipe=Pipe.V, kind=Kind.INSTR, op=0, repeats=5000),
            _flag(0, Pipe.V, Kind.SET, Pipe.V, Pipe.MTE3, 0, op=1),
            _flag(0, Pipe.MTE3, Kind.WAIT, Pipe.V, Pipe.MTE3, 0, op=2),
            dict(core=0, pipe=Pipe.MTE3, kind=Kind.INSTR, op=3, bytes=4096, bursts=1),
            dict(core=0, pipe=Pipe.MTE2, kind=Kind.INSTR, op=3, bytes=4096, bursts=1)]
    c = kernel_time(Trace(_records(rows), ["Add", "SetFlag", "WaitFlag", "DataCopy"], 1), SOC)
    t = c.timeline
    assert t["start_us"][3] >= t["end_us"][0]                     # copy-out after the vector op it waited for
    assert t["start_us"][4] < t["end_us"][0]                      # MTE2 did not wait: runs alongside V


def test_wait_issued_before_its_set_is_not_a_deadlock():
    # MTE3 waits for a flag that V sets later in program order: legal, MTE3 simply stalls
    rows = [_flag(0, Pipe.MTE3, Kind.WAIT, Pipe.V, Pipe.MTE3, 1),
            dict(core=0, pipe=Pipe.MTE3, kind=Kind.INSTR, op=0, bytes=4096, bursts=1),
            dict(core=0, pipe=Pipe.V, kind=Kind.INSTR, op=1, repeats=3000),
            _flag(0, Pipe.V, Kind.SET, Pipe.V, Pipe.MTE3, 1)]
    c = kernel_time(Trace(_records(rows), ["DataCopy", "Add"], 1), SOC)
    assert c.timeline["start_us"][1] >= c.timeline["end_us"][2]


def test_broken_synchronisation_is_diagnosed():
    names = ["Add", "GetValue"]
    deadlock = [_flag(0, Pipe.S, Kind.WAIT, Pipe.V, Pipe.S, 0), _flag(0, Pipe.V, Kind.SET, Pipe.V, Pipe.S, 0)]
    with pytest.raises(AscendCraftError) as e:
        kernel_time(Trace(_records(deadlock), names, 1), SOC)
    assert e.value.kinds == ["trace-deadlock"]
    unmatched = [_flag(0, Pipe.V, Kind.WAIT, Pipe.MTE2, Pipe.V, 3), dict(core=0, pipe=Pipe.V, kind=Kind.INSTR, line=42)]
    with pytest.raises(AscendCraftError) as e:
        kernel_time(Trace(_records(unmatched), names, 1), SOC)
    assert e.value.kinds == ["trace-unmatched-wait"]
    circular = [_flag(0, Pipe.V, Kind.WAIT, Pipe.MTE2, Pipe.V, 0), _flag(0, Pipe.MTE2, Kind.WAIT, Pipe.V, Pipe.MTE2, 1),
                _flag(0, Pipe.V, Kind.SET, Pipe.V, Pipe.MTE2, 1), _flag(0, Pipe.MTE2, Kind.SET, Pipe.MTE2, Pipe.V, 0)]
    with pytest.raises(AscendCraftError) as e:
        kernel_time(Trace(_records(circular), names, 1), SOC)
    assert e.value.kinds == ["trace-deadlock"] and "circular" in str(e.value)
    wrong_pipe = [_flag(0, Pipe.V, Kind.SET, Pipe.MTE2, Pipe.V, 0)]
    with pytest.raises(AscendCraftError) as e:
        kernel_time(Trace(_records(wrong_pipe), names, 1), SOC)
    assert e.value.kinds == ["trace-flag-pipe"]
    sync = [dict(core=b, pipe=Pipe.ALL, kind=Kind.SYNC_ALL) for b in range(49)]
    with pytest.raises(AscendCraftError) as e:
        kernel_time(Trace(_records(sync), names, 49), SOC)
    assert e.value.kinds == ["cost-syncall-waves"]
    uneven = [dict(core=0, pipe=Pipe.ALL, kind=Kind.SYNC_ALL), dict(core=1, pipe=Pipe.V, kind=Kind.INSTR)]
    with pytest.raises(AscendCraftError) as e:
        kernel_time(Trace(_records(uneven), names, 2), SOC)
    assert e.value.kinds == ["trace-syncall-mismatch"]


def test_unknown_vector_ops_are_costed_and_reported():
    c = kernel_time(tiled_trace(65536, tile=8192, blocks=1, ops=("FancyNewOp",)), SOC)
    assert any("FancyNewOp" in n for n in c.notes)
    costs = record_costs(tiled_trace(8192, tile=8192, blocks=1, ops=("FancyNewOp",)), SOC)
    assert costs.unknown_ops == ["FancyNewOp"]


def test_reports_and_picture():
    c = kernel_time(tiled_trace(16 * 2**20, tile=8192, blocks=48), SOC)
    assert c.label == "modelled on Ascend910B2"
    md = summary_table(c)
    for text in ("MTE2", "MTE3", "bandwidth bound", "memory-bound", "modelled on Ascend910B2", f"{c.gm_bytes:,}"):
        assert text in md
    svg = timeline_svg(c, blocks=4)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "modelled on Ascend910B2" in svg and "memory-bound" in svg
    for lane in ("MTE2", "V", "MTE3", "S"):
        assert f">{lane}</text>" in svg
    assert 'width="900"' in svg and len(svg) < 200_000


def test_full_shape_trace_costs_in_seconds():
    trace = tiled_trace(4096 * 393216, tile=8192, blocks=48)        # MultiKernelBench relu, float32
    assert len(trace) > 1_000_000
    start = time.perf_counter()
    c = kernel_time(trace, SOC)
    elapsed = time.perf_counter() - start
    assert elapsed < 20, elapsed
    assert c.verdict == "memory-bound"
    assert c.bound_us < c.total_us < 1.01 * c.bound_us + c.overhead_us
