"""The steps of the mHC case study (examples/mhc_case_study.ipynb), and the recorder of their LLM replies.

The case study replays its LLM steps from recordings in examples/llm_cache/, so it runs without
an endpoint. No model was available where AscendCraft was developed: the recorded replies were
written by the AscendCraft developers, as an expert assisted by a model would answer, and served
through AscendCraft's OpenAI-compatible test server (`FakeLLMServer`). Point `llm_base_url` at a
real endpoint and the same steps ask a real model instead.

Re-record after changing anything that changes the prompts (the DSL guide, the cost model, the
kernels):  python examples/mhc_case_study.py --record
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VARIANTS = HERE / "mhc" / "variants"
RECORDINGS = HERE / "llm_cache"
MODEL = "scripted-expert"   # the model name the recordings were made under (part of every cache key)

# What the "model" answers, in the order the case study asks.
ANSWERS = [
    ("mhc_post", "stage 1", "mhc_post_v0.py",
     "A first kernel: one work item per token and hidden chunk; the coefficients are read per item and the "
     "bf16 streams are widened to f32 before the S + S*S multiply-adds."),
    ("mhc_post", "tuning", "mhc_post_v1.py",
     "The timeline shows MTE2, V and MTE3 taking turns: every queue has one buffer, so the copy-in of the next item "
     "waits for the vector work of this one. Double-buffer every queue (bufs=2): copies and compute overlap."),
    ("mhc_post", "tuning", "mhc_post_v2.py",
     "Now the vector unit is the bottleneck, and much of its time is instruction start-up: an item at C = 2560 is "
     "split into 2048 + 512, so every instruction is issued twice per token. Make a work item a whole token (chunks of "
     "2560): half the instructions, one coefficient load per token."),
    ("mhc_post_grad", "stage 1", "mhc_post_grad_v0.py",
     "A first kernel, one output family at a time: a pass over G for dh and dX, then a second pass over G, X and h "
     "for the dot products (mul + reduce_sum, accumulated in a small table)."),
    ("mhc_post_grad", "tuning", "mhc_post_grad_v1.py",
     "G is read twice. Fuse the four outputs into one pass over G: every chunk of G feeds dh, dX and the dot products."),
    ("mhc_post_grad", "tuning", "mhc_post_grad_v2.py",
     "The fused kernel is no faster: the time is in the vector unit, in 20 reduce_sum per chunk and the scalar reads "
     "that add their results. Fold each product row into a 64-lane accumulator with fold_add and reduce all S + S*S "
     "accumulators of a token with one row_sum: the reduction is vectorised across the streams."),
    ("mhc_post_grad", "tuning", "mhc_post_grad_v3.py",
     "Still vector-bound with many short instructions: chunks of 1024 make C = 2560 three chunks. Use chunks of "
     "1280: two chunks per token, fewer instruction start-ups, same UB budget with double buffering."),
    ("mhc_post_grad", "tuning", "mhc_post_grad_v4.py",
     "The timeline shows the vector pipe idling between instructions: every get() of the coefficients reads a "
     "buffer the vector unit wrote (the copy out of the queue), so each of the S + S*S reads per chunk waits for "
     "the vector unit to drain. Load the coefficients with each chunk as a copied-in tile and read them there: "
     "one wait for MTE2 per chunk, and the chunk's vector instructions issue back to back."),
]


def answer_text(explanation: str, file: str) -> str:
    return f"{explanation}\n\n```python\n{(VARIANTS / file).read_text().rstrip()}\n```\n"


def replay_client(settings):
    "An LLM client that answers only from the recordings (and the user's cache): no network."
    from ascendcraft.llm import LLMClient, ReplyCache
    cache = ReplyCache(settings.cache_path / "llm", recordings=[RECORDINGS])
    return LLMClient(settings.replace(llm_replay_only=True, llm_model=MODEL), cache=cache)


def first_kernel(task_id: str, client):
    "Stage 1: the first DSL kernel for the operator (a Generation record)."
    from ascendcraft.generate import generate_dsl
    from ascendcraft.taskset import get_task
    return generate_dsl(get_task(task_id), client)


def tune_session(task_id: str, dsl: str, client, rounds: int):
    """A workbench session on `dsl`: lowered, verified, timed, recorded as v0, then `rounds` LLM tuning rounds
    (each proposal verified on the CPU emulation before it is timed)."""
    from ascendcraft.session import Session
    session = Session(task_id, dsl, llm=client)
    session.run_all()
    session.record_variant("v0 (first kernel)", "generated")
    session.ask_faster(rounds=rounds)
    return session


def _pm(speedup: float, uncertainty: float) -> str:
    "A modelled speed-up with its calibrated ± and 'level' when it is a tie (within the uncertainty of 1)."
    tie = " level" if abs(speedup - 1) <= uncertainty else ""
    return f"{speedup:.2f}× ±{100 * uncertainty:.0f}%{tie}"


def paper_scale(task_id: str, sources: dict, hidden=(1280, 2560, 7168), history=None, tokens: int = 4096) -> str:
    """Modelled speed-ups over modelled eager at T = `tokens`, n = 4 for each hidden size (markdown).

    Every kernel is verified on the CPU emulation (at the CI size) before it is timed, once for all hidden sizes;
    a kernel already verified in `history` (a rule-lowered session's TuningHistory) keeps that verdict."""
    from ascendcraft.generate import evaluate_modelled
    from ascendcraft.taskset import resolve_task
    task = resolve_task(task_id)                      # an id, or a task file's path (the fp32 tasks in examples/mhc/fp32)
    verdicts = {v.dsl: v.evaluation.verification for v in (history.variants if history else [])
                if v.evaluation.verification is not None}
    from ascendcraft.soc import load_soc
    evaluators = {c: evaluate_modelled(task, size={"hidden": c, "num_tokens": tokens}, verdicts=verdicts) for c in hidden}
    rows = ["| variant | " + " | ".join(f"C = {c}" for c in hidden) + " |", "|---|" + "---|" * len(hidden)]
    for name, dsl in sources.items():
        cells = []
        for c in hidden:
            e = evaluators[c](dsl)
            cells.append(f"{_pm(e.speedup, load_soc(e.cost.soc).speedup_uncertainty)} ({e.kernel_us:,.0f} µs, {e.verdict})"
                         if e.correct else f"incorrect ({e.failed_at})")
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def record():
    """Ask every LLM step of the case study afresh (the scripted server, an empty cache) and replace the case
    study's recordings in examples/llm_cache. Recording into the replay cache itself would let unchanged steps hit
    old replies and hand the script's answers to the wrong steps."""
    import json
    import shutil
    import tempfile
    from ascendcraft.config import load_settings
    from ascendcraft.llm import LLMClient, ReplyCache
    from ascendcraft.llm_server import FakeLLMServer
    script = [answer_text(explanation, file) for _, _, file, explanation in ANSWERS]
    tasks = {task_id for task_id, _, _, _ in ANSWERS}
    settings = load_settings()
    with tempfile.TemporaryDirectory() as fresh, FakeLLMServer(script, models=(MODEL,)) as srv:
        client = LLMClient(settings.replace(llm_base_url=srv.base_url, llm_model=MODEL), cache=ReplyCache(Path(fresh)))
        for task_id, rounds in (("mhc_post", 2), ("mhc_post_grad", 4)):
            record_ = first_kernel(task_id, client)
            assert record_.ok, record_.attempts[-1].problems
            session = tune_session(task_id, record_.result, client, rounds)
            print(f"{task_id}:\n{session.history.table()}\n")
        assert len(srv.chat_requests) == len(script), f"{len(srv.chat_requests)} requests for {len(script)} answers"
        for old in RECORDINGS.glob("*/*.json"):
            if json.loads(old.read_text())["purpose"].split(":")[1] in tasks: old.unlink()
        for new in Path(fresh).glob("*/*.json"):
            (RECORDINGS / new.parent.name).mkdir(exist_ok=True)
            shutil.copy2(new, RECORDINGS / new.parent.name / new.name)
    for folder in RECORDINGS.iterdir():
        if folder.is_dir() and not any(folder.iterdir()): folder.rmdir()
    print(f"recorded {len(script)} replies into {RECORDINGS}")


def tables() -> str:
    """The README's mHC tables on the shipped profile (markdown): the first, v3 and tuned kernels at T = 4096 for the
    paper's three hidden sizes; other token counts at C = 2560; and the float32-stream kernels (examples/mhc/fp32)."""
    here = Path(__file__).resolve().parent
    read = lambda rel: (here / rel).read_text()
    out = ["### bf16 streams, T = 4096", "",
           paper_scale("mhc_post", {"mHC_post, first kernel": read("mhc/variants/mhc_post_v0.py"),
                                    "mHC_post, tuned": read("mhc/mhc_post.py")}), "",
           paper_scale("mhc_post_grad", {"mHC_post_grad, first kernel": read("mhc/variants/mhc_post_grad_v0.py"),
                                         "mHC_post_grad, v3": read("mhc/variants/mhc_post_grad_v3.py"),
                                         "mHC_post_grad, tuned (v4)": read("mhc/mhc_post_grad.py")}), ""]
    for tokens in (1024, 16384):
        out += [f"### bf16 streams, T = {tokens}", "",
                paper_scale("mhc_post", {"mHC_post, first kernel": read("mhc/variants/mhc_post_v0.py"),
                                         "mHC_post, tuned": read("mhc/mhc_post.py")}, hidden=(2560,), tokens=tokens), "",
                paper_scale("mhc_post_grad", {"mHC_post_grad, first kernel": read("mhc/variants/mhc_post_grad_v0.py"),
                                              "mHC_post_grad, tuned (v4)": read("mhc/mhc_post_grad.py")},
                            hidden=(2560,), tokens=tokens), ""]
    out += ["### float32 streams, T = 4096", "",
            paper_scale(str(here / "mhc/fp32/mhc_post_f32.py"), {"mHC_post, fp32": read("mhc/fp32/mhc_post_f32_kernel.py")}), "",
            paper_scale(str(here / "mhc/fp32/mhc_post_grad_f32.py"),
                        {"mHC_post_grad, fp32": read("mhc/fp32/mhc_post_grad_f32_kernel.py")})]
    return "\n".join(out)


if __name__ == "__main__" and "--record" in sys.argv:
    record()
elif __name__ == "__main__" and "--tables" in sys.argv:
    print(tables())
