"""Record the LLM replies of the workbench tutorial (nbs/52_tutorial.ipynb) into this folder.

There is no LLM endpoint where AscendCraft is developed, so the answers below were written by the
AscendCraft developers: what an Ascend C expert would answer to the tutorial's two requests (fix a
compile error in a hand-edited snapshot; propose a faster leaky_relu). This script serves them from
a local `FakeLLMServer`, runs the tutorial against it with a fresh cache, and copies the replies
the tutorial's client cached into this folder (other recordings here are left alone). Run it again
whenever the tutorial's prompts change (a change in the DSL guide, the prompts, the lowering, the
compiler's messages or the cost model changes the requests, and the tutorial, replaying only, then
stops with `llm-cache-miss`):

    .venv/bin/python examples/llm_cache/record_tutorial.py

It takes a minute or two: the fresh cache compiles the emulator's runtime and every snapshot again.
"""
from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TUTORIAL = ROOT / "nbs" / "52_tutorial.ipynb"

BROKEN_COPY_IN = "DataCopyPad(xinLocal, xGm[off], DataCopyExtParams(1, n * sizeof(float), 0, 0, 0));"
FIXED_COPY_IN = ("DataCopyPad(xinLocal, xGm[off], DataCopyExtParams(1, n * sizeof(float), 0, 0, 0), "
                 "DataCopyPadExtParams<float>(false, 0, 0, 0));")

FIX_ANSWER = """\
The copy-in calls the GM→UB form of `DataCopyPad`, and that form takes a `DataCopyPadExtParams<T>` \
after the copy parameters: whether to pad, how many elements to pad on the left and on the right, \
and the pad value. The UB→GM form (the copy-out) has no pad parameters, so it is right as written. \
Nothing needs padding here (the copy only has to accept a length that is not a whole number of \
32-byte blocks), so pass `DataCopyPadExtParams<float>(false, 0, 0, 0)`:

```cpp title=leaky_relu_kernel.cpp
{kernel}
```
"""

TUNE_ANSWER = """\
The kernel is memory-bound and already at the HBM bound: MTE2 is busy for practically the whole \
kernel and the 12.9 GB it moves need about as long at the chip's bandwidth, while the vector work \
hides behind the double-buffered copies. No change of the computation can beat that bound; what is \
left is per-tile overhead. Larger tiles — 10240 elements, so the two input and two output buffers \
of 40 KB take 160 KB of the 192 KB Unified Buffer — cut the number of DMA and vector instructions \
and of queue hand-offs per block by a fifth. Expect the same time within noise: this variant mostly confirms that \
leaky_relu cannot go faster than its memory traffic.

```python
{dsl}
```
"""


def _last_user(request: dict) -> str:
    return next(m["content"] for m in reversed(request["messages"]) if m["role"] == "user")


def answer(request: dict):
    "The expert's answer to one of the tutorial's requests."
    from ascendcraft.llm_server import Fail
    from ascendcraft.session import FIX_SYSTEM
    system, user = request["messages"][0]["content"], _last_user(request)
    if system == FIX_SYSTEM:
        kernel = re.search(r"```cpp title=leaky_relu_kernel\.cpp\n(.*?)\n```", user, re.S).group(1)
        if BROKEN_COPY_IN not in kernel:
            return Fail(400, "record_tutorial.py: the fix request does not hold the tutorial's broken copy-in")
        return FIX_ANSWER.format(kernel=kernel.replace(BROKEN_COPY_IN, FIXED_COPY_IN))
    if "performance engineer" in system:
        dsl = re.search(r"The current kernel \(`[^`]*`\):\n\n```python\n(.*?)\n```", user, re.S).group(1)
        faster = re.sub(r"^TILE = 8192 .*$", "TILE = 10240  # elements per tile: 2 input + 2 output buffers of 40 KB (160 KB of UB)",
                        dsl, flags=re.M)
        if faster == dsl:
            return Fail(400, "record_tutorial.py: the tuning request does not hold the expert leaky_relu kernel")
        return TUNE_ANSWER.format(dsl=faster)
    return Fail(400, "record_tutorial.py: a request the tutorial is not expected to make")


def main() -> int:
    sys.path.insert(0, str(ROOT))
    import nbdev.test as nbt
    from nbdev.config import get_config
    from ascendcraft.llm_server import FakeLLMServer
    from ascendcraft.workbench import RECORDED_MODEL

    work = Path(tempfile.mkdtemp(prefix="ascendcraft-record-"))
    env = {"ASCENDCRAFT_LLM_MODEL": RECORDED_MODEL, "ASCENDCRAFT_LLM_REPLAY_ONLY": "false",
           "ASCENDCRAFT_CACHE_DIR": str(work / "cache")}
    with FakeLLMServer(answer, models=None) as server:
        os.environ.update(env, ASCENDCRAFT_LLM_BASE_URL=server.base_url)
        cfg = get_config(path=ROOT)
        ok, _ = nbt.test_nb(TUTORIAL, skip_flags=cfg.tst_flags.split(), basepath=cfg.config_path)
        asked = len(server.chat_requests)
    # Requests whose recording is still valid were answered from this folder; new ones went to the server
    # and are in the fresh cache. Other recordings in this folder (other notebooks') are never touched.
    recorded = sorted((work / "cache" / "llm").glob("??/*.json"))
    if not ok or asked != len(recorded):
        print(f"recording failed: tutorial ok={ok}, {asked} requests, {len(recorded)} replies cached; "
              f"nothing was changed", file=sys.stderr)
        return 1
    for path in recorded:
        (HERE / path.parent.name).mkdir(exist_ok=True)
        shutil.copy2(path, HERE / path.parent.name / path.name)
    shutil.rmtree(work, ignore_errors=True)
    print(f"recorded {len(recorded)} new replies into {HERE}" + "".join(f"\n  {p.stem[:16]}…" for p in recorded))
    print("recordings of earlier versions of these requests (purpose fix:leaky_relu / tune:leaky_relu) can be deleted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
