"""Trace mode: the instruction stream of every block without touching data. The queue protocol must
follow ascendcraft.trace exactly (the cost model replays it), the records must match what the kernel
issued, and full MultiKernelBench shapes must trace in seconds without allocating the tensors."""
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.emu import GM, Scalar, Workspace, build, trace
from ascendcraft.trace import QUEUE_EVENT_BASE, Kind, Pipe

HERE = Path(__file__).parent / "emu_kernels"
ADD = HERE / "good" / "add_custom.cpp"


def line_of(path: Path, text: str) -> int:
    (n,) = [i + 1 for i, line in enumerate(path.read_text().splitlines()) if text in line]
    return n


@pytest.fixture(scope="module")
def add_trace():
    b = build(ADD)
    args = [GM("x", None, "in", shape=(8 * 2048,), dtype=np.float16), GM("y", None, "in", shape=(8 * 2048,), dtype=np.float16),
            GM("z", None, "out", shape=(8 * 2048,), dtype=np.float16)]
    return trace(b, args, block_dim=8)


def test_record_counts_and_bytes_match_what_the_kernel_issues(add_trace):
    t = add_trace
    tiles, tile_bytes = 16, 128 * 2                     # TILE_NUM * BUFFER_NUM iterations of 128 halves
    assert t.block_dim == 8 and len(t) == 8 * (6 + tiles * 16)   # 6 initial frees + 16 records per iteration
    for b in range(8):
        r = t.block(b)
        copies = r[r["op"] == t.op_index("DataCopy")]
        assert (copies["pipe"] == Pipe.MTE2).sum() == 2 * tiles and (copies["pipe"] == Pipe.MTE3).sum() == tiles
        assert (copies["bytes"] == tile_bytes).all() and (copies["bursts"] == 1).all()
        adds = r[r["op"] == t.op_index("Add")]
        assert len(adds) == tiles and (adds["pipe"] == Pipe.V).all() and (adds["elems"] == 128).all()
        assert (adds["bytes"] == 3 * tile_bytes).all() and (adds["repeats"] == 1).all()
        assert (adds["dtype"] == 1).all()               # f16
    assert t.gm_bytes() == 3 * 8 * 2048 * 2


def test_every_record_names_the_kernel_line_of_its_call(add_trace):
    t = add_trace
    r = t.block(0)
    expect = {"Add": "Add(zLocal, xLocal, yLocal, TILE_LENGTH);", "DeQue": "inQueueX.DeQue<half>();",
              "FreeTensor": "inQueueX.FreeTensor(xLocal);"}
    for op, text in expect.items():
        assert line_of(ADD, text) in set(r[r["op"] == t.op_index(op)]["line"].tolist()), op
    assert (r["line"] > 0).all()


def test_queue_flag_protocol(add_trace):
    """Per queue buffer: SET consumer->producer at InitBuffer; then per use WAIT (alloc) on the producer,
    SET (enque) on the producer, WAIT (deque) on the consumer, SET (free) on the consumer."""
    t = add_trace
    for b in range(8):
        per_event = defaultdict(list)
        for rec in t.block(b):
            if rec["kind"] in (Kind.SET, Kind.WAIT):
                per_event[int(rec["event"])].append(rec)
        assert sorted(per_event) == list(range(QUEUE_EVENT_BASE, QUEUE_EVENT_BASE + 6))   # 3 queues x 2 buffers
        for key, recs in per_event.items():
            vecin = key < QUEUE_EVENT_BASE + 4
            prod, cons = (Pipe.MTE2, Pipe.V) if vecin else (Pipe.V, Pipe.MTE3)
            head, uses = recs[0], recs[1:]
            assert (t.op_names[head["op"]], head["kind"], head["pipe"], head["src_pipe"], head["dst_pipe"]) == \
                   ("InitBuffer", Kind.SET, cons, cons, prod)
            assert len(uses) == 4 * 8                       # 16 iterations alternate between the two buffers
            pattern = [("AllocTensor", Kind.WAIT, prod, cons, prod), ("EnQue", Kind.SET, prod, prod, cons),
                       ("DeQue", Kind.WAIT, cons, prod, cons), ("FreeTensor", Kind.SET, cons, cons, prod)]
            got = [(t.op_names[r["op"]], r["kind"], r["pipe"], r["src_pipe"], r["dst_pipe"]) for r in uses]
            assert got == pattern * 8
        # every WAIT pairs with an earlier SET of the same (src, dst, event) in issue order
        balance = defaultdict(int)
        for rec in t.block(b):
            k = (int(rec["src_pipe"]), int(rec["dst_pipe"]), int(rec["event"]))
            if rec["kind"] == Kind.SET: balance[k] += 1
            elif rec["kind"] == Kind.WAIT:
                balance[k] -= 1
                assert balance[k] >= 0


