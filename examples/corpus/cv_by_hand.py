"""hicann ops-cv's interpolation ops that resample on the cube (the Matmul API: the input times a weight matrix the
vector cores build, one matmul per direction) run whole on the emulator, their TilingFunc and kernel, against
torch.nn.functional.interpolate, as each op's unit test makes its golden (tests/ut/op_kernel/<op>_data/gen_data.py:
inputs np.random.random, in [0, 1); the golden interpolate's in float32, cast to the dtype; for the gradient, the
input's gradient under a torch.rand_like grad_output) and checks it (compare_data.py: np.isclose, rtol 1e-4 for
float32 and 1e-2 for float16 / bfloat16 with atol 0 for bilinear, bilinear antialias (and its gradient) and linear;
rtol = atol = 1e-2 for bicubic, trilinear and the other gradients).

- upsample_bilinear2d: x [N, C, H, W], the output size as the int32 input `size`, scales [0, 0] (from the sizes);
- upsample_linear1d: x [N, C, W], `size` [W_out], scale 0;
- upsample_bicubic2d, upsample_bicubic2d_aa and upsample_bilinear2d_aa (antialias): the output size as the attribute
  output_size, scales 0;
- upsample_bilinear2d_grad, upsample_bilinear2d_aa_backward, upsample_bicubic2d_aa_grad: grad_output
  [N, C, H_out, W_out] to grad_input [N, C, H, W], output_size and input_size attributes;
- resize_upsample_trilinear and upsample_trilinear3d_backward: the same in 3-D, [N, C, D, H, W], scales 0.

    python examples/corpus/cv_by_hand.py [--only OP] [--keep DIR] [--git hicann/ops-cv=DIR]"""
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).parent))
from hicann_by_hand import project, run_ops_main, run_or_error  # noqa: E402

REPO = "hicann/ops-cv"
# op -> (its folder, interpolate's mode, antialias, rtol by dtype, atol)
OPS = {"upsample_bilinear2d": ("image/upsample_bilinear2d", "bilinear", False, {"float32": 1e-4}, 0.0),
       "upsample_linear1d": ("image/upsample_linear1d", "linear", False, {"float32": 1e-4}, 0.0),
       "upsample_bicubic2d": ("image/upsample_bicubic2d", "bicubic", False, {}, 0.01),
       "upsample_bicubic2d_aa": ("image/upsample_bicubic2d_aa", "bicubic", True, {}, 0.01),
       "upsample_bilinear2d_aa": ("image/upsample_bilinear2d_aa", "bilinear", True, {"float32": 1e-4}, 0.0),
       "upsample_bilinear2d_grad": ("image/upsample_bilinear2d_grad", "bilinear", False, {}, 0.01),
       "upsample_bilinear2d_aa_backward": ("image/upsample_bilinear2d_aa_backward", "bilinear", True, {"float32": 1e-4}, 0.0),
       "upsample_bicubic2d_aa_grad": ("image/upsample_bicubic2d_aa_grad", "bicubic", True, {}, 0.01),
       "resize_upsample_trilinear": ("image/resize_upsample_trilinear", "trilinear", False, {}, 0.01),
       "upsample_trilinear3d_backward": ("image/upsample_trilinear3d_backward", "trilinear", False, {}, 0.01)}
# the scale attributes of the ops that take the output size as an attribute (0: from the sizes)
SCALES = {"resize_upsample_trilinear": ("scales_d", "scales_h", "scales_w"),
          "upsample_trilinear3d_backward": ("scale_d", "scale_h", "scale_w")}
TORCH = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}


def cases(op: str):
    "(input shape, output size, align_corners, dtype): up and down, unaligned sizes, each dtype."
    if "trilinear" in op:
        yield (1, 2, 5, 6, 7), (9, 4, 11), False, "float32"
        yield (2, 3, 4, 8, 5), (7, 12, 3), True, "float16"
        yield (1, 4, 6, 5, 9), (3, 10, 14), False, "bfloat16"
        return
    if op == "upsample_linear1d":
        yield (2, 3, 37), (90,), False, "float32"
        yield (1, 16, 64), (21,), True, "float16"
        yield (3, 5, 20), (33,), False, "bfloat16"
        return
    yield (2, 3, 10, 12), (17, 25), False, "float32"
    yield (1, 4, 16, 16), (8, 40), True, "float32"
    yield (1, 8, 9, 30), (20, 13), False, "float16"
    yield (2, 2, 12, 7), (5, 19), True, "bfloat16"


def run_cv(g_, name: str):
    path, mode, aa, rtols, atol = OPS[name]
    proj, settings = project(REPO, path, *g_)
    for seed, (shape, size, align, dtype) in enumerate(cases(name)):
        rng = np.random.default_rng(200 + seed)
        x = torch.from_numpy(rng.random(shape).astype(np.float32)).to(TORCH[dtype])
        out_shape = (*shape[:-len(size)], *size)
        grad = name.endswith(("_grad", "_backward"))
        xf = x.float().requires_grad_(grad)
        golden = torch.nn.functional.interpolate(xf, size=size, mode=mode, align_corners=align, antialias=aa)
        if grad:
            grad_out = torch.from_numpy(rng.random(out_shape).astype(np.float32)).to(TORCH[dtype])
            golden.backward(grad_out.float())
            golden, out_shape = xf.grad, shape
        want = golden.detach().to(TORCH[dtype]).double().numpy()
        scales = dict.fromkeys(SCALES.get(name, ("scales_h", "scales_w")), 0.0)
        if grad:
            inputs = {"grad_output": grad_out}
            attrs = {"output_size": list(size), "input_size": list(shape), "align_corners": align, **scales}
        elif name in ("upsample_bilinear2d", "upsample_linear1d"):
            inputs = {"x": x, "size": np.array(size, np.int32)}
            attrs = {"align_corners": align, ("scales" if len(size) == 2 else "scale"): [0.0, 0.0] if len(size) == 2 else 0.0}
        else:
            inputs = {proj.op.inputs[0].name: x}
            attrs = {"output_size": list(size), "align_corners": align, **scales}
        out = proj.op.outputs[0].name
        label = f"{name} {dtype} {list(shape)} -> {list(size)}{' align_corners' if align else ''}"
        t0 = time.perf_counter()
        r, failed = run_or_error(label, proj, inputs, attrs=attrs, outputs={out: (out_shape, dtype)}, settings=settings)
        if failed:
            yield failed
            continue
        got = r.outputs[out]
        got = (torch.from_numpy(got.view(np.int16)).view(torch.bfloat16) if dtype == "bfloat16" else torch.from_numpy(got)).double().numpy()
        rtol = rtols.get(dtype, 1e-2)
        bad = int((~np.isclose(got, want, rtol, atol, True)).sum())
        err = float(np.max(np.abs(got - want) / np.maximum(np.abs(want), 1e-6)))
        yield (f"{label}: key {r.tiling_key}, block_dim {r.block_dim}, {time.perf_counter() - t0:.1f} s: max rel error "
               f"{err:.2e}, {bad} outside rtol {rtol:g} atol {atol:g} {'match' if bad == 0 else 'MISMATCH'}")


if __name__ == "__main__":
    raise SystemExit(run_ops_main(__doc__, list(OPS), run_cv))
