"""EvoKernel's op projects that no round gave a verdict (the twenty-ninth round's 34 not run and 19 wall-caps, all
convolution, transposed-convolution and GEMM kernels of KernelBench level 1 and 2), run at small shapes of our choosing
against the PyTorch reference of their KernelBench task.

    python examples/corpus/evokernel_small_shapes.py [--git KernelHive/ascendc-skill=<git dir>] [--only NAME]
                                                     [--own-shape] [--keep DIR]

Each project is materialised from the mirror at the corpus's pinned commit (evokernel_own_shapes.materialise, no case
file) and run by the corpus's EvoKernel step (evokernel.evokernel_strings + mkb.match_mkb: the task's Model, op.cpp's
binding of its values to the op's inputs, run_project, KernelBench's allclose at atol = rtol = 1e-2), with the task's
module-level sizes replaced by the ones in SMALL below (the reference file is read from the mirror, never stored here).
No batch is cut: the run is at exactly that shape. `--own-shape` runs at the task's own sizes instead.

A kernel specialised to its task's one shape (a TilingFunc that refuses every other one, or one that sets the task's
sizes as constants and reads no input shape) cannot run at ours: `specialised` names the line that fixes it, and the
run at our shape says what happens there (the TilingFunc's refusal, or the kernel reading past the smaller inputs).
"""
import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import corpus  # noqa: E402
import evokernel  # noqa: E402
import mkb  # noqa: E402
from evokernel_own_shapes import FOLDER, REPO  # noqa: E402

from ascendcraft import opproject  # noqa: E402

REFERENCES = "skills/ascend-kernel-generator/reference/ref_repositories/EvoKernel/pytorch-references/KernelBench"

