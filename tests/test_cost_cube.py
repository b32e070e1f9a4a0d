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


def _gemm_tiling(m, n, k, grid_m, grid_n, base_m, base_n, step, step_k=1, depth=None):
    sm, sn = (-(-m // grid_m) + 15) // 16 * 16, (-(-n // grid_n) + 15) // 16 * 16
    depth = depth or 2 * step * step_k
    return tcube_tiling(usedCoreNum=grid_m * grid_n, M=m, N=n, Ka=k, Kb=k, singleCoreM=sm, singleCoreN=sn, singleCoreK=k,
                        baseM=base_m, baseN=base_n, baseK=64, depthA1=depth, depthB1=depth, stepM=step, stepN=step,
                        stepKa=step_k, stepKb=step_k, isBias=1, iterateOrder=0, dbL0A=2, dbL0B=2, dbL0C=1) + np.int32(0).tobytes()


def _gemm_args(m, n, k, tiling):
    return [GM("a", None, "in", (m, k), np.float16), GM("b", None, "in", (k, n), np.float16),
            GM("bias", None, "in", (n,), np.float32), GM("c", None, "out", (m, n), np.float32),
            GM("workspace", None, "workspace", (16,), np.uint8), Tiling(tiling)]


def _gemm_trace(m, n, k, grid_m, grid_n, base_m, base_n, step, step_k=1):
    tiling = _gemm_tiling(m, n, k, grid_m, grid_n, base_m, base_n, step, step_k)
    b = build(KERNEL, entry="matmul_bias_f16")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return trace(b, _gemm_args(m, n, k, tiling), block_dim=grid_m * grid_n)


def _mte2_bytes(t):
    from ascendcraft.trace import Pipe
    return int(t.records["bytes"][(t.records["pipe"] == Pipe.MTE2) & (t.records["kind"] == 0)].sum())


def test_l1_reuse_across_blocks_needs_the_whole_k_panel_in_l1():
    # one core, 4 x 4 base blocks of 64 x 64: with stepM = stepN = 2 a block of A serves two block columns and a block
    # of B two block rows -- but only when the operand's whole K panel sits in L1 (stepKa x baseK >= K)
    m = n = 256
    small_k, large_k = 256, 1024
    plain = _mte2_bytes(_gemm_trace(m, n, small_k, 1, 1, 64, 64, 1, step_k=4))
    reused = _mte2_bytes(_gemm_trace(m, n, small_k, 1, 1, 64, 64, 2, step_k=4))        # 4 x 64 = 256 = K: the panel fits
    assert plain == 16 * (64 + 64) * small_k * 2                  # every block loads its A rows and B columns
    assert reused == plain // 2                                   # half the loads: each block serves two
    streamed = _mte2_bytes(_gemm_trace(m, n, large_k, 1, 1, 64, 64, 2, step_k=4))      # 256 < K = 1024: streams
    assert streamed == 16 * (64 + 64) * large_k * 2


def test_a_tiling_that_overflows_l1_is_an_error_at_the_matmul_call():
    from ascendcraft.emu import run
    m = n = k = 256
    b = build(KERNEL, entry="matmul_bias_f16")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(0)
    data = [rng.standard_normal(s).astype(np.float16) for s in ((m, k), (k, n))]
    tiling = _gemm_tiling(m, n, k, 1, 1, 128, 256, 1, depth=16)   # 16 x (128 + 256) x 64 halves + bias = 787,456 B > 512 KB
    args = [GM("a", data[0]), GM("b", data[1]), GM("bias", np.zeros(n, np.float32)), GM("c", np.zeros((m, n), np.float32), "out"),
            GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)]
    r = run(b, args, block_dim=1)
    errs = [d for d in r.diagnostics if d.is_error]
    assert not r.ok and errs and errs[0].kind == "l1-overflow", r.diagnostics
    line = next(i for i, s in enumerate(KERNEL.read_text().splitlines(), 1) if "mm.IterateAll(cGm[offsetC]);" in s)
    assert errs[0].line == line and "787456 bytes" in errs[0].message and "depthA1" in errs[0].hint
    ok = run(b, args[:-1] + [Tiling(_gemm_tiling(m, n, k, 1, 1, 128, 256, 1, depth=4))], block_dim=1)
    assert ok.ok, ok.diagnostics


def test_square_fp16_gemm_4096_is_within_15_percent_of_the_cube_roofline_and_compute_bound():
    soc = load_soc("Ascend910B2")
    # 4 x 6 cores, 128 x 256 base blocks, K streamed through L1 four base blocks at a time: a K panel of 4096 does not
    # fit L1, so no block is reused across blocks and every byte comes from L2 -- the cube and MTE2 are nearly balanced
    t = _gemm_trace(4096, 4096, 4096, 4, 6, 128, 256, 1, step_k=4)
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


# ---- mixed AIC/AIV kernels: the cube and the vector epilogue overlap -----------------------------------------------
MIXED = Path(__file__).parent / "emu_kernels" / "good" / "cross_mixed.cpp"


def _mixed_trace(tiles, groups=24, n=64, k=512):
    from ascendcraft.emu import Scalar
    b = build(MIXED, entry="matmul_relu")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    m = groups * tiles * 16
    args = [GM("a", None, "in", (m, k), np.float16), GM("bt", None, "in", (n, k), np.float16),
            GM("y", None, "out", (m, n), np.float32), GM("ws", None, "workspace", (groups * 2 * 16 * n,), np.float32),
            Scalar(n, "uint32_t"), Scalar(k, "uint32_t"), Scalar(tiles, "uint32_t")]
    return trace(b, args, block_dim=groups)


def test_mixed_kernel_overlaps_the_cube_with_the_vector_epilogue():
    from ascendcraft.cost_cube import mixed_cost
    soc = load_soc("Ascend910B2")
    one, many = mixed_cost(_mixed_trace(1), soc), mixed_cost(_mixed_trace(16), soc)
    assert one.handovers == 1 and one.overlap_us == pytest.approx(0.0, abs=1e-9)     # one hand-over: A + V
    assert many.handovers == 16 and many.cube.aic_used == soc.cube_cores
    a, v = many.cube_us, many.vector_us
    assert a > 0 and v > 0
    # a two-stage pipeline of 16 steps: max(A, V) + min(A, V) / 16, plus the launch counted once
    assert many.time_us == pytest.approx(soc.launch_us + soc.block_head_us + max(a, v) + min(a, v) / 16, rel=1e-9)
    assert many.time_us < soc.launch_us + soc.block_head_us + a + v
    assert f"over 16 hand-over(s) per group" in many.verdict and many.bound in ("cube", "vector")
    assert many.verdict.startswith(f"{many.bound}-side-bound by")


def test_timeline_of_a_mixed_kernel_has_cube_mte1_and_fix_lanes():
    from ascendcraft.cost import kernel_time
    from ascendcraft.timeline import timeline_svg
    soc = load_soc("Ascend910B2")
    t = _mixed_trace(2, groups=2)
    kc = kernel_time(t, soc)                  # the AIC is block 0, its AIVs blocks 1 and 2
    svg = timeline_svg(kc, blocks=3)
    for label in ("M (cube)", "MTE1 (L1→L0)", "FIX (L0C→GM)", "V (vector)"):
        assert label in svg
    assert ">MTE1<" in svg and ">FIX<" in svg


# ---- kernel_time (what bench uses) charges Fixpipe's GM writes like MTE3's --------------------------------------
@pytest.mark.parametrize("engine", ["python", "native"])
def test_kernel_time_charges_fixpipe_gm_writes_against_hbm(engine):
    # small K, large C: the output writes are the kernel's cost (the tall_skinny / small_k shape); fp32 C of 4096 x 4096
    from ascendcraft.cost import kernel_time
    from ascendcraft.trace import Pipe
    soc = load_soc("Ascend910B2")
    m = n = 4096
    t = _gemm_trace(m, n, 32, 6, 4, 128, 256, 1)
    fix = t.records[(t.records["pipe"] == Pipe.FIX) & (t.records["kind"] == 0)]
    assert fix["bytes"].sum() == m * n * 4                              # C, once
    kc = kernel_time(t, soc, engine=engine, l2_state="cold")   # first call: C goes to HBM (warm: it stays in L2)
    reads = int(t.records["bytes"][(t.records["pipe"] == Pipe.MTE2) & (t.records["kind"] == 0)].sum())
    assert kc.gm_bytes == reads + m * n * 4                             # the writes are GM traffic too
    assert kc.total_us >= m * n * 4 / soc.hbm_bytes_per_s * 1e6         # ... and at least HBM's time for them


# ---- kernel_time on mixed launches: AIVs on cores of their own, SyncAll among the AIVs -----------------------------
def _mixed_rows(groups, syncall=True):
    from ascendcraft.trace import Kind, Pipe, make_records
    rows = []
    for g in range(groups):
        for sub in (1, 2):                               # core 3g is the group's AIC: a Matmul server with no records
            b = 3 * g + sub
            rows += [dict(core=b, pipe=Pipe.V, kind=Kind.INSTR, op=0, repeats=20000)]
            if syncall: rows.append(dict(core=b, pipe=Pipe.ALL, kind=Kind.SYNC_ALL, op=1))
            rows.append(dict(core=b, pipe=Pipe.V, kind=Kind.INSTR, op=0, repeats=1000))
    rows.sort(key=lambda r: r["core"])
    cols = {k: [r.get(k, 0) for r in rows] for k in set().union(*rows)}
    return make_records(**cols)


def test_kernel_time_puts_each_aiv_of_a_mixed_launch_on_its_own_core():
    from ascendcraft.cost import block_cores, kernel_time
    from ascendcraft.trace import Trace
    soc = load_soc("Ascend910B2")
    meta = {"cores": {"aic_per_group": 1, "aiv_per_group": 2, "groups": 24}}
    t = Trace(_mixed_rows(24), ["Add", "SyncAll"], 72, meta)
    cores = block_cores(t, soc.vector_cores)
    aivs = [b for b in range(72) if b % 3]
    assert sorted(cores[aivs]) == list(range(48))                  # 48 AIVs on 48 vector cores, none shared
    assert all(cores[3 * g] == cores[3 * g + 1] for g in range(24))  # the AIC's work lands on its group's first AIV
    # SyncAll is among the AIVs: the AICs that reach none are no mismatch, and 48 AIVs fit the 48 vector cores
    c = kernel_time(t, soc)
    assert len(c.phases) == 2
    one = soc.us(soc.scalar_issue_cycles + soc.vector_startup_cycles + 20000)
    # one AIV's work per core, not two (the AIC's start-up shares its group's first core)
    assert one + soc.block_head_us <= c.phases[0].time_us <= one + 2 * soc.block_head_us + 1e-9
    # without the layout, blocks 48..71 wrap onto the cores of blocks 0..23: some cores run two AIVs' work
    laid = kernel_time(Trace(_mixed_rows(24, syncall=False), ["Add", "SyncAll"], 72, meta), soc)
    plain = kernel_time(Trace(_mixed_rows(24, syncall=False), ["Add", "SyncAll"], 72, {}), soc)
    assert plain.total_us - laid.total_us > 0.9 * soc.us(20000 + 1000)


def test_aivs_that_reach_different_syncall_counts_are_still_an_error():
    from ascendcraft.cost import kernel_time
    from ascendcraft.diagnostics import AscendCraftError
    from ascendcraft.trace import Trace
    rows = _mixed_rows(2)
    rows = rows[~((rows["core"] == 5) & (rows["kind"] == 4))]       # one AIV skips its SyncAll
    with pytest.raises(AscendCraftError, match="different numbers of SyncAll"):
        kernel_time(Trace(rows, ["Add", "SyncAll"], 6, {"cores": {"aic_per_group": 1, "aiv_per_group": 2, "groups": 2}}),
                    load_soc("Ascend910B2"))


# ---- waves by kernel type: 24 AIC + 48 AIV on the 910B2 ---------------------------------------------------------------
def test_a_mixed_launch_runs_in_waves_of_24_groups():
    # MIX_AIC_1_2 with blockDim n: n AIC + 2n AIV, min(n, 24) groups at a time, ceil(n / 24) waves; same work per group
    from ascendcraft.cost import kernel_time, launch_waves
    from ascendcraft.cost_cube import mixed_cost
    soc = load_soc("Ascend910B2")
    traces = {g: _mixed_trace(2, groups=g) for g in (24, 25, 48)}
    assert [launch_waves(t, soc)[:2] for t in traces.values()] == [(72, 1), (72, 2), (72, 2)]
    assert "24 AIC + 48 AIV at a time" in launch_waves(traces[48], soc)[2]
    mc = {g: mixed_cost(t, soc) for g, t in traces.items()}
    assert [mc[g].waves for g in mc] == [1, 2, 2] and [mc[g].cube.waves for g in mc] == [1, 2, 2]
    head = soc.launch_us + soc.block_head_us
    one = mc[24].time_us - head                                   # one wave's work, start-up excluded
    assert one > 0
    # the 25th group waits for an AI core: nearly a second wave (one group's work + its start-up), as many as 48 groups
    assert mc[25].time_us == pytest.approx(mc[48].time_us, rel=0.03)
    assert mc[25].time_us >= mc[24].time_us + 0.9 * (one + soc.block_head_us)
    assert mc[25].vector_us == pytest.approx(2 * mc[24].vector_us, rel=0.05)   # each wave's start-up is not vector work
    kt = {g: kernel_time(t, soc) for g, t in traces.items()}          # the line model bench uses
    assert [(kt[g].waves, kt[g].cores_used) for g in kt] == [(1, 72), (2, 72), (2, 72)]
    assert kt[25].total_us == pytest.approx(kt[48].total_us, rel=0.03) and kt[25].total_us > 1.3 * kt[24].total_us
    from ascendcraft.cost import summary_table
    assert "| 144 / 72 / 2 (48 groups of 1 AIC + 2 AIV: 24 AIC + 48 AIV at a time) |" in summary_table(kt[48])


def _one_type_trace(blocks, kind):
    "`blocks` blocks of the same work, all on the cube (AIC_ONLY) or all on the vector unit (AIV_ONLY)."
    from ascendcraft.trace import Kind, Pipe, Trace, make_records
    pipe, op = (Pipe.M, 0) if kind == "aic" else (Pipe.V, 1)
    rows = [dict(core=b, pipe=pipe, kind=Kind.INSTR, op=op, repeats=20000, elems=16 ** 3) for b in range(blocks)]
    cols = {k: [r.get(k, 0) for r in rows] for k in set().union(*rows)}
    layout = {"aic_per_group": 1, "aiv_per_group": 0} if kind == "aic" else {"aic_per_group": 0, "aiv_per_group": 1}
    return Trace(make_records(**cols), ["Mmad", "Add"], blocks, {"cores": {**layout, "groups": blocks}})


@pytest.mark.parametrize("kind, cores", [("aic", 24), ("aiv", 48)])
def test_pure_cube_launches_wave_on_the_24_aics_and_pure_vector_ones_on_the_48_aivs(kind, cores):
    from ascendcraft.cost import block_cores, kernel_time, launch_waves
    soc = load_soc("Ascend910B2")
    assert (soc.cube_cores, soc.vector_cores) == (24, 48)
    full, more, double = (_one_type_trace(n, kind) for n in (cores, cores + 1, 2 * cores))
    assert [launch_waves(t, soc)[:2] for t in (full, more, double)] == [(cores, 1), (cores, 2), (cores, 2)]
    assert list(block_cores(double, soc.vector_cores, soc.cube_cores)) == [b % cores for b in range(2 * cores)]
    kt = [kernel_time(t, soc) for t in (full, more, double)]
    assert [k.waves for k in kt] == [1, 2, 2] and {k.cores_used for k in kt} == {cores}
    work = kt[0].total_us - soc.launch_us                  # one block's work and start-up per core
    assert kt[1].total_us == pytest.approx(kt[2].total_us, rel=1e-6)
    assert kt[2].total_us - soc.launch_us == pytest.approx(2 * work, rel=0.02)
    if kind == "aic":                                     # the cube model deals the blocks to the AICs the same way
        from ascendcraft.cost_cube import cube_cost
        cc = [cube_cost(t, soc) for t in (full, more, double)]
        assert [c.waves for c in cc] == [1, 2, 2] and cc[0].aic_used == cc[2].aic_used == 24
        assert cc[2].pipe_us["M"] == pytest.approx(2 * cc[0].pipe_us["M"]) == pytest.approx(cc[1].pipe_us["M"])
