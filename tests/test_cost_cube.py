"""The cube cost model (ascendcraft.cost_cube) on a real trace: a Matmul-API GEMM of 4096^3 in half, traced on the
emulator (no data is touched in trace mode), is modelled within 15% of the cube roofline at the documented clock, and
its verdict says compute-bound; with a tiling that reuses nothing and a thin base block it turns bandwidth-bound. Eager
matmul is the aclnn kernel at its roofline plus the launch, as ascendcraft.eager models it."""
from pathlib import Path

import numpy as np
import pytest
import torch

from ascendcraft.cost_cube import cube_cost, cube_roofline_us, eager_matmul_us
from ascendcraft.eager import eager_time
from ascendcraft.emu import GM, Tiling, build, trace
from ascendcraft.soc import load_soc

from test_emu_cube import tcube_tiling

KERNEL = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_bias.cpp"


def _gemm_trace(m, n, k, grid_m, grid_n, base_m, base_n, step):
    sm, sn = (-(-m // grid_m) + 15) // 16 * 16, (-(-n // grid_n) + 15) // 16 * 16
    tiling = tcube_tiling(usedCoreNum=grid_m * grid_n, M=m, N=n, Ka=k, Kb=k, singleCoreM=sm, singleCoreN=sn, singleCoreK=k,
                          baseM=base_m, baseN=base_n, baseK=64, depthA1=2 * step, depthB1=2 * step, stepM=step, stepN=step,
                          isBias=1, iterateOrder=0, dbL0A=2, dbL0B=2, dbL0C=1) + np.int32(0).tobytes()
    b = build(KERNEL, entry="matmul_bias_f16")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    args = [GM("a", None, "in", (m, k), np.float16), GM("b", None, "in", (k, n), np.float16),
            GM("bias", None, "in", (n,), np.float32), GM("c", None, "out", (m, n), np.float32),
            GM("workspace", None, "workspace", (16,), np.uint8), Tiling(tiling)]
    return trace(b, args, block_dim=grid_m * grid_n)


def test_square_fp16_gemm_4096_is_within_15_percent_of_the_cube_roofline_and_compute_bound():
    soc = load_soc("Ascend910B2")
    t = _gemm_trace(4096, 4096, 4096, 6, 4, 128, 256, 2)
    cc = cube_cost(t, soc)
    roof = cube_roofline_us(4096, 4096, 4096, soc, out_bytes=4)
    assert cc.flops == 2 * 4096 ** 3 and cc.aic_used == soc.cube_cores
    assert roof <= cc.time_us <= 1.15 * roof, (cc.time_us, roof)
    assert cc.bound == "compute" and cc.verdict.startswith("compute-bound by")
    peak = 2 * 16 ** 3 * soc.cube_cores * soc.clock_hz                 # one fractal product per cycle per AIC
    assert abs(cc.roofline_us - 2 * 4096 ** 3 / peak * 1e6) < 1e-6


def test_thin_blocks_without_l1_reuse_are_bandwidth_bound():
    soc = load_soc("Ascend910B2")
    t = _gemm_trace(2048, 2048, 2048, 6, 4, 16, 16, 1)      # 16 x 16 base blocks: every product needs its own loads
    cc = cube_cost(t, soc)
    assert cc.bound == "bandwidth" and cc.ratio > 2 and "bandwidth-bound by" in cc.verdict


def test_eager_matmul_is_the_aclnn_kernel_at_its_roofline_plus_launch():
    soc = load_soc("Ascend910B2")
    spec = lambda *s: torch.empty(*s, dtype=torch.float16, device="meta")
    e = eager_time(lambda a, b: a @ b, [spec(4096, 4096), spec(4096, 4096)], soc)
    assert len(e.ops) == 1
    assert e.ops[0].device_us == pytest.approx(eager_matmul_us(4096, 4096, 4096, soc), rel=1e-6)