CONV2D = "batch_size = 2; in_channels = 3; out_channels = 8; height = 13; width = 11"
CONV3D = "batch_size = 2; in_channels = 3; out_channels = 8; depth = 6; height = 7; width = 9"
GEMM = "batch_size = 5; in_features = 40; out_features = 48"
# entry -> Python run after the task's module (its sizes at our shape; every size the module derives from them again)
SMALL = {
    # not run in the twenty-ninth round (time)
    "Conv2dDivideLeakyRelu": CONV2D,
    "Conv2dGeluGlobalAvgPool": CONV2D,
    # (its TilingFunc fixes channels, height and width, not the batch: the task's shape with 2 images)
    "Conv2dGroupNormScaleMaxPoolClamp": "batch_size = 2",
    "Conv2dMinAddMultiply": CONV2D + "; bias_shape = (out_channels, 1, 1)",
    "Conv2dReluBiasAdd": CONV2D + "; bias_shape = (out_channels, 1, 1)",
    "Conv2dTanhScalingBiasAddMax": CONV2D + "; bias_shape = (out_channels, 1, 1); height = width = 14",
    "ConvDepthwise2dSquareInputSquareKernel": "batch_size = 2; in_channels = 5; height = width = 12",
    "ConvStandard2dAsymmetricInputAsymmetricKernel": "batch_size = 2; in_channels = 3; out_channels = 6; height = 13; width = 21",
    "ConvStandard2dSquareInputAsymmetricKernel": "batch_size = 2; in_channels = 3; out_channels = 6; height = width = 19",
    "ConvStandard2dSquareInputAsymmetricKernelDilatedPadded": "batch_size = 2; in_channels = 3; out_channels = 6; height = width = 19",
    "ConvStandard3dAsymmetricInputAsymmetricKernel": "batch_size = 2; in_channels = 3; out_channels = 6; depth = 5; height = 9; width = 11",
    "ConvStandard3dSquareInputSquareKernel": "batch_size = 2; in_channels = 3; out_channels = 6; depth = height = width = 7",
    "ConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMean": CONV2D,
    # (its kernel sums 3 input channels into 16 accumulators, whatever the shape says: those channels, small volume)
    "ConvTranspose3dLogSumExpHardSwishSubtractClamp": "batch_size = 2; depth = 6; height = 7; width = 9",
    "ConvTranspose3dMultiplyMaxGlobalAvgPoolClamp": CONV3D,
    "ConvTranspose3dSumResidualAddMultiplyResidualAdd": CONV3D + "; bias_shape = (out_channels, 1, 1, 1)",
    "ConvTransposed1dAsymmetricInputSquareKernelPaddedStridedDilated": "batch_size = 2; in_channels = 3; out_channels = 6; length = 37",
    "ConvTransposed2dAsymmetricInputAsymmetricKernel": "batch_size = 2; in_channels = 3; out_channels = 6; height_in = 9; width_in = 13",
    "ConvTransposed2dAsymmetricInputAsymmetricKernelPadded": "batch_size = 2; in_channels = 3; out_channels = 6; height = 9; width = 13",
    "ConvTransposed2dAsymmetricInputSquareKernel": "batch_size = 2; in_channels = 3; out_channels = 6; height_in = 9; width_in = 13",
    "ConvTransposed2dAsymmetricInputSquareKernelDilatedPaddedStrided": "batch_size = 2; in_channels = 3; out_channels = 6; height_in = 5; width_in = 7",
    "ConvTransposed2dSquareInputAsymmetricKernel": "batch_size = 2; in_channels = 3; out_channels = 6; height = width = 11",
    "ConvTransposed3dAsymmetricInputAsymmetricKernel": "batch_size = 2; in_channels = 3; out_channels = 6; depth_in = 4; height_in = 5; width_in = 7",
    "ConvTransposed3dAsymmetricInputSquareKernel": "batch_size = 2; in_channels = 3; out_channels = 6; depth = 4; height = 5; width = 7",
    "ConvTransposed3dSquareInputAsymmetricKernel": "batch_size = 2; in_channels = 3; out_channels = 6; depth = height = width = 5",
    "ConvTransposed3dSquareInputSquareKernel": "batch_size = 2; in_channels = 3; out_channels = 6; depth = height = width = 5",
    "GemmGroupNormHardtanh": GEMM + "; num_groups = 4",
    "GemmGroupNormSwishMultiplySwish": GEMM + "; num_groups = 4; multiply_weight_shape = (out_features,)",
    "GemmLogSumExpLeakyReluLeakyReluGeluGelu": GEMM,
    "GemmMultiplyLeakyRelu": GEMM,
    "GemmReluDivide": GEMM,
    "GemmScalingHardtanhGelu": GEMM,
    "GemmSigmoidScalingResidualAdd": "batch_size = 5; input_size = 40; hidden_size = 48",
    "MatmulDivideGelu": "batch_size = 5; input_size = 40; output_size = 48",
    # wall-caps of the twenty-ninth round
    "Conv2dMinTanhTanh": CONV2D,
    "Conv2dReluHardSwish": CONV2D,
    "Conv2dScalingMin": CONV2D,
    "Conv2dSubtractHardSwishMaxPoolMish": CONV2D,
    "Conv2dSubtractTanhSubtractAvgPool": CONV2D,
    "Conv3dDivideMaxGlobalAvgPoolBiasAddSum": CONV3D + "; bias_shape = (out_channels, 1, 1, 1)",
    "Conv3dReluLeakyReluGeluSigmoidBiasAdd": CONV3D + "; bias_shape = (out_channels, 1, 1, 1)",
    "Conv3dScalingTanhMultiplySigmoid": CONV3D + "; bias_shape = (out_channels, 1, 1, 1)",
    # (its TilingFunc fixes batch and channels, not height and width)
    "ConvTranspose2dSoftmaxBiasAddScalingSigmoid": "height = 5; width = 7",
    "ConvTranspose3dSoftmaxSigmoid": "batch_size = 2; in_channels = 3; out_channels = 8; D = 4; H = 5; W = 7",
    "ConvTransposed1dDilated": "batch_size = 2; in_channels = 3; out_channels = 6; length = 37",
    "GemmAddRelu": GEMM + "; bias_shape = (out_features,)",
    "GemmBiasAddHardtanhMishGroupNorm": GEMM + "; bias_shape = (out_features,); num_groups = 4",
    "GemmSwishDivideClampTanhClamp": GEMM,
    "MatmulAddSwishTanhGeluHardtanh": GEMM + "; add_value_shape = (out_features,)",
    "MatmulGroupNormLeakyReluSum": "batch_size = 5; input_size = 40; hidden_size = 48; num_groups = 4",
    "MatmulMishMish": GEMM,
    "MatmulScalingResidualAdd": GEMM,
    "MatmulSwishSumGroupNorm": GEMM + "; num_groups = 4; bias_shape = (out_features,)",
}

# a TilingFunc's test of a size against a number or a named constant, ending in a refusal
REFUSAL = re.compile(r"if\s*\((?:[^;{}]*?)(?:[!=]=\s*(?:\d{2,}U?|[A-Z][A-Z0-9_]*)\b)(?:[^;{}]*?)\)\s*\{?\s*return\s+ge::GRAPH_FAILED",
                     re.S)
CONSTANT = re.compile(r"(?:constexpr|const)\s+u?int\d*(?:_t)?\s+\w+\s*=\s*\d{2,}")


