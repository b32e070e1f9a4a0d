"""ascendc-optim-agent's kernels (Lulili520/ascendc-optim-agent, community.py) run on the emulator with the repository's
own data and check: its `scripts/gen_data.py` (inputs and golden files, its `golden.py`), then the kernel launched as the
op's host program (`op_host/<Op>.asc`) launches it on the NPU, then its `scripts/verify_result.py` on the output file.

Only the host program's tiling and launch are restated here, per op (`TILINGS`: the tiling struct's fields in order, the
block count, the launch's arguments); the kernel, the data and the verdict are the repository's, read at the manifest's
commit and never copied. Erfc keeps no scripts: its cases make their data and golden here and use the agent's own
precision rule (`erfc_case`, `mere_mare`). The host programs ask ACL for the vector core count
(ACL_DEV_ATTR_VECTOR_CORE_NUM): 48 on the 910B (A2), the count used here.

    python examples/corpus/optim_agent_by_hand.py [--only PATH] [--git Lulili520/ascendc-optim-agent=GITDIR]
"""
import argparse
import json
import os
import posixpath
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import corpus  # noqa: E402

REPO = "Lulili520/ascendc-optim-agent"
VECTOR_CORES = 48


def _pack(fields) -> np.ndarray:
    "A C struct's bytes from (ctype, value) fields in declaration order, with C's natural alignment."
    out = b""
    for ctype, value in fields:
        fmt = {"u32": "<I", "u64": "<Q", "f32": "<f"}[ctype]
        size = struct.calcsize(fmt)
        out += b"\0" * (-len(out) % size) + struct.pack(fmt, value)
    return np.frombuffer(out + b"\0" * (-len(out) % 8), np.uint8)


def diag_part_tiling(n: int):
    "op_host/DiagPart.asc: tiles of TILE_LENGTH (128) diagonal elements spread over the cores."
    tile = 128
    tiles = (n + tile - 1) // tile
    per = (tiles + VECTOR_CORES - 1) // VECTOR_CORES
    blocks = (tiles + per - 1) // per
    num_per_core = per * tile
    fields = [("u32", blocks), ("u64", n), ("u64", num_per_core), ("u64", n - num_per_core * (blocks - 1)), ("u64", n)]
    return blocks, _pack(fields)


def scan_tiling(b: int, t: int, f: int, dim: int, tile_max: int, exclusive_reverse: bool):
    "op_host/Cumsum.asc and Cummin.asc: lane groups of up to tile_max features, spread over the cores."
    tile = min(f, tile_max)
    f_tiles = (f + tile - 1) // tile
    groups = t * f_tiles if dim == 0 else b * f_tiles if dim == 1 else b * t
    blocks = min(groups, VECTOR_CORES)
    per = groups // blocks
    fields = [("u32", v) for v in (blocks, dim, b, t, f, b * t * f, tile, groups, per, groups - per * (blocks - 1))]
    if exclusive_reverse: fields += [("u32", 0), ("u32", 0)]
    return blocks, _pack(fields)


def complex_tiling(n: int):
    "op_host/Complex.asc: tiles of TILE_LENGTH (4096) spread over the cores, the last core's tail."
    tile = 4096
    tiles = (n + tile - 1) // tile
    blocks = max(min(tiles, VECTOR_CORES), 1)
    per = (tiles + blocks - 1) // blocks * tile
    return blocks, _pack([("u32", blocks), ("u64", n), ("u32", per), ("u32", n - per * (blocks - 1))])


