"""Malformed and over-budget DSL programs: each one yields its own diagnostic kind at the right line.

Never a traceback from inside the parser or the checker: every failure is an AscendCraftError
whose diagnostics name the DSL file, line and column, and whose rendered text shows the line.
"""
import pytest

from ascendcraft.check import TensorSpec, analyze
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.dsl import DTYPES, parse

BASE = '''\
@host
def relu(x: gm[f32, ...], y: out[f32, x]):
    N = numel(x)
    blocks = min(cores(), ceil_div(N, 4096))
    per_block = align_up(ceil_div(N, blocks), 8)
    tile = 8192
    launch(relu_kernel, blocks, x, y, N, per_block, tile)

@kernel
def relu_kernel(x: gm[f32], y: gm[f32], N: int, per_block: int, tile: int):
    xin = ub_in(f32, tile, bufs=2)
    yout = ub_out(f32, tile, bufs=2)
    tmp = ub_buf(f32, tile)
    start = block_idx() * per_block
    end = min(start + per_block, N)
    for off in range(start, end, tile):
        n = min(tile, end - off)
        with copyin():
            load(xin, x[off : off + n])
        with compute():
            relu(yout, xin, n)
        with copyout():
            store(y[off : off + n], yout)
'''
# line numbers of BASE, for reading the table below
L_HOST, L_N, L_BLOCKS, L_PERBLOCK, L_TILE, L_LAUNCH = 2, 3, 4, 5, 6, 7
L_KERNEL, L_XIN, L_YOUT, L_TMP, L_START, L_END, L_FOR, L_NN = 10, 11, 12, 13, 14, 15, 16, 17
L_COPYIN, L_LOAD, L_COMPUTE, L_RELU, L_COPYOUT, L_STORE = 18, 19, 20, 21, 22, 23

FULL = {"x": TensorSpec((4096, 393216), DTYPES["f32"])}
ODD = {"x": TensorSpec((7, 1001), DTYPES["f32"])}   # an unaligned tail


def sub(old: str, new: str) -> str:
    assert old in BASE, old
    return BASE.replace(old, new, 1)