def specialised(project) -> str:
    """Where the project fixes the task's shape: the first TilingFunc refusal that compares a size with a number or a
    constant (file:line), else the first size constant of a TilingFunc that reads no input shape, else ''."""
    for name, text in sorted(project.sources.items()):
        if not name.startswith("op_host/") or not name.endswith(".cpp"): continue
        for m in REFUSAL.finditer(text):
            if "GetDimNum" in m.group(0) or "DT_" in m.group(0) or "nullptr" in m.group(0): continue
            line = text.count("\n", 0, m.start()) + 1
            return f"{name}:{line}: the TilingFunc refuses other shapes ({' '.join(m.group(0).split())[:110]})"
        if mkb.tiling_reads_shapes(text) is False or "GetInputShape" not in text:
            m = CONSTANT.search(text)
            if m:
                line = text.count("\n", 0, m.start()) + 1
                return f"{name}:{line}: the TilingFunc reads no input shape, it sets the task's sizes ({m.group(0)})"
    for name, text in sorted(project.sources.items()):   # a TilingFunc that reads shapes for a kernel of fixed sizes
        if name.startswith("op_kernel/") and (m := CONSTANT.search(text)):
            line = text.count("\n", 0, m.start()) + 1
            return f"{name}:{line}: the kernel sets the task's sizes ({m.group(0)})"
    return ""


def run_entry(op: str, git: str, commit: str, root: Path, own_shape: bool) -> dict:
    folder = root / op
    folder.mkdir(parents=True, exist_ok=True)
    corpus_materialise(op, git, commit, folder)
    project = opproject.load_project(folder)
    op_cpp = corpus.show(git, commit, f"{FOLDER}/{op}Custom/CppExtension/csrc/op.cpp").decode(errors="replace")
    ref_path = evokernel.reference_path(f"{FOLDER}/{op}Custom", corpus.show(git, commit, f"{REFERENCES}/dataset.json").decode())
    reference = corpus.show(git, commit, ref_path).decode()
    if not own_shape: reference += f"\n\n# evokernel_small_shapes: our shape\n{SMALL[op]}\n"
    strings = evokernel.evokernel_strings(project, op_cpp, reference)
    saved = mkb.MKB_ATOL, mkb.MKB_RTOL
    mkb.MKB_ATOL, mkb.MKB_RTOL = evokernel.EVOKERNEL_ATOL, evokernel.EVOKERNEL_RTOL
    try:   # no batch cut (limit: any size): the run is at exactly the shape set above
        out = mkb.match_mkb(dict(path=f"{FOLDER}/{op}Custom", commit=commit, reference=ref_path), strings,
                            strings["reference_src"], project, limit=1 << 62)
    except Exception as e:  # noqa: BLE001 - the build, or the reference itself
        out = dict(match="run-error", match_detail=f"{type(e).__name__}: {e}"[:300])
    finally:
        mkb.MKB_ATOL, mkb.MKB_RTOL = saved
    out["specialised"] = specialised(project)
    return out


def corpus_materialise(op: str, git: str, commit: str, folder: Path) -> None:
    "The op's project folder from the mirror at `commit` (git archive of that folder only)."
    import subprocess
    archive = subprocess.run(["git", f"--git-dir={git}", "archive", commit, f"{FOLDER}/{op}Custom"], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "x", "--strip-components", str(FOLDER.count("/") + 2), "-C", str(folder)], input=archive,
                   check=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--git", action="append", default=[], metavar="OWNER/NAME=GITDIR")
    ap.add_argument("--only", action="append", metavar="NAME")
    ap.add_argument("--own-shape", action="store_true", help="run at the task's own sizes (slow: scalar loops)")
    ap.add_argument("--keep", type=Path, metavar="DIR", help="materialise here and keep the folders")
    args = ap.parse_args(argv)
    given = dict(g.split("=", 1) for g in args.git)
    git = given.get(REPO, f"/work/.mirror/{REPO.replace('/', '+')}/repo")
    commit = next(e["commit"] for e in json.loads(corpus.MANIFEST.read_text()) if e["repo"] == REPO)
    ops = args.only or list(SMALL)
    counts = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        for op in ops:
            start = time.time()
            out = run_entry(op, git, commit, root, args.own_shape)
            counts[out["match"]] = counts.get(out["match"], 0) + 1
            print(f"{op}: {out['match']} ({time.time() - start:.0f} s): {out.get('match_detail', '')[:300]}", flush=True)
            if out["specialised"]: print(f"    specialised: {out['specialised']}", flush=True)
    print(f"{len(ops)} entries ({REPO} at {commit[:7]}, {'own' if args.own_shape else 'our'} shapes): "
          + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
