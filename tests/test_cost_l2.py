"""The L2 model of the cost model (21_cost) and of the eager baseline (22_eager): a re-read of data
touched recently is served from the 192 MB L2 at its higher rate, a re-read of more than the L2
holds is not, a single pass is unchanged, and the native and Python engines agree exactly."""
from pathlib import Path

import numpy as np
import pytest
import torch

from ascendcraft import cost
from ascendcraft.eager import TensorSpec, eager_time
from ascendcraft.emu import GM, Scalar, build, run, trace
from ascendcraft.soc import load_soc
from ascendcraft.trace import NO_TENSOR, Kind, Pipe, Trace

SOC = load_soc("Ascend910B2")
REREAD = Path(__file__).parent / "emu_kernels" / "good" / "reread.cpp"
BLOCKS, TILE = 32, 8192


@pytest.fixture(scope="module")
def reread():
    b = build(REREAD)
    assert b.ok, b.diagnostics
    def traced(total_bytes: int, passes: int) -> Trace:
        n = total_bytes // 4
        return trace(b, [GM("x", None, "in", shape=(n,), dtype=np.float32), GM("y", None, "out", shape=(BLOCKS * TILE,), dtype=np.float32),
                         Scalar(n // BLOCKS, "uint64_t"), Scalar(passes, "uint32_t")], block_dim=BLOCKS)
    return traced


def test_the_reread_kernel_computes_what_it_says():
    x = np.arange(2 * BLOCKS * TILE, dtype=np.float32) % 7
    r = run(build(REREAD), [GM("x", x), GM("y", np.empty(BLOCKS * TILE, np.float32), "out"), Scalar(2 * TILE, "uint64_t"),
                            Scalar(3, "uint32_t")], block_dim=BLOCKS)
    assert r.ok, r.diagnostics
    want = 3 * x.reshape(BLOCKS, 2, TILE).sum(axis=1)
    np.testing.assert_allclose(r.outputs["y"].reshape(BLOCKS, TILE), want)


# These tests are about reuse within one call: they start from a cold L2 (l2_state='cold'); the default state,
# repeated calls ('warm'), is tested in test_l2_state.py


def test_reading_16_mb_twice_is_faster_than_reading_32_mb_once(reread):
    twice, once = reread(16 << 20, 2), reread(32 << 20, 1)
    assert twice.gm_bytes() == once.gm_bytes()
    t2, t1 = cost.kernel_time(twice, SOC, l2_state="cold"), cost.kernel_time(once, SOC, l2_state="cold")
    assert t2.l2_hit_bytes >= 0.99 * (16 << 20) and t1.l2_hit_bytes == 0
    assert t2.total_us < 0.8 * t1.total_us, (t2.total_us, t1.total_us)
    assert t2.hbm_bytes == t2.gm_bytes - t2.l2_hit_bytes and "hit L2" in t2.reason
    # without the L2 both pay HBM for every byte and take the same time
    assert cost.kernel_time(twice, SOC, l2=False).total_us == pytest.approx(t1.total_us, rel=0.02)


def test_rereading_1_gb_gets_nothing_from_the_l2(reread):
    twice, once = reread(1 << 30, 2), reread(2 << 30, 1)
    t2, t1 = cost.kernel_time(twice, SOC, l2_state="cold"), cost.kernel_time(once, SOC, l2_state="cold")
    assert t2.l2_hit_bytes < 0.01 * (1 << 30)
    assert t2.total_us == pytest.approx(t1.total_us, rel=0.03)


def test_a_smaller_l2_turns_the_hits_into_misses(reread):
    twice = reread(16 << 20, 2)
    small = SOC.replace(l2_bytes=8 << 20)          # half of what the re-read needs
    assert cost.kernel_time(twice, small, l2_state="cold").l2_hit_bytes < 0.01 * (16 << 20)


def test_single_pass_elementwise_timing_is_unchanged():
    t = cost.tiled_trace(64 * 2**20, tile=16384, bufs=2, blocks=48)
    with_l2, without = cost.kernel_time(t, SOC, l2_state="cold"), cost.kernel_time(t, SOC, l2=False)
    assert with_l2.l2_hit_bytes == 0
    assert with_l2.total_us == pytest.approx(without.total_us, rel=0.01)


def test_copies_of_blocks_that_share_lines_run_in_time_order():
    "Two blocks read the same 4 MB one after the other in the trace, but at the same time on the chip: "
    "the later block's reads hit only where the earlier block has already been."
    t = cost.tiled_trace(2 * 2**20, tile=8192, bufs=2, blocks=2)
    r = t.records
    r["gm_offset"][(r["core"] == 1) & (r["tensor"] != NO_TENSOR)] -= 2**20 * 4 // 2   # block 1 reads block 0's half
    c = cost.kernel_time(t, SOC, l2_state="cold")
    ins = (r["pipe"] == Pipe.MTE2) & (r["kind"] == Kind.INSTR)
    assert 0 < c.l2_hit_bytes < r["bytes"][ins].sum() / 2 + 1


def test_native_and_python_l2_agree_on_random_accesses():
    rng = np.random.default_rng(5)
    n = 3000
    args = (rng.integers(0, 3, n).astype(np.uint16), rng.integers(0, 1 << 22, n).astype(np.uint64),
            rng.integers(1, 5, n).astype(np.uint32), rng.integers(1, 3000, n).astype(np.uint32),
            rng.integers(0, 9000, n).astype(np.uint32))
    py, nat = cost.L2Python(1 << 20, 512), cost.L2Native(1 << 20, 512)
    for part in (slice(0, 1000), slice(1000, n)):                      # state carries over between calls
        a = py.replay(*(x[part] for x in args))
        b = nat.replay(*(x[part] for x in args))
        np.testing.assert_array_equal(a, b)
        assert a.sum() > 0


def test_native_and_python_engines_give_the_same_kernel_time(reread):
    t = reread(4 << 20, 2)
    nat, py = cost.kernel_time(t, SOC, engine="native", l2_state="cold"), cost.kernel_time(t, SOC, engine="python", l2_state="cold")
    assert nat.l2_hit_bytes == py.l2_hit_bytes > 0
    assert nat.total_us == pytest.approx(py.total_us, rel=1e-9)


def test_eager_reuses_what_the_previous_op_wrote():
    chain = lambda x: torch.sigmoid(x * 2)
    mid, cold = eager_time(chain, [TensorSpec((4096, 1024))], SOC, l2_state="cold"), eager_time(chain, [TensorSpec((4096, 1024))], SOC, l2=False)
    assert [o.l2_bytes for o in mid.ops] == [0, 4096 * 1024 * 4]
    assert mid.device_us < cold.device_us
    big = eager_time(chain, [TensorSpec((65536, 4096))], SOC, l2_state="cold")      # 1 GB: nothing left in L2
    assert big.l2_bytes == 0


def test_one_residency_rule_for_kernels_and_eager():
    # both models size the L2 by the same usable share of it
    from ascendcraft.cost import make_l2, make_scheduler
    l2 = make_l2(make_scheduler("python"), SOC)
    assert l2.capacity_lines * SOC.l2_line_bytes == SOC.l2_effective_bytes < SOC.l2_bytes
    # a warm L2 (repeated calls, no flush) holds a kernel's whole footprint when it fits, nothing when it does not
    fits = cost.tiled_trace(8 << 20, tile=8192, blocks=48)            # 32 MB in, 32 MB out
    cold, warm = cost.kernel_time(fits, SOC, l2_state="cold"), cost.kernel_time(fits, SOC, l2_state="warm")
    assert cold.l2_hit_bytes == 0 and warm.l2_hit_bytes > 0.9 * warm.gm_bytes and warm.total_us < cold.total_us
    big = cost.tiled_trace(SOC.l2_effective_bytes // 4, tile=8192, blocks=48)   # in + out twice the usable L2
    assert cost.kernel_time(big, SOC, l2_state="warm").l2_hit_bytes == 0
