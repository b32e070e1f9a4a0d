"""The cost model on traces of real lowered kernels (not hand-made traces): what a kernel author
changes — double buffering, prefetching ahead of scalar reads — must show in the modelled time."""
import pytest

from ascendcraft.check import TensorSpec
from ascendcraft.cost import kernel_time
from ascendcraft.dsl import DTYPES
from ascendcraft.launch import trace_kernel
from ascendcraft.pipeline import Pipeline
from ascendcraft.soc import load_soc

SHAPE = {"x": TensorSpec((4, 262144), DTYPES["f32"])}   # 4 cores, a row each, 64 tiles of 4096: per-core rates, not HBM, bind

SCALE_BY_MAX = '''
@host
def scale_by_max(x: gm[f32, R, C], y: out[f32, x]):
    assert C % 4096 == 0
    launch(k, R, x, y, R, C, C // 4096)

@kernel
def k(x: gm[f32, R, C], y: gm[f32, R, C], R: int, C: int, tiles: int):
    xin = ub_in(f32, 4096, bufs=BUFS)
    yout = ub_out(f32, 4096, bufs=BUFS)
    work = ub_buf(f32, 4096)
    red = ub_buf(f32, 64)
    r = block_idx()
BODY
'''

PLAIN = '''    for t in range(tiles):
        with copyin():
            load(xin, x[r, t * 4096 : (t + 1) * 4096])
        with compute():
            reduce_max(red, xin, work, 4096)
            muls(yout, xin, 1.0 / (get(red, 0) + 1.0), 4096)
        with copyout():
            store(y[r, t * 4096 : (t + 1) * 4096], yout)
'''

NO_SCALARS = PLAIN.replace("            reduce_max(red, xin, work, 4096)\n", "").replace(
    "1.0 / (get(red, 0) + 1.0)", "0.5")

PREFETCH = '''    with copyin():
        load(xin, x[r, 0 : 4096])
    for t in range(tiles - 1):
        with copyin():
            load(xin, x[r, (t + 1) * 4096 : (t + 2) * 4096])
        with compute():
            reduce_max(red, xin, work, 4096)
            muls(yout, xin, 1.0 / (get(red, 0) + 1.0), 4096)
        with copyout():
            store(y[r, t * 4096 : (t + 1) * 4096], yout)
    with compute():
        reduce_max(red, xin, work, 4096)
        muls(yout, xin, 1.0 / (get(red, 0) + 1.0), 4096)
    with copyout():
        store(y[r, (tiles - 1) * 4096 : tiles * 4096], yout)
'''


def modelled(body: str, bufs: int):
    src = SCALE_BY_MAX.replace("BODY\n", body).replace("BUFS", str(bufs))
    pipe = Pipeline(src, "scale_by_max.py", bindings=[SHAPE])
    pipe.run_all()
    assert pipe.final is not None, pipe.summary()
    return kernel_time(trace_kernel(pipe["align"].build, pipe.program, SHAPE), load_soc())


@pytest.fixture(scope="module")
def times():
    cases = [("no scalars", NO_SCALARS, 1), ("no scalars", NO_SCALARS, 2), ("plain", PLAIN, 2), ("prefetch", PREFETCH, 2)]
    return {(name, bufs): modelled(body, bufs) for name, body, bufs in cases}


def test_double_buffering_a_real_kernel_overlaps_copy_and_compute(times):
    one, two = times[("no scalars", 1)], times[("no scalars", 2)]
    assert two.total_us < 0.9 * one.total_us, (one.total_us, two.total_us)


def test_a_scalar_read_holds_back_the_next_copy_unless_it_was_prefetched(times):
    plain, ahead = times[("plain", 2)], times[("prefetch", 2)]
    # with bufs=2 but the load issued after the scalar read (and its V->S wait), copy-in and compute take turns
    assert ahead.total_us < 0.9 * plain.total_us, (plain.total_us, ahead.total_us)
    assert "scalar read of UB" in plain.reason and "load the next tile" in plain.reason
    # prefetched, the kernel is within 15% of its largest lower bound
    floor = max(ahead.bound_us, *(ahead.pipe_busy_us[p] for p in ("V", "MTE2", "MTE3")))
    assert ahead.total_us < 1.15 * floor + ahead.overhead_us, (ahead.total_us, floor)
