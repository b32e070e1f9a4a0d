"""Traces with repeated blocks (trace format 3): a block that issues an earlier block's records on other GM addresses
is stored once, as a reference plus its GM offsets. The expansion must give exactly the records of every block, and
the cost model, the coverage check and the work counts must give the same numbers from the summary as from the
expanded trace."""
import numpy as np
import pytest

from ascendcraft.bench import output_coverage, written_bytes
from ascendcraft.bind import shape_bindings
from ascendcraft.check import TensorSpec
from ascendcraft.config import load_settings
from ascendcraft.cost import kernel_time
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.dsl import DTYPES
from ascendcraft.launch import trace_kernel
from ascendcraft.pipeline import Pipeline
from ascendcraft.soc import load_soc
from ascendcraft.taskset import get_task
from ascendcraft.trace import NO_TENSOR, REPEATS_FILE, SummarisedTrace, Trace

ROWS, COLS = 8, 16384

TWO_PASSES = '''
@host
def two_passes(x: gm[f32, R, C], y: out[f32, x]):
    assert C % 4096 == 0
    launch(k, R, x, y, R, C, C // 4096)

@kernel
def k(x: gm[f32, R, C], y: gm[f32, R, C], R: int, C: int, tiles: int):
    xin = ub_in(f32, 4096, bufs=2)
    yout = ub_out(f32, 4096, bufs=2)
    work = ub_buf(f32, 4096)
    red = ub_buf(f32, 64)
    r = block_idx()
''' + '''    for t in range(tiles):
        with copyin():
            load(xin, x[r, t * 4096 : (t + 1) * 4096])
        with compute():
            reduce_max(red, xin, work, 4096)
            muls(yout, xin, 1.0 / (get(red, 0) + 1.0), 4096)
        with copyout():
            store(y[r, t * 4096 : (t + 1) * 4096], yout)
''' * 2                       # the second pass reads x again: from a cold L2, its copies hit


def expanded(t: Trace) -> Trace:
    "The same trace with every block's records stored."
    return Trace(np.array(t.records), t.op_names, t.block_dim, t.meta)


@pytest.fixture(scope="module")
def two_passes():
    shape = {"x": TensorSpec((ROWS, COLS), DTYPES["f32"])}
    pipe = Pipeline(TWO_PASSES, "two_passes.py", bindings=[shape])
    pipe.run_all()
    assert pipe.final is not None, pipe.summary()
    return trace_kernel(pipe.steps[-1].build, pipe.program, shape)


@pytest.fixture(scope="module")
def rms_norm():
    "A real example at its small shapes: 24 blocks, most of them repeats."
    task = get_task("rms_norm")
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "examples" / task.category / "rms_norm.py"
    pipe = Pipeline(path.read_text(), path.name, task=task, sizes=("small",))
    pipe.run_all()
    return trace_kernel(pipe.steps[-1].build, pipe.program, shape_bindings(pipe.program, task, sizes=("small",))[0])


def test_repeated_blocks_are_stored_once_and_expand_to_every_block(two_passes):
    t = two_passes
    assert isinstance(t, SummarisedTrace)
    per_block = len(t.stored)                           # block 0 stored, blocks 1..7 repeat it
    assert t.block_dim == ROWS and len(t) == ROWS * per_block and t.meta["repeated_blocks"] == ROWS - 1
    assert t.template_of.tolist() == [0] * ROWS
    r = t.records
    assert len(r) == len(t) and r["core"].tolist() == np.repeat(np.arange(ROWS), per_block).tolist()
    b0, b5 = t.block(0), t.block(5)
    named = b0["tensor"] != NO_TENSOR
    assert named.any() and (b5["core"] == 5).all()
    assert ((b5["gm_offset"] - b0["gm_offset"])[named] == 5 * COLS * 4).all()     # row 5 of x and of y
    same = [f for f in b0.dtype.names if f not in ("core", "gm_offset")]
    assert all(np.array_equal(b0[f], b5[f]) for f in same)
    full = expanded(t)
    assert t.work() == full.work() and t.gm_bytes() == full.gm_bytes() == 2 * 2 * ROWS * COLS * 4
    assert t.count("DataCopy") == full.count("DataCopy") and t.count(pipe=1) == full.count(pipe=1)


