"""GM padding: `run(rules=RunRules(gm_padding="torch_npu"))` gives each GM tensor the block torch_npu's caching allocator gives it on
the device (its bytes plus 32, rounded up to 512: emu.gm_allocation), so a kernel whose last tile reads and writes a
little past a tensor's end behaves as on the NPU, with a `gm-padding-write` warning for the write; the default,
"strict", keeps a write past the end an error. Op projects run with torch_npu's padding (run_project's default)."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, RunRules, Scalar, build, gm_allocation, run

MISC = Path(__file__).parent / "emu_kernels" / "misc"


def test_torch_npus_allocation_is_the_size_plus_32_rounded_up_to_512():
    assert [gm_allocation(n, "torch_npu") for n in (0, 1, 20, 480, 481, 512, 1000, 4096)] == [0, 512, 512, 512, 1024, 1024, 1536, 4608]
    assert gm_allocation(20) == 20 and gm_allocation(20, "strict") == 20
    with pytest.raises(ValueError, match="gm_padding"):
        gm_allocation(20, "cuda")


def test_a_tile_past_the_end_is_an_error_strictly_and_a_warning_in_torch_npus_padding():
    x = np.arange(1, 6, dtype=np.float32)                        # 5 floats; the kernel copies 8 in and 8 out
    b = build(MISC / "tile_past_end.cpp")
    args = lambda: [GM("x", x), GM("y", None, "out", shape=(5,), dtype=np.float32), Scalar(5)]
    strict = run(b, args(), block_dim=1)
    assert not strict.ok and "gm-out-of-bounds" in [d.kind for d in strict.errors], strict.diagnostics
    padded = run(b, args(), block_dim=1, rules=RunRules(gm_padding="torch_npu"))
    assert padded.ok, padded.diagnostics
    np.testing.assert_array_equal(padded.outputs["y"], 2 * x)   # the tensor alone, its own shape
    warn = [d for d in padded.diagnostics if d.kind == "gm-padding-write"]
    assert len(warn) == 1 and warn[0].severity == "warning"
    assert "'y' (20 bytes): bytes 20..31 of its 512-byte allocation" in warn[0].message
    whole = run(b, [GM("x", np.arange(8, dtype=np.float32)), GM("y", None, "out", shape=(8,), dtype=np.float32),
                    Scalar(8)], block_dim=1, rules=RunRules(gm_padding="torch_npu"))
    assert whole.ok and not [d for d in whole.diagnostics if d.kind == "gm-padding-write"]   # nothing past the end
    with pytest.raises(Exception, match="gm_padding"):
        RunRules(gm_padding="cuda")
