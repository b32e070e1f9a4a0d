"""SGLang's laser_attention op project (csrc/attentions/csrc/ops/laser_attention, written on the device compiler's raw
intrinsics) run by hand against NumPy attention, softmax(Q K^T * scale) V, with the tiling its TilingFunc makes written
out here: the whole project does not build (its two host sources each define MAX_TOKEN in an anonymous namespace, and
the project build compiles them as one unit), so the kernel is built alone, as `corpus.py run --kernel-only` builds it,
as the mixed kernel its cube / vector sections make.

    python examples/corpus/laser_by_hand.py <sgl-kernel-npu git dir> [B N S D AIC]

Prints the build, the run's diagnostics and, when it finishes, the error against NumPy and the verdict: the corpus's
half tolerance (|got - want| <= max(1, |want|) / 512), as the kernel takes the softmax into its second matmul in half.
AIC defaults to 1: with two or more cube cores the cube side's rounds come from members its address mapping never sets
(AddressMappingForwardOnline::set_tiling returns before it writes them unless `ky_` and `blockNumPerCore_`, which
nothing initialises, happen to be non-zero), so a cube core's round count is whatever its stack held and the cores'
cross-core flags stop matching (`cross-core-deadlock`): the kernel's own undefined behaviour, not the emulator's."""
import json
import struct
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import corpus  # noqa: E402

from ascendcraft.config import load_settings  # noqa: E402
from ascendcraft.emu import GM, Tiling, Workspace, build, run  # noqa: E402
from ascendcraft.opproject import dtype_macros, load_project  # noqa: E402

PATH = "csrc/attentions/csrc/ops/laser_attention"


def tiling_bytes(b: int, n: int, s: int, d: int, per_group: int, groups: int, scale: float) -> bytes:
    """LaserAttentionTilingData (op_host/laser_attention_tiling.h) as BEGIN_TILING_DATA_DEF lays it out (each field at
    its natural alignment): no mask, dense, MHA, high precision, as Tiling4LaserAttention sets it for equal q / k / v
    lengths and pre_tokens at its default."""
    out = struct.pack("<6i4i2f2i?3x4i?3x", b, n, s, d, per_group, groups, s, s, s, 0, scale, 0.0, 0, 0,
                      False, 0, 0, 1, 0, True)
    assert len(out) == 80
    return out


def main(gitdir: str, b: int = 1, n: int = 1, s: int = 256, d: int = 128, aic: int = 1) -> bool:
    entry = next(e for e in json.loads(corpus.MANIFEST.read_text()) if e["repo"] == "sgl-project/sgl-kernel-npu" and e["path"] == PATH)
    with tempfile.TemporaryDirectory(prefix="laser_") as scratch:   # the sources are read in; the folder can go
        project = load_project(corpus.materialise(entry, gitdir, Path(scratch)))
    settings = load_settings()
    macros = " ".join(f"-D{k}={v}" for k, v in dtype_macros(project.op, 0).items()) + f" -DASCENDCRAFT_OP_TYPE={project.op.type}"
    sources = {k: v for k, v in project.sources.items() if not k.startswith("op_host/") or k.endswith(".h")}
    t0 = time.time()
    kb = build(sources, project.entry, settings=settings.replace(cxxflags=f"{settings.cxxflags} {macros}"),
               kernel_type="KERNEL_TYPE_MIX_AIC_1_2")   # CANN builds a kernel with cube and vector sections as mixed
    print(f"build ok={kb.ok} ({time.time() - t0:.0f} s)")
    if not kb.ok:
        print("\n".join(x.render() for x in kb.errors[:3]))
        return False
    rng = np.random.default_rng(3)
    q, k, v = (rng.standard_normal((b, n, s, d)).astype(np.float16) for _ in range(3))
    scale = 1.0 / np.sqrt(d)
    per_group = 1 if s <= 4096 else 2 if s <= 8192 else 4 if s <= 16384 else 8   # DoTiling, col_size = kSeqLength
    groups = aic // per_group
    # the TilingFunc's workspace: per core group and core, then the row sums, then the library's 16 MiB
    ws = groups * per_group * (128 * 128 * 32 * 2 * 4 + 256 * 128 * 8 * 2 * 4 * 2) + b * n * s * 4 + 16 * 1024 * 1024
    t0 = time.time()
    r = run(kb, [GM("query", q), GM("key", k), GM("value", v), GM("atten_mask", np.zeros(16, np.float16)),
                 GM("alibi_mask", np.zeros(16, np.float16)), GM("drop_mask", np.zeros(32, np.uint8)),
                 GM("softmax_log_max_sum", shape=(b, n, s), dtype=np.float32, role="out"),
                 GM("attention_out", shape=(b, n, s, d), dtype=np.float32, role="out"), Workspace(ws),
                 Tiling(tiling_bytes(b, n, s, d, per_group, groups, scale))], block_dim=aic)
    print(f"run ok={r.ok} ({time.time() - t0:.0f} s)")
    for x in r.diagnostics[:6]:
        print(x.render())
    if r.ok:
        sc = q.astype(np.float64) @ k.astype(np.float64).transpose(0, 1, 3, 2) * scale
        p = np.exp(sc - sc.max(-1, keepdims=True))
        ref = p / p.sum(-1, keepdims=True) @ v.astype(np.float64)
        err = np.abs(r.outputs["attention_out"] - ref)
        match = bool((err <= np.maximum(1.0, np.abs(ref)) / 512).all())
        print(f"attention_out: max abs error {err.max():.3g}, mean {err.mean():.3g} (|ref| max {np.abs(ref).max():.3g}): "
              f"{'match' if match else 'MISMATCH'}")
        return match
    return False


if __name__ == "__main__":
    sys.exit(0 if main(sys.argv[1], *[int(x) for x in sys.argv[2:7]]) else 1)