def addr_tiling(work: Path, m: int, n: int):
    """op_host/Addr.asc: rows spread over the cores, a row in tiles of UB_FORMER (1024) or n rounded up to 16; alpha and
    beta are read from the files gen_data.py wrote (the host reads input/input_alpha.bin, input_beta.bin)."""
    cores = max(min(m, VECTOR_CORES), 1)
    rows = (m + cores - 1) // cores
    blocks = max(min((m + rows - 1) // rows, cores), 1)
    ub = 1024 if n >= 1024 else (n + 15) // 16 * 16
    alpha = float(np.fromfile(work / "input/input_alpha.bin", np.float32)[0])
    beta = float(np.fromfile(work / "input/input_beta.bin", np.float32)[0])
    fields = [("u32", v) for v in (m, n, blocks, rows, min(m - rows * (blocks - 1), rows), ub)]
    return blocks, _pack(fields + [("f32", alpha), ("f32", beta)])


def addr_case(name: str, m: int, n: int) -> dict:
    "run.sh's steps for one case: gen_data.py writes every case's files; the host reads them through input/<name>.bin links."
    links = {f"input/input_{k}.bin": f"input/input_{k}_{name}.bin" for k in ("x1", "x2", "x3", "alpha", "beta")}
    return dict(label=f"half [{m}, {n}] ({name})", gen=[], env={}, links=links,
                inputs=["input/input_x1.bin", "input/input_x2.bin", "input/input_x3.bin"],
                outputs=[("output/output.bin", m * n * 2)], verify=["output/output.bin", f"output/golden_{name}.bin"],
                tiling=lambda work: addr_tiling(work, m, n))


def erfc_tiling(n: int):
    "op_host/Erfc.asc: blocks of 2048 elements per core at most 48 cores, each core's share a multiple of 512."
    cores = max(min((n + 2047) // 2048, VECTOR_CORES), 1)
    per = ((n + cores - 1) // cores + 511) // 512 * 512
    blocks = max(min((n + per - 1) // per, cores), 1)
    ub = min(5776, per) // 16 * 16
    return blocks, _pack([("u64", n), ("u32", blocks), ("u32", per), ("u32", min(n - per * (blocks - 1), per)),
                          ("u32", ub), ("u32", ub * 12 * 2)])


def mere_mare(got: np.ndarray, want: np.ndarray) -> tuple[bool, str]:
    """The agent's precision rule (.claude/skills/precision-verify/scripts/verify_result.py, restated): mean relative
    error under 2^-10 (half) and the largest under ten times that, relative to |golden| + 1e-7."""
    g, w = got.astype(np.float64), want.astype(np.float64)
    rel = np.abs(g - w) / (np.abs(w) + 1e-7)
    mere, mare = float(rel.mean()), float(rel.max())
    return mere < 2 ** -10 and mare < 10 * 2 ** -10, f"MERE {mere:.3g}, MARE {mare:.3g} (limits {2 ** -10:.3g}, {10 * 2 ** -10:.3g})"


def erfc_case(n: int) -> dict:
    """Erfc keeps no scripts in the repository: inputs in [-3, 3] (erfc above 3 falls under half's smallest numbers),
    the float64 erfc as the golden rounded to half, and the agent's own MERE / MARE rule."""
    import math

    def make(rng):
        x = rng.uniform(-3, 3, n).astype(np.float16)
        return [x], [np.vectorize(math.erfc)(x.astype(np.float64)).astype(np.float16)]
    return dict(label=f"half [{n}]", numpy=make, check=mere_mare, outputs=[("y", n * 2)],
                tiling=lambda work: erfc_tiling(n))


def cummin_cases(idx_bytes: int):
    """Cummin's own gen_data.py takes B T F dim; the argmin output is int64 in the op's first version (its host allocates
    8 bytes an index), int32 from round 1. The verify_result.py of every version reads int32 indices, so the first
    version's int64 indices are narrowed to int32 before the check (`narrow`)."""
    out = []
    for b, t, f, dim in ((4, 64, 256, 1), (2, 48, 96, 2), (16, 8, 64, 0)):
        n = b * t * f
        out.append(dict(label=f"half [{b}, {t}, {f}] dim {dim}", gen=[str(v) for v in (b, t, f, dim)], env={},
                        inputs=["input/input_x.bin"],
                        outputs=[("output/output_y.bin", n * 2), ("output/output_argmin.bin", n * idx_bytes)], verify=[],
                        narrow={"output/output_argmin.bin"} if idx_bytes == 8 else set(),
                        tiling=lambda work, b=b, t=t, f=f, dim=dim: scan_tiling(b, t, f, dim, 512, False)))
    return out


# kernel path -> its cases: gen_data.py's arguments / TEST_CASE, links run.sh makes, the inputs and outputs as the host
# program names its files, verify_result.py's arguments, and the tiling (block count and struct bytes) given the work folder
CASES = {
    "operaters/DiagPart/op_kernel/DiagPart_kernel.asc": [
        dict(label="half [128, 128]", gen=["128"], env={}, inputs=["input/input_x.bin"], outputs=[("output/output.bin", 128 * 2)],
             verify=["output/output.bin", "output/golden.bin"], tiling=lambda work: diag_part_tiling(128))],
    "operaters/Cumsum/op_kernel/Cumsum_kernel.asc": [
        dict(label="half [8, 1024, 256] dim 1", gen=[], env={"TEST_CASE": "0"}, inputs=["input/input_x.bin"],
             outputs=[("output/output_y.bin", 8 * 1024 * 256 * 2)], verify=["output/output_y.bin", "output/golden_y.bin"],
             tiling=lambda work: scan_tiling(8, 1024, 256, 1, 4096, True))],
    "operaters/Complex/op_kernel/Complex_kernel.asc": [
        dict(label=f"half [{n}]", gen=[str(n)], env={}, inputs=["input/input_real.bin", "input/input_imag.bin"],
             outputs=[("output/output.bin", n * 4)], verify=["output/output.bin", "output/golden.bin"],
             tiling=lambda work, n=n: complex_tiling(n)) for n in (8192, 100000)],
    "operaters/Addr/op_kernel/Addr_kernel.asc": [addr_case("case1", 512, 1024)],
    "Erfc/op_kernel/Erfc_kernel.asc": [erfc_case(8192), erfc_case(100000)],
    "log/Erfc/round_004/code_snapshot/Erfc_kernel.asc": [erfc_case(8192), erfc_case(100000)],
    "Cummin/op_kernel/Cummin_kernel.asc": cummin_cases(8),
    **{f"log/Cummin/round_00{k}/op_kernel/Cummin_kernel.asc": cummin_cases(4) for k in (1, 2, 3, 5)},
}


def run_numpy_case(kb, case: dict) -> str:
    "A case with inputs and golden made here (`numpy`) and its own check, for a kernel whose op keeps no scripts."
    from ascendcraft.emu import GM, run
    inputs, golden = case["numpy"](np.random.default_rng(3000))
    blocks, tiling = case["tiling"](None)
    names = [p.name for p in kb.params]
    args = [GM(names[i], x) for i, x in enumerate(inputs)]
    args += [GM(names[len(inputs) + i], np.zeros(size, np.uint8), "out") for i, (_, size) in enumerate(case["outputs"])]
    r = run(kb, args + [GM(names[-1], tiling)], block_dim=blocks)
    if not r.ok:
        first = next((d for d in r.diagnostics if d.is_error), None)
        return f"ERROR {first.render()[:300] if first else r}"
    verdicts = [case["check"](r.outputs[names[len(inputs) + i]].view(g.dtype), g) for i, g in enumerate(golden)]
    ok = all(v[0] for v in verdicts)
    return f"block_dim {blocks}: {'match' if ok else 'MISMATCH'} ({'; '.join(v[1] for v in verdicts)})"


def run_case(entry: dict, gitdir: str, kb, case: dict) -> str:
    from ascendcraft.emu import GM, run
    if "numpy" in case: return run_numpy_case(kb, case)
    folder = posixpath.dirname(posixpath.dirname(entry["path"]))   # operaters/<Op>
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "scripts").mkdir()
        for f in corpus.git(gitdir, "ls-tree", "--name-only", entry["commit"], "--", folder + "/scripts/").splitlines():
            if f.endswith(".py"): (root / "scripts" / posixpath.basename(f)).write_bytes(corpus.show(gitdir, entry["commit"], f))
        work = root / "build"
        work.mkdir()
        env = dict(os.environ, **case["env"])
        gen = subprocess.run([sys.executable, "../scripts/gen_data.py", *case["gen"]], cwd=work, env=env,
                             capture_output=True, text=True, timeout=600)
        if gen.returncode: return f"ERROR gen_data.py: {(gen.stderr or gen.stdout)[-200:]}"
        for link, target in case.get("links", {}).items(): os.symlink(work / target, work / link)
        blocks, tiling = case["tiling"](work)   # the host's tiling, from the case's shape (and files the host reads)
        names = [p.name for p in kb.params]
        args = [GM(names[i], np.fromfile(work / f, np.uint8)) for i, f in enumerate(case["inputs"])]
        k = len(args)
        args += [GM(names[k + i], np.zeros(size, np.uint8), "out") for i, (_, size) in enumerate(case["outputs"])]
        args.append(GM(names[-1], tiling))
        r = run(kb, args, block_dim=blocks)
        if not r.ok:
            first = next((d for d in r.diagnostics if d.is_error), None)
            return f"ERROR {first.render()[:300] if first else r}"
        for f, _ in case["outputs"]:
            got = r.outputs[names[k]]
            if f in case.get("narrow", ()): got = got.view(np.int64).astype(np.int32)
            got.tofile(work / f)
            k += 1
        ver = subprocess.run([sys.executable, "../scripts/verify_result.py", *case["verify"]], cwd=work, capture_output=True,
                             text=True, timeout=600)
        said = " ".join((ver.stdout + ver.stderr).split())[:200]
        return f"block_dim {blocks}: {'match' if ver.returncode == 0 else 'MISMATCH'} (verify_result.py: {said})"


def main(argv=None) -> int:
    from ascendcraft.config import load_settings
    from ascendcraft.emu import build, read_sources
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--git", action="append", default=[], metavar="OWNER/NAME=GITDIR")
    ap.add_argument("--only", action="append", default=[])
    a = ap.parse_args(argv)
    gitdir = dict(x.split("=", 1) for x in a.git).get(REPO) or f"/work/.mirror/{REPO.replace('/', '+')}/repo"
    entries = {e["path"]: e for e in json.loads(corpus.MANIFEST.read_text()) if e["repo"] == REPO}
    bad = 0
    for path in a.only or list(CASES):
        entry = entries[path]
        with tempfile.TemporaryDirectory() as tmp:
            corpus.materialise(entry, gitdir, Path(tmp))
            kernel = posixpath.basename(path).rsplit(".", 1)[0]
            kb = build(read_sources(Path(tmp)), kernel, settings=load_settings())
        for case in CASES[path]:
            said = run_case(entry, gitdir, kb, case) if kb.ok else f"ERROR the kernel does not build: {kb.log[-200:]}"
            bad += "match" not in said or "MISMATCH" in said
            print(f"{path} {case['label']}: {said}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