def test_user_flags_barriers_and_syncall_are_recorded():
    b = build(HERE / "good" / "softmax_rows.cpp")
    t = trace(b, [GM("x", None, "in", shape=(8, 256), dtype=np.float32), GM("y", None, "out", shape=(8, 256), dtype=np.float32),
                  Scalar(8)], block_dim=2)
    r = t.block(0)
    sets = r[(r["kind"] == Kind.SET) & (r["op"] == t.op_index("SetFlag"))]
    waits = r[(r["kind"] == Kind.WAIT) & (r["op"] == t.op_index("WaitFlag"))]
    assert len(sets) == len(waits) == 2 * 4 and (sets["pipe"] == Pipe.V).all() and (waits["pipe"] == Pipe.S).all()
    assert (sets["event"] < QUEUE_EVENT_BASE).all()
    assert t.count("GetValue", Pipe.S) == 2 * 4 * 2
    s = build(HERE / "good" / "sum_syncall.cpp")
    ts = trace(s, [GM("x", None, "in", shape=(1024,), dtype=np.float32), GM("y", None, "out", shape=(8,), dtype=np.float32),
                   Workspace(4 * 32), Scalar(1024)], block_dim=4)
    assert ts.count(kind=Kind.SYNC_ALL) == 4 and ts.meta["cooperative"] is True
    assert ts.count("DataCopy", Pipe.MTE3) == 4 + 1           # each partial, then block 0's total


def test_rule_violations_raise_in_trace_mode():
    with pytest.raises(AscendCraftError) as e:
        trace(build(HERE / "broken" / "gm_out_of_bounds.cpp"),
              [GM("x", None, "in", shape=(4096,), dtype=np.float32), GM("y", None, "out", shape=(4096,), dtype=np.float32)],
              block_dim=4)
    assert e.value.kinds == ["gm-out-of-bounds"] and e.value.stage == "trace"


RELU_TILED = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void relu_tiled(GM_ADDR x, GM_ADDR y, uint64_t total, uint32_t tile)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    GlobalTensor<float> xGm, yGm;
    uint64_t perBlock = total / GetBlockNum();
    xGm.SetGlobalBuffer((__gm__ float *)x + perBlock * GetBlockIdx(), perBlock);
    yGm.SetGlobalBuffer((__gm__ float *)y + perBlock * GetBlockIdx(), perBlock);
    pipe.InitBuffer(inQueue, 2, tile * sizeof(float));
    pipe.InitBuffer(outQueue, 2, tile * sizeof(float));
    for (uint64_t off = 0; off < perBlock; off += tile) {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm[off], tile);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        Relu(yLocal, xLocal, tile);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
        yLocal = outQueue.DeQue<float>();
        DataCopy(yGm[off], yLocal, tile);
        outQueue.FreeTensor(yLocal);
    }
}
"""


def test_full_multikernelbench_shape_traces_in_seconds():
    rows, cols, tile, blocks = 4096, 393216, 8192, 48          # 1.6e9 floats = 6.4 GB per tensor, never allocated
    b = build({"relu_tiled.cpp": RELU_TILED})
    t0 = time.perf_counter()
    t = trace(b, [GM("x", None, "in", shape=(rows, cols), dtype=np.float32), GM("y", None, "out", shape=(rows, cols), dtype=np.float32),
                  Scalar(rows * cols), Scalar(tile)], block_dim=blocks)
    seconds = time.perf_counter() - t0
    tiles = rows * cols // tile
    assert t.count("Relu", Pipe.V) == tiles and t.count("DataCopy", Pipe.MTE2) == tiles
    assert t.gm_bytes() == 2 * rows * cols * 4
    assert len(t) == blocks * 4 + tiles * 11                     # 4 initial frees per block, 11 records per tile
    assert seconds < 15, f"tracing took {seconds:.1f} s"


def test_trace_v2_records_where_each_copy_lands_and_the_layout_is_checked(add_trace, tmp_path):
    from ascendcraft.trace import NO_TENSOR, TRACE_DTYPE, TRACE_FORMAT, Trace, record_layout
    t = add_trace
    assert TRACE_DTYPE.itemsize == 64 and t.tensor_names() == ["x", "y", "z"]
    assert [d["bytes"] for d in t.meta["tensors"]] == [8 * 2048 * 2] * 3
    r = t.records
    copies = (r["kind"] == Kind.INSTR) & np.isin(r["pipe"], [Pipe.MTE2, Pipe.MTE3])
    assert (r["tensor"][copies] != NO_TENSOR).all() and (r["tensor"][~copies] == NO_TENSOR).all()
    for b in range(8):                                  # block b covers bytes [b * 4096, (b + 1) * 4096) of each tensor
        blk = t.block(b)
        c = blk[blk["tensor"] == 2]
        assert c["gm_offset"].tolist() == [b * 4096 + 256 * i for i in range(16)]
        assert (c["gm_stride"] == 256).all() and (c["burst_bytes"] == 256).all()
    # the runtime's own layout (offsetof of every field) went through Trace.load's check; a changed one is refused
    import json
    folder = t.save(tmp_path / "t")
    info = json.loads((folder / "trace.json").read_text())
    assert info["format"] == TRACE_FORMAT and info["fields"] == record_layout()
    info["fields"][-3][1] += 8
    (folder / "trace.json").write_text(json.dumps(info))
    with pytest.raises(AscendCraftError) as e:
        Trace.load(folder)
    assert e.value.kinds == ["trace-format"] and "gm_offset" in str(e.value)
