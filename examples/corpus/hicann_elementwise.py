"""hicann ops-math / ops-nn element-wise operators (each its own op project: OpDef, TilingFunc, kernel) run on the
emulator against PyTorch, as a user would check them: materialised and linked at the corpus's pinned commit as
`corpus.py run` builds them (hicann_by_hand.project), every float dtype of the definition (float32, float16, bfloat16),
irregular shapes, inputs drawn from each function's domain, and the precision rule CANN's own operator tests use
(NPUKernelBench's: |got - want| <= rtol * max(1, |want|), rtol 1/512 half, 1/256 bfloat16, 1/2048 float). The
reference is the PyTorch function of the same meaning on the same (rounded) inputs, in float64.

    python examples/corpus/hicann_elementwise.py [--only NAME ...] [--keep DIR] [--git OWNER/NAME=DIR]

Prints one line per (op, dtype, shape): the tiling key and block dim the op's TilingFunc chose, the worst error in units
of the allowed one, and the verdict; a run error prints the emulator's first diagnostic.
"""
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).parent))
from hicann_by_hand import project, run_ops_main  # noqa: E402

from ascendcraft.opproject import run_project  # noqa: E402

MATH, NN = "hicann/ops-math", "hicann/ops-nn"
RTOL = {"float16": 1 / 512, "bfloat16": 1 / 256, "float32": 1 / 2048}
MANTISSA = {"float16": 10, "bfloat16": 7, "float32": 23}
TORCH = {"DT_FLOAT": torch.float32, "DT_FLOAT16": torch.float16, "DT_BF16": torch.bfloat16}
SHAPES = ((3, 37, 129), (4096 + 7,))
WIDE, POSITIVE, UNIT = (-3.0, 3.0), (0.05, 4.0), (-0.95, 0.95)

# name: (repo, path, reference on float64 tensors, the inputs' domain)
OPS = {
    "relu": (NN, "experimental/activation/relu", torch.relu, WIDE),
    "sigmoid": (NN, "experimental/activation/sigmoid", torch.sigmoid, WIDE),
    "softsign": (NN, "experimental/activation/softsign", torch.nn.functional.softsign, WIDE),
    "selu": (NN, "experimental/activation/selu", torch.selu, WIDE),
    "mish": (NN, "experimental/activation/mish", torch.nn.functional.mish, WIDE),
    "exp": (MATH, "experimental/math/exp", torch.exp, WIDE),
    "log": (MATH, "experimental/math/log", torch.log, POSITIVE),
    "sqrt": (MATH, "experimental/math/sqrt", torch.sqrt, POSITIVE),
    "rsqrt": (MATH, "experimental/math/rsqrt", torch.rsqrt, POSITIVE),
    "reciprocal": (MATH, "experimental/math/reciprocal", torch.reciprocal, POSITIVE),
    "sinh": (MATH, "experimental/math/sinh", torch.sinh, WIDE),
    "asinh": (MATH, "experimental/math/asinh", torch.asinh, WIDE),
    "acos": (MATH, "experimental/math/acos", torch.acos, UNIT),
    "erf": (MATH, "experimental/math/erf", torch.erf, WIDE),
    "neg": (MATH, "experimental/math/neg", torch.neg, WIDE),
    "floor": (MATH, "experimental/math/floor", torch.floor, WIDE),
    "sign": (MATH, "experimental/math/sign", torch.sign, WIDE),
    "mul_v2": (MATH, "experimental/math/mul_v2", torch.mul, WIDE),
    "sub_v2": (MATH, "experimental/math/sub_v2", torch.sub, WIDE),
    "div_v2": (MATH, "experimental/math/div_v2", torch.div, POSITIVE),
    "maximum_v2": (MATH, "experimental/math/maximum_v2", torch.maximum, WIDE),
    "minimum": (MATH, "experimental/math/minimum", torch.minimum, WIDE),
    "atan2": (MATH, "experimental/math/atan2", torch.atan2, WIDE),
    "pow": (MATH, "experimental/math/pow", torch.pow, POSITIVE),
}


def run_op(g, name: str) -> list[str]:
    repo, path, fn, (lo, hi) = OPS[name]
    try:
        proj, settings = project(repo, path, *g)
    except AssertionError as e:
        return [f"{name}: PROJECT DOES NOT BUILD ({str(e).splitlines()[-1][:200]})"]
    ins, out = proj.op.inputs, proj.op.outputs[0]
    lines = []
    columns = [k for k, dt in enumerate(ins[0].dtypes) if dt in TORCH]
    seen = set()
    for k in columns:
        dts = tuple(p.dtypes[k] if k < len(p.dtypes) else p.dtypes[0] for p in ins)
        if dts in seen or any(dt not in TORCH for dt in dts): continue
        seen.add(dts)
        for si, shape in enumerate(SHAPES):
            rng = np.random.default_rng(hash((name, dts, si)) % 2 ** 32)
            tensors = {p.name: torch.from_numpy(rng.uniform(lo, hi, shape)).to(TORCH[dt]) for p, dt in zip(ins, dts)}
            want = fn(*(t.double() for t in tensors.values()))
            odt = str(TORCH[out.dtypes[k] if k < len(out.dtypes) else out.dtypes[0]]).removeprefix("torch.")
            t0 = time.time()
            r = run_project(proj, tensors, outputs={out.name: (tuple(want.shape), odt if odt == "bfloat16" else np.dtype(odt))}, settings=settings)
            label = f"{name} {'/'.join(str(TORCH[d]).removeprefix('torch.') for d in dts)} {list(shape)}"
            if not r.run.ok:
                errs = [d for d in r.run.diagnostics if d.severity == "error"] or r.run.diagnostics
                lines.append(f"{label}: ERROR {errs[0].render().splitlines()[0][:300] if errs else r.run}")
                continue
            got = torch.as_tensor(r.outputs[out.name]).to(torch.float64) if odt != "bfloat16" else \
                torch.from_numpy(np.asarray(r.outputs[out.name]).view(np.int16)).view(torch.bfloat16).double()
            w = want.to(getattr(torch, odt)).double() if odt in RTOL else want    # the reference rounded to the output's dtype
            allowed = RTOL.get(odt, 0) * torch.clamp(w.abs(), min=1.0)
            err = (got.reshape(w.shape) - w).abs()
            bad = int((err > allowed).sum())
            worst = float((err / allowed.clamp(min=1e-30)).max())
            verdict = "match" if bad == 0 else f"MISMATCH ({bad} of {err.numel()})"
            if bad and odt in MANTISSA:     # say when every difference is one unit in the last place (a rounding choice)
                ulp = torch.exp2(torch.floor(torch.log2(w.abs().clamp(min=2.0 ** -14))) - MANTISSA[odt])
                if bool((err <= ulp).all()): verdict += ", each within 1 ulp of the output dtype"
            lines.append(f"{label}: key {r.tiling_key}, block_dim {r.block_dim}, {time.time() - t0:.0f} s: "
                         f"{verdict} (worst {worst:.2f} of allowed)")
    return lines or [f"{name}: no float dtype column"]


def main(argv=None) -> int:
    return run_ops_main(__doc__, OPS, run_op, argv)


if __name__ == "__main__":
    sys.exit(main())
