"""Raw GM writes: a kernel that stores its output through a raw `__gm__` pointer instead of the AscendC
copy API bypasses the instruction trace, and so the cost model. After an execute-mode run the
emulator compares every out / inout / workspace buffer with what API calls (DataCopy, DataCopyPad,
SetValue, InitGlobalMemory) wrote and reports `gm-raw-write` naming the buffer and the first offset.
Raw *reads* cannot be seen in execute mode; in trace mode GM is not mapped, so they fault
(`trace-raw-gm`, tested in test_emu_rules.py)."""
from pathlib import Path

import numpy as np

from ascendcraft.emu import GM, Scalar, build, run

MISC = Path(__file__).parent / "emu_kernels" / "misc"


def test_output_written_through_a_raw_pointer_loop_is_caught():
    x = np.arange(1, 513, dtype=np.float32)
    r = run(build(MISC / "raw_write_output.cpp"), [GM("x", x), GM("y", np.empty_like(x), "out"), Scalar(512)], block_dim=4)
    np.testing.assert_array_equal(r.outputs["y"], 2 * x)          # the numbers are right; the route is not
    assert not r.ok and [d.kind for d in r.errors] == ["gm-raw-write"]
    d = r.errors[0]
    assert d.context["buffer"] == "y" and d.context["offset"] == 0 and "'y'" in d.message
    assert d.file == "raw_write_output.cpp" and d.hint


def test_the_first_raw_byte_is_named_when_only_a_tail_is_raw():
    x = np.arange(1, 257, dtype=np.float32)
    r = run(build(MISC / "raw_write_tail.cpp"), [GM("x", x), GM("y", np.empty_like(x), "out"), Scalar(256)], block_dim=1)
    assert [d.kind for d in r.errors] == ["gm-raw-write"]
    assert r.errors[0].context["offset"] == (256 - 8) * 4


def test_a_kernel_that_writes_only_through_the_api_is_not_flagged():
    x = np.arange(1, 257, dtype=np.float32)
    acc = np.full(8, 10.0, dtype=np.float32)
    r = run(build(MISC / "api_writes_only.cpp"), [GM("x", x), GM("y", np.empty_like(x), "out"), GM("acc", acc, "inout"), Scalar(256)],
            block_dim=1)
    assert r.ok, r.diagnostics
    assert not [d for d in r.diagnostics if d.kind == "gm-raw-write"]
    np.testing.assert_array_equal(r.outputs["y"], x)
    assert r.outputs["acc"][0] == 11.0 and (r.outputs["acc"][1:] == 10.0).all()
