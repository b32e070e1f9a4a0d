"""The asc-devkit examples whose host side is a PyTorch extension (00_framework/00_pytorch: pybind11 or TORCH_LIBRARY
over torch_npu; 04_profiling/torch_library_report_tensor), run as their READMEs run them, with AscendCraft's torch_npu
stand-in (ascendcraft/runtime/torch_npu_standin) on PYTHONPATH: the example's CMake targets built by the stand-in
(`python -m torch_npu._ascendcraft_build build ..` in its build folder, for `cmake ..; make`), then the README's own
test script (`python3 ../add_custom_test.py`; under msopprof, its --application), unchanged. Each kernel launch of the
script runs on the emulator with its checks. The verdict is the script's: unittest's OK with at least one launch is a
pass; a launch that stopped (or wrote nothing) is a run error; a failed assertion is a mismatch. Called by corpus.py's
match_asc_host for an example whose target includes torch's or pybind11's headers."""
import os
import posixpath
import re
import subprocess
import sys
import tempfile
from pathlib import Path

STANDIN_NOTE = "the example's own test script, with AscendCraft's torch_npu stand-in"


def standin_dir() -> Path:
    "The torch_npu stand-in's folder: on PYTHONPATH first, `import torch_npu` takes it."
    import ascendcraft
    return Path(ascendcraft.__file__).parent / "runtime" / "torch_npu_standin"


def standin_env(*paths: str) -> dict:
    "The environment for a build or script under the stand-in: the stand-in, then `paths`, ahead of PYTHONPATH."
    return dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(standin_dir()), *paths,
                                                                     os.environ.get("PYTHONPATH", "")])))


def binds_pytorch(text: str) -> bool:
    "Whether a source includes torch's, torch_npu's or pybind11's headers (its host side is a PyTorch extension)."
    return re.search(r'(?m)^[ \t]*#\s*include\s*[<"](?:torch/|torch_npu/|pybind11/)', text) is not None


def readme_script(readme: str) -> str | None:
    "The test script the README runs from its build folder (`python3 ../x.py`, also inside msopprof's --application)."
    m = re.search(r"\bpython3?\s+(\.\./[\w./-]+\.py)\b", readme)
    return m.group(1) if m else None


def _last(text: str, pattern: str) -> str:
    found = re.findall(pattern, text, re.M)
    return found[-1].strip() if found else ""


def match_torch_extension(entry: dict, gitdir: str, readme: str, show, git) -> dict:
    "The verdict of an example whose host side is a PyTorch extension (`show` / `git`: corpus.py's readers)."
    commit, folder = entry["commit"], posixpath.dirname(entry["path"])
    script = readme_script(readme)
    if script is None: return dict(match="no-reference", match_detail="the README runs no Python test script")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "example"
        for f in git(gitdir, "ls-tree", "-r", "--name-only", commit, "--", folder + "/").splitlines():
            dest = src / posixpath.relpath(f, folder)
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(show(gitdir, commit, f))
        build = src / "build"
        build.mkdir()
        made = subprocess.run([sys.executable, "-m", "torch_npu._ascendcraft_build", "build", ".."], cwd=build, env=standin_env(),
                              capture_output=True, text=True, timeout=3600)
        if made.returncode != 0:
            said = _last(made.stderr, r"^build failed: .*$") or made.stderr.strip()[-200:]
            if re.search(r"graph/|\bge::|gert::", said):
                said += " (GE's graph API, which the emulation does not have)"
            return dict(match="no-reference", match_detail=f"torch extension: {said}"[:300])
        ran = subprocess.run([sys.executable, script], cwd=build, env=env, capture_output=True, text=True, timeout=3600)
    out = ran.stdout + "\n" + ran.stderr
    launches = len(re.findall(r"^ascendcraft: .*<<<\d+>>> ran on the emulator", ran.stderr, re.M))
    if m := re.search(r"No module named '(torchair|torch_npu\.\w+)'", out):
        return dict(match="no-reference", match_detail=f"{posixpath.basename(script)} needs {m.group(1)}, which the "
                                                       "torch_npu stand-in does not emulate")
    stopped = _last(out, r"(?:RuntimeError: )?(the kernel '.*' (?:stopped on the emulator|wrote no GM byte).*)$")
    if stopped: return dict(match="run-error", match_detail=stopped[:300])
    summary = _last(ran.stderr, r"^Ran \d+ tests? in .*$")
    if ran.returncode == 0 and re.search(r"(?m)^OK\b", ran.stderr) and launches:
        return dict(match="pass", match_detail=f"{posixpath.basename(script)}: {summary.split(' in ')[0]}, OK, "
                                               f"{launches} launch{'es' if launches > 1 else ''} on the emulator ({STANDIN_NOTE})")
    if ran.returncode == 0 and not launches:
        return dict(match="no-reference", match_detail=f"{posixpath.basename(script)} passed without launching a kernel")
    failed = _last(out, r"^(?:AssertionError|RuntimeError|\w+Error): .*$") or _last(out, r"^\S.*$")
    return dict(match="mismatch", match_detail=f"{posixpath.basename(script)} exit status {ran.returncode}: {failed}"[:300])