def test_save_and_load_keep_the_summary(two_passes, tmp_path):
    back = Trace.load(two_passes.save(tmp_path / "t"))
    assert isinstance(back, SummarisedTrace) and len(back.stored) == len(two_passes.stored)
    assert back.records.tobytes() == two_passes.records.tobytes()
    expanded(two_passes).save(tmp_path / "t")              # a plain save over it drops the repeats file
    assert not (tmp_path / "t" / REPEATS_FILE).exists() and type(Trace.load(tmp_path / "t")) is Trace


def test_a_cut_repeats_file_is_a_format_error(two_passes, tmp_path):
    folder = two_passes.save(tmp_path / "t")
    data = (folder / REPEATS_FILE).read_bytes()
    (folder / REPEATS_FILE).write_bytes(data[:-8])
    with pytest.raises(AscendCraftError) as e:
        Trace.load(folder)
    assert e.value.diagnostics[0].kind == "trace-format" and "offsets" in e.value.diagnostics[0].message


def same_cost(a, b):
    "The modelled numbers of two KernelCosts agree (to rounding)."
    assert a.total_us == pytest.approx(b.total_us, rel=1e-12)
    assert (a.gm_bytes, a.l2_hit_bytes, a.hbm_bytes, a.records, a.verdict, a.cores_used) == \
        (b.gm_bytes, b.l2_hit_bytes, b.hbm_bytes, b.records, b.verdict, b.cores_used)
    assert a.pipe_busy_us == pytest.approx(b.pipe_busy_us, rel=1e-12) and a.pipe_bytes == b.pipe_bytes
    assert [p.time_us for p in a.phases] == pytest.approx([p.time_us for p in b.phases], rel=1e-12)
    assert np.allclose(a.core_us, b.core_us, rtol=1e-12)
    assert len(a.timeline) == len(b.timeline) and np.allclose(a.timeline["end_us"], b.timeline["end_us"], rtol=1e-12)
    assert a.reason == b.reason and a.notes == b.notes


@pytest.mark.parametrize("l2_state", ["warm", "cold"])
def test_the_cost_model_gives_the_expanded_traces_numbers(two_passes, l2_state):
    soc = load_soc()
    summary, full = kernel_time(two_passes, soc, l2_state=l2_state), kernel_time(expanded(two_passes), soc, l2_state=l2_state)
    same_cost(summary, full)
    if l2_state == "cold":        # the replay ran on every block's own offsets: the second pass's reads and writes hit
        assert summary.l2_hit_bytes == 2 * ROWS * COLS * 4


def test_a_real_example_costs_and_covers_the_same(rms_norm):
    assert isinstance(rms_norm, SummarisedTrace) and len(rms_norm.stored) < len(rms_norm) // 2
    soc, full = load_soc(), expanded(rms_norm)
    for state in ("warm", "cold"):
        same_cost(kernel_time(rms_norm, soc, l2_state=state), kernel_time(full, soc, l2_state=state))
    ours, theirs = output_coverage(rms_norm), output_coverage(full)
    assert [(c.tensor, c.covered, c.written, c.gaps) for c in ours] == [(c.tensor, c.covered, c.written, c.gaps) for c in theirs]
    assert ours[0].complete and written_bytes(rms_norm) == written_bytes(full) > 0


def test_the_trace_cap_counts_what_is_stored_not_the_repeats():
    "file_limit_mb caps the records written and held: 200 blocks of one stream pass a cap that 2 such blocks fit."
    rows = 200
    shape = {"x": TensorSpec((rows, COLS), DTYPES["f32"])}
    pipe = Pipeline(TWO_PASSES, "two_passes.py", bindings=[shape])
    pipe.run_all()
    assert pipe.final is not None, pipe.summary()
    settings = load_settings().replace(file_limit_mb=1)                 # 16,384 records of 64 bytes
    t = trace_kernel(pipe.steps[-1].build, pipe.program, shape, settings=settings)
    assert isinstance(t, SummarisedTrace) and len(t) > (1 << 20) // 64 > 2 * len(t.stored)
    assert len(t) == rows * len(t.stored)
