"The L2 a modelled call starts with: one rule (Soc.l2_start) for kernel_time and eager_time, 'warm' by default."
import pytest
import torch

from ascendcraft.config import load_settings
from ascendcraft.cost import footprint_bytes, kernel_time, tiled_trace
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.eager import TensorSpec, eager_time
from ascendcraft.soc import L2_STATES, load_soc

SOC = load_soc("Ascend910B2")


def test_the_rule_warm_holds_a_footprint_that_fits_cold_holds_nothing_flushed_leaves_dirty_lines():
    fits, over = SOC.l2_effective_bytes, SOC.l2_effective_bytes + 1
    assert SOC.l2_start("warm", fits).warm and not SOC.l2_start("warm", over).warm
    assert not SOC.l2_start("warm", 0).warm                   # nothing known about the call: nothing assumed in L2
    assert SOC.l2_start("cold", 1).warm is False and SOC.l2_start("cold", 1).dirty_bytes == 0
    flushed = SOC.l2_start("flushed", 1)
    assert not flushed.warm and flushed.dirty_bytes == SOC.l2_dirty_after_flush == SOC.l2_bytes
    assert all(SOC.l2_start(s, fits).dirty_bytes == 0 for s in ("warm", "cold"))
    with pytest.raises(AscendCraftError, match="l2_state"):
        SOC.l2_start("hot", 1)
    assert L2_STATES == ("warm", "cold", "flushed")


def _pair(elems: int):
    "A streaming kernel and the eager op that move the same bytes (one fp32 input read, one output written)."
    return tiled_trace(elems, tile=8192, blocks=48), (lambda x: x * 2.0), [TensorSpec((elems,), torch.float32)]


def test_kernel_and_eager_switch_at_the_same_footprint():
    # in + out = 8 bytes an element; one below and one above the usable L2
    below = SOC.l2_effective_bytes // 8 - 8192
    above = SOC.l2_effective_bytes // 8 + 8192
    for elems, warm in ((below, True), (above, False)):
        trace, fn, specs = _pair(elems)
        assert footprint_bytes(trace) == 8 * elems
        k, e = kernel_time(trace, SOC, l2_state="warm"), eager_time(fn, specs, SOC, l2_state="warm")
        kc, ec = kernel_time(trace, SOC, l2_state="cold"), eager_time(fn, specs, SOC, l2_state="cold")
        if warm:   # every byte from L2 on both sides, and both faster than cold
            assert k.hbm_bytes == 0 and e.l2_bytes == e.bytes
            assert k.total_us < kc.total_us and e.device_us < ec.device_us
        else:      # nothing stays on either side: warm is cold
            assert k.l2_hit_bytes == kc.l2_hit_bytes and e.l2_bytes == ec.l2_bytes == 0
            assert k.total_us == pytest.approx(kc.total_us) and e.device_us == pytest.approx(ec.device_us)


def test_the_default_is_the_setting_and_warm_unless_changed():
    trace, fn, specs = _pair(1 << 20)
    assert load_settings().__class__().l2_state == "warm"     # the shipped default
    default, warm = kernel_time(trace, SOC), kernel_time(trace, SOC, l2_state="warm")
    assert default.l2_state == "warm" and default.total_us == warm.total_us
    assert eager_time(fn, specs, SOC).l2_state == "warm"
    cold_settings = load_settings().replace(l2_state="cold")
    k = kernel_time(trace, SOC, settings=cold_settings)
    e = eager_time(fn, specs, SOC, settings=cold_settings)
    assert (k.l2_state, e.l2_state) == ("cold", "cold")
    assert k.total_us == kernel_time(trace, SOC, l2_state="cold").total_us > warm.total_us
    assert e.device_us == eager_time(fn, specs, SOC, l2_state="cold").device_us
    with pytest.raises(ValueError, match="l2_state"):
        load_settings().replace(l2_state="hot")


def test_a_warm_call_names_the_l2_side_of_its_bound():
    "A warm footprint that fits is bound by L2's bandwidth: the verdict says so, not 'N GB over HBM'."
    trace, _, _ = _pair(4 * 2**20)                                # 32 MB in + out: fits L2
    warm, cold = kernel_time(trace, SOC, l2_state="warm"), kernel_time(trace, SOC, l2_state="cold")
    assert warm.l2_hit_bytes == warm.gm_bytes and "through L2" in warm.reason and "GB of it hit L2" in warm.reason
    assert f"{warm.bound_us:,.1f} µs" in warm.reason
    assert cold.l2_hit_bytes == 0 and "over HBM" in cold.reason and "through L2" not in cold.reason
