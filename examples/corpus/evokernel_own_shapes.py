"""EvoKernel's op projects (LLM-made, passed on their 910B at KernelBench's one shape) run as a newcomer runs a project
of their own: `ascendcraft op FOLDER` with an `ascendcraft_case.py` written here, at shapes of our choosing (irregular
ones included), against PyTorch. The projects are materialised from the mirror at the corpus's pinned commit (never
copied into this repository); only the case files below are ours.

    python examples/corpus/evokernel_own_shapes.py [--git KernelHive/ascendc-skill=<git dir>] [--only NAME] [--keep DIR]

A kernel written for one shape may be wrong at another: a failing case is a finding about the kernel only when the
emulator's diagnostic names an AscendC rule it breaks there (printed under the case).
"""
import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import corpus  # noqa: E402

from ascendcraft import opproject  # noqa: E402

REPO = "KernelHive/ascendc-skill"
FOLDER = "skills/ascend-kernel-generator/reference/ref_repositories/EvoKernel/ops-kernelbench-910b"

# op project -> its case file (inputs by the OpDef's names; the reference is the KernelBench task's computation)
CASES = {
    "MatmulWithTransposedBCustom": '''import torch
def reference(a, b):
    return a @ b.T
def cases():
    g = torch.Generator().manual_seed(0)
    for m, n, k in ((128, 96, 64), (200, 130, 72)):
        yield dict(name=f"{m}x{n}x{k}", inputs={"a": torch.randn(m, k, generator=g), "b": torch.randn(n, k, generator=g)},
                   atol=1e-3, rtol=1e-3)
''',
    "RmsNormCustom": '''import torch
def reference(x):
    return x / torch.sqrt(torch.mean(x * x, dim=1, keepdim=True) + 1e-5)
def cases():
    g = torch.Generator().manual_seed(0)
    for shape in ((4, 64, 16, 16), (3, 37, 5, 77), (2, 8, 1000)):
        yield dict(name="x".join(map(str, shape)), inputs={"x": torch.randn(*shape, generator=g) * 3 - 1}, atol=1e-4, rtol=1e-4)
''',
    "SoftmaxCustom": '''import torch
def reference(x):
    return torch.softmax(x, dim=-1)
def cases():
    g = torch.Generator().manual_seed(1)
    for shape in ((16, 1000), (7, 4096), (3, 5, 129)):
        yield dict(name="x".join(map(str, shape)), inputs={"x": torch.randn(*shape, generator=g) * 4}, atol=1e-5, rtol=1e-4)
''',
    "CumsumCustom": '''import torch
def reference(x):
    return torch.cumsum(x, dim=1)
def cases():
    g = torch.Generator().manual_seed(2)
    for shape in ((16, 1000), (5, 4096), (33, 77)):
        yield dict(name="x".join(map(str, shape)), inputs={"x": torch.randn(*shape, generator=g)}, atol=1e-3, rtol=1e-4)
''',
    "MaxPooling2dCustom": '''import torch
def reference(x):
    return torch.nn.functional.max_pool2d(x, kernel_size=4, stride=1, padding=1, dilation=1)
def cases():
    g = torch.Generator().manual_seed(3)
    for shape in ((2, 3, 16, 16), (1, 4, 33, 20)):
        yield dict(name="x".join(map(str, shape)), inputs={"x": torch.randn(*shape, generator=g)}, atol=0, rtol=0)
''',
    "LayerNormCustom": '''import torch
def reference(x):
    return torch.nn.functional.layer_norm(x, x.shape[-3:], eps=1e-5)
def cases():
    g = torch.Generator().manual_seed(4)
    for shape in ((4, 8, 16, 16), (3, 5, 7, 9)):
        yield dict(name="x".join(map(str, shape)), inputs={"x": torch.randn(*shape, generator=g) * 2 + 1}, atol=1e-4, rtol=1e-4)
''',
}


def materialise(op: str, git: str, commit: str, dest: Path) -> Path:
    "The op's project folder from the mirror at `commit` (git archive of that folder only), with our case file."
    folder = dest / op
    folder.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", f"--git-dir={git}", "archive", commit, f"{FOLDER}/{op}"], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "x", "--strip-components", str(FOLDER.count("/") + 2), "-C", str(folder)], input=archive,
                   check=True)
    (folder / opproject.CASE_FILE).write_text(CASES[op])
    return folder


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--git", action="append", default=[], metavar="OWNER/NAME=GITDIR")
    ap.add_argument("--only", action="append", metavar="NAME")
    ap.add_argument("--keep", type=Path, metavar="DIR", help="materialise here and keep the folders")
    args = ap.parse_args(argv)
    given = dict(g.split("=", 1) for g in args.git)
    git = given.get(REPO, f"/work/.mirror/{REPO.replace('/', '+')}/repo")
    commit = next(e["commit"] for e in json.loads(corpus.MANIFEST.read_text()) if e["repo"] == REPO)
    ops = args.only or list(CASES)
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        total = matched = 0
        for op in ops:
            folder = materialise(op, git, commit, root)
            for name, r in opproject.run_cases(folder):
                total += 1
                matched += r.ok
                print(f"{op} {name}: {'match' if r.ok else 'FAILED'}", flush=True)
                if not r.ok:
                    # the errors, else the warnings that explain a difference (a copy the NPU rounds down, ...)
                    said = [d for d in r.run.diagnostics if d.severity == "error"] or r.run.diagnostics
                    for d in said[:2]:
                        print(f"    {d.severity} {d.kind} at {d.file}:{d.line}: {d.message[:160]}")
                    for k, v in list(r.mismatches.items())[:2]:
                        print(f"    {k}: {str(v)[:160]}")
        print(f"{matched} of {total} cases match ({len(ops)} projects, {REPO} at {commit[:7]})")


if __name__ == "__main__":
    main()