CASES = [
    # (id, source, binding, expected kind, expected line)
    ("python-syntax", sub("n = min(tile, end - off)", "n = min(tile, end - off"), None, "syntax", L_NN),
    ("unknown-name", sub("n = min(tile, end - off)", "n = min(tiel, end - off)"), None, "unknown-name", L_NN),
    ("unknown-primitive", sub("relu(yout, xin, n)", "relux(yout, xin, n)"), None, "unknown-function", L_RELU),
    ("wrong-arg-count", sub("relu(yout, xin, n)", "relu(yout, xin)"), None, "arg-count", L_RELU),
    ("unknown-dtype", sub("yout = ub_out(f32, tile, bufs=2)", "yout = ub_out(float32, tile, bufs=2)"), None, "unknown-dtype", L_YOUT),
    ("bad-dtype-for-op", sub("yout = ub_out(f32, tile, bufs=2)", "yout = ub_out(f32, tile, bufs=2)\n    ib = ub_buf(i32, tile)").replace(
        "relu(yout, xin, n)", "exp(ib, ib, n)\n            relu(yout, xin, n)"), None, "bad-dtype", L_RELU + 1),
    ("mixed-dtypes", sub("tmp = ub_buf(f32, tile)", "tmp = ub_buf(f16, tile)").replace(
        "relu(yout, xin, n)", "add(yout, xin, tmp, n)"), None, "bad-dtype", L_RELU),
    ("gm-outside-stage", sub("        with copyin():\n            load(xin, x[off : off + n])", "        load(xin, x[off : off + n])"),
        None, "gm-outside-stage", L_COPYIN),
    ("load-in-compute", sub("        with copyin():\n            load(xin, x[off : off + n])\n        with compute():",
                            "        with compute():\n            load(xin, x[off : off + n])"), None, "wrong-stage", L_COPYIN + 1),
    ("compute-on-gm", sub("relu(yout, xin, n)", "relu(yout, x, n)"), None, "compute-on-gm", L_RELU),
    ("vector-outside-compute", sub("        with copyout():", "        relu(yout, xin, n)\n        with copyout():"),
        None, "vector-outside-compute", L_COPYOUT),
    ("read-before-load", sub("            load(xin, x[off : off + n])", "            pass"), None, "read-before-load", L_RELU),
    ("read-after-free", sub("        with copyout():", "        with compute():\n            relu(tmp, xin, n)\n        with copyout():"),
        None, "read-after-free", L_COPYOUT + 1),
    ("scratch-read-before-write", sub("relu(yout, xin, n)", "add(yout, xin, tmp, n)"), None, "read-before-write", L_RELU),
    ("store-before-compute", sub("relu(yout, xin, n)", "relu(tmp, xin, n)"), None, "store-before-compute", L_STORE),
    ("load-into-output-queue", sub("load(xin, x[off : off + n])", "load(yout, x[off : off + n])"), None, "load-target", L_LOAD),
    ("launch-arg-count", sub("launch(relu_kernel, blocks, x, y, N, per_block, tile)", "launch(relu_kernel, blocks, x, y, N, per_block)"),
        None, "launch-args", L_LAUNCH),
    ("launch-tensor-for-scalar", sub("launch(relu_kernel, blocks, x, y, N, per_block, tile)", "launch(relu_kernel, blocks, x, y, x, per_block, tile)"),
        None, "launch-args", L_LAUNCH),
    ("launch-unknown-kernel", sub("launch(relu_kernel,", "launch(relu_kernal,"), None, "unknown-kernel", L_LAUNCH),
    ("data-dependent-loop", sub("            relu(yout, xin, n)", "            relu(yout, xin, n)\n            m = get(yout, 0)\n            for i in range(m):\n                relu(yout, yout, n)"),
        None, "data-dependent-loop", L_RELU + 2),
    ("data-dependent-branch", sub("            relu(yout, xin, n)", "            relu(yout, xin, n)\n            if get(yout, 0) > 0:\n                relu(yout, yout, n)"),
        None, "data-dependent-branch", L_RELU + 1),
    ("buffer-in-loop", sub("        n = min(tile, end - off)", "        n = min(tile, end - off)\n        t2 = ub_buf(f32, 64)"), None, "misplaced-buffer", L_NN + 1),
    ("buffer-size-per-block", sub("tmp = ub_buf(f32, tile)", "tmp = ub_buf(f32, block_idx() * 8 + 8)"), None, "bad-buffer-size", L_TMP),
    ("nested-stage", sub("            store(y[off : off + n], yout)", "            with compute():\n                relu(yout, xin, n)"),
        None, "nested-stage", L_STORE),
    ("sync-in-stage", sub("            relu(yout, xin, n)", "            relu(yout, xin, n)\n            sync_all()"), None, "sync-in-stage", L_RELU + 1),
    ("too-many-queue-buffers", sub("xin = ub_in(f32, tile, bufs=2)", "xin = ub_in(f32, tile, bufs=9)"), None, "queue-too-many", L_XIN),
    ("queue-leftover", sub("        with compute():\n            relu(yout, xin, n)\n        with copyout():\n            store(y[off : off + n], yout)\n", ""),
        None, "queue-unbalanced", L_FOR),
    ("ub-over-capacity", sub("tile = 8192", "tile = 16384"), FULL, "ub-overflow", L_XIN),
    ("buffer-not-32-byte", sub("tmp = ub_buf(f32, tile)", "tmp = ub_buf(f32, 1001)"), FULL, "buffer-align", L_TMP),
    ("misaligned-view", sub("relu(yout, xin, n)", "relu(yout[3], xin, n - 3)"), FULL, "ub-misaligned", L_RELU),
    ("compare-count", sub("tmp = ub_buf(f32, tile)", "tmp = ub_buf(u8, tile)").replace(
        "relu(yout, xin, n)", "compares(tmp, xin, 0.0, \"gt\", n)\n            relu(yout, xin, n)"), ODD, "compare-count", L_RELU),
    ("sync-too-many-blocks", sub("blocks = min(cores(), ceil_div(N, 4096))", "blocks = 2 * cores()").replace(
        "        n = min(tile, end - off)", "        sync_all()\n        n = min(tile, end - off)"), FULL, "sync-blocks", L_LAUNCH),
    ("host-assert", sub("    tile = 8192", "    tile = 8192\n    assert N % 1000 == 0, \"N must be a multiple of 1000\""), FULL, "assert-failed", L_TILE + 1),
    ("host-shape-mismatch", sub("def relu(x: gm[f32, ...]", "def relu(x: gm[f32, A, B, C]"), FULL, "shape-mismatch", L_HOST),
    ("host-dtype-mismatch", sub("def relu(x: gm[f32, ...], y: out[f32, x]", "def relu(x: gm[f16, ...], y: out[f16, x]").replace("x: gm[f32], y: gm[f32]", "x: gm[f16], y: gm[f16]").replace(
        "xin = ub_in(f32", "xin = ub_in(f16").replace("yout = ub_out(f32", "yout = ub_out(f16"), FULL, "dtype-mismatch", L_HOST),
    ("import", "import os\n" + BASE, None, "unsupported-syntax", 1),
    ("while-loop", sub("        n = min(tile, end - off)", "        while n > 0:\n            n = n - 1"), None, "unsupported-syntax", L_NN),
]


@pytest.mark.parametrize("source,binding,kind,line", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_specific_diagnostic(source, binding, kind, line):
    try:
        analysis = analyze(parse(source, "relu.py"), binding)
        diagnostics = analysis.diagnostics
    except AscendCraftError as e:  # parse errors are raised; checks are returned
        diagnostics = e.diagnostics
    assert diagnostics, "expected a diagnostic"
    kinds = [(d.kind, d.line) for d in diagnostics]
    assert (kind, line) in kinds, f"expected {kind} at line {line}, got {kinds}"
    d = next(d for d in diagnostics if d.kind == kind and d.line == line)
    text = d.render()
    assert text.startswith(f"relu.py:{line}:"), text
    assert d.source_line and d.source_line.strip() in text
    assert "Traceback" not in text and "ascendcraft/" not in text


def test_there_are_at_least_25_cases():
    assert len({c[3] for c in CASES}) >= 25


def test_a_misspelt_operand_is_one_error_not_a_cascade():
    # `xn` for `xin` leaves the loaded tile unconsumed too; only the cause is reported
    program = parse(sub("relu(yout, xin, n)", "relu(yout, xn, n)"), "relu.py")
    errors = [d for d in analyze(program).diagnostics if d.is_error]
    assert [d.kind for d in errors] == ["unknown-name"]
    assert errors[0].line == L_RELU and "did you mean 'xin'?" in errors[0].hint

