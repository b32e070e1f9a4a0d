"""The LLM stage against a real OpenAI-compatible server on 127.0.0.1 (scripted answers): stage 1,
LLM-mode passes, tuning, replay from the cache."""
from pathlib import Path

import pytest
import torch

from _cache import share_builds
from ascendcraft.config import load_settings
from ascendcraft.generate import (Evaluation, TuningHistory, Variant, category_examples, evaluate_modelled, examples_root,
                                  generate_dsl, judge_dsl, llm_passes, operator_family, stage1_messages, tune)
from ascendcraft.passes import RULE_PASSES, Pass
from ascendcraft.launch import run_kernel
from ascendcraft.llm import LLMClient
from ascendcraft.llm_server import FakeLLMServer
from ascendcraft.pipeline import Pipeline
from ascendcraft.taskset import get_task
from ascendcraft.verify import verify

GOOD = (examples_root() / "activation" / "leaky_relu.py").read_text()
TASK = get_task("leaky_relu")


def fenced(code: str, lang: str = "python", title: str = "") -> str:
    return f"Here you are.\n\n```{lang}{' title=' + title if title else ''}\n{code.rstrip()}\n```\n"


@pytest.fixture
def settings(tmp_path):
    return load_settings().replace(cache_dir=str(share_builds(tmp_path / "cache")), llm_model="scripted", llm_max_rounds=3)


def client_for(srv, settings):
    return LLMClient(settings.replace(llm_base_url=srv.base_url))


def test_stage1_then_llm_passes_give_a_kernel_that_verifies_on_the_emulator(settings):
    # stage 1: a first answer with a bug only the interpreter exposes (a wrong default slope), fixed after feedback
    wrong = GOOD.replace("negative_slope: float = 0.01", "negative_slope: float = 0.1")
    assert wrong != GOOD
    with FakeLLMServer([fenced(wrong), fenced(GOOD)]) as srv:
        record = generate_dsl(TASK, client_for(srv, settings))
    assert record.ok and not record.pass_at_1 and record.rounds == 2
    assert "does not match the reference on signed inputs" in record.attempts[0].problems[0]
    # LLM-mode passes, scripted with what an expert would write; the compute answer first fails to compile
    ref = Pipeline(record.result, "leaky_relu.py", task=TASK, settings=settings)
    ref.run_all()
    names = ref.lowering.names
    host, init, compute, align = (ref[n].project for n in ("host", "init", "compute", "align"))
    broken = compute[names.kernel_file].replace("LeakyRelu(", "LeakyReLU(", 1)
    script = [fenced(host[names.tiling_file], "cpp", names.tiling_file) + fenced(host[names.host_file], "cpp", names.host_file)
              + fenced(host[names.kernel_file], "cpp", names.kernel_file),
              fenced(init[names.kernel_file], "cpp", names.kernel_file),
              fenced(broken, "cpp", names.kernel_file), fenced(compute[names.kernel_file], "cpp", names.kernel_file),
              fenced(align[names.kernel_file], "cpp", names.kernel_file)]
    with FakeLLMServer(script) as srv:
        pipe = Pipeline(record.result, "leaky_relu.py", task=TASK, settings=settings,
                        passes=llm_passes(client_for(srv, settings)))
        pipe.run_all()
        assert len(srv.chat_requests) == 5
        assert "LeakyReLU" in srv.chat_requests[3].messages[-1]["content"]       # the compiler error went back
    assert [s.status for s in pipe.steps] == ["ok"] * 5
    assert all(s.pass_.kind == "llm" for s in pipe.steps[1:])
    build, program = pipe["align"].build, pipe.program
    verdict = verify(TASK, lambda inputs: run_kernel(build, program, _values(program, TASK, inputs)).outputs["y"],
                     settings=settings)
    assert verdict.passed, verdict.summary


def _values(program, task, inputs):
    from ascendcraft.bind import host_values
    return host_values(program, task, inputs)


def test_stage1_gives_up_after_the_round_budget_and_reports_every_round(settings):
    with FakeLLMServer([fenced("this is not the DSL"), "no code at all", fenced(GOOD.replace("@kernel", "@kernal"))]) as srv:
        record = generate_dsl(TASK, client_for(srv, settings))
    assert not record.ok and record.rounds == 3
    assert "syntax" in record.attempts[0].problems[0]
    assert "llm-no-code" in record.attempts[1].problems[0]
    assert record.attempts[2].problems


def test_replay_from_the_cache_makes_no_requests(settings):
    with FakeLLMServer([fenced(GOOD)]) as srv:
        first = generate_dsl(TASK, client_for(srv, settings))
        assert len(srv.chat_requests) == 1
    replay = settings.replace(llm_replay_only=True, llm_base_url="")
    again = generate_dsl(TASK, LLMClient(replay))
    assert again.result == first.result and again.ok


def test_tuning_keeps_every_variant_and_picks_the_best_correct_one(settings):
    times = {"v0": 100.0, "fast": 60.0, "faster-but-wrong": 30.0}

    def evaluate(dsl):
        label = dsl.splitlines()[0].strip("# ")
        if label == "faster-but-wrong":
            return Evaluation(False, ["output 'y' does not match the reference"])
        return Evaluation(True, [], times[label], 100.0, 100.0 / times[label], "memory-bound", "modelled on test")

    script = [fenced("# faster-but-wrong\n" + GOOD), fenced("# fast\n" + GOOD), "I have no more ideas."]
    with FakeLLMServer(script) as srv:
        history = tune(TASK, client_for(srv, settings), evaluate, dsl="# v0\n" + GOOD, rounds=3)
        prompt = srv.chat_requests[1].messages[-1]["content"]
    assert [v.correct for v in history.variants] == [True, False, True, False]
    assert history.best.dsl.startswith("# fast")
    assert "- v1: incorrect" in prompt and "output 'y' does not match the reference" in prompt   # why v1 failed went back
    assert "# fast" in history.diff(2) and "best" in history.table()


def test_generate_suite_lays_out_kernels_like_examples_and_resumes(settings, tmp_path):
    from ascendcraft.generate import generate_suite, suite_table
    tasks = [get_task("leaky_relu"), get_task("relu")]
    relu = (examples_root() / "activation" / "relu.py").read_text()
    out = tmp_path / "generated"
    with FakeLLMServer([fenced(GOOD), fenced(relu.replace("relu(yout, xin, n)", "relu(yout, xin)")), fenced(relu)]) as srv:
        records = generate_suite(tasks, client_for(srv, settings), out)
        assert len(srv.chat_requests) == 3
    assert [(r.target, r.ok, r.pass_at_1, r.rounds) for r in records] == [("leaky_relu", True, True, 1), ("relu", True, False, 2)]
    assert (out / "activation" / "relu.py").read_text().strip() == relu.strip()
    assert (out / "activation" / "relu.generation" / "round1_reply.md").exists()
    with FakeLLMServer([]) as srv:                       # resume: nothing is asked again
        again = generate_suite(tasks, client_for(srv, settings), out)
        assert srv.chat_requests == []
    assert [(r.ok, r.pass_at_1) for r in again] == [(True, True), (True, False)]
    assert "| relu | yes | no | 2 |" in suite_table(again)


def test_leave_one_out_leaves_out_the_whole_operator_family(settings):
    mhc = examples_root() / "mhc"
    own = {p.stem: p.read_text() for p in mhc.glob("*.py")}
    assert set(own) == {"mhc_post", "mhc_post_grad"}
    for task_id in own:
        shown = category_examples(task_id, "mhc", k=20)
        assert shown and not any(name.startswith("mhc") for name, _ in shown), [n for n, _ in shown]
        prompt = stage1_messages(get_task(task_id), category_examples(task_id, "mhc"))[1]["content"]
        for text in own.values():                   # neither mHC expert kernel, not even a part of one
            assert text.strip().splitlines()[0] not in prompt and "@kernel\ndef mhc_post" not in prompt
    # the family is by id: a root id and its `_<suffix>` extensions, nothing else
    assert operator_family("cumsum_exclusive", ["cumsum", "cumsum_reverse", "masked_cumsum"]) == \
        {"cumsum", "cumsum_exclusive", "cumsum_reverse"}
    assert operator_family("softmax", ["log_softmax", "relu"]) == {"softmax"}
    # and what the model is really sent, through the endpoint
    with FakeLLMServer(["no answer"]) as srv:
        generate_dsl(get_task("mhc_post_grad"), client_for(srv, settings), rounds=1)
        sent = "\n".join(m["content"] for m in srv.chat_requests[0].messages)
    assert "mhc_post_kernel" not in sent and "Expert kernel `mhc_post" not in sent
    assert "Expert kernel `relu`" in sent


def planted(old: str, new: str) -> tuple:
    """The rule-based passes, except that the compute pass writes `new` for `old`: a real, compiling kernel project
    that is wrong, as a faulty pass would make it."""
    rule = next(p for p in RULE_PASSES if p.name == "compute")

    def run(low, prev):
        project, notes = rule.run(low, prev)
        text = project[low.names.kernel_file]
        assert old in text, "the planted bug no longer applies to the lowering"
        return project.with_file(low.names.kernel_file, text.replace(old, new)), notes

    return tuple(Pass("compute", rule.description, run) if p.name == "compute" else p for p in RULE_PASSES)


TAIL = "int32_t n = ScalarMin(tile, end - off);"


@pytest.mark.parametrize("old, new, kind, words", [
    # half the tile never computed: its UB half is copied out, so the output depends on the poison (38_judge, as bench)
    ("LeakyRelu(youtLocal, xinLocal, slope, n);", "LeakyRelu(youtLocal, xinLocal, slope, n / 2);", "uninitialised-read", "memory nobody wrote"),
    # forgets the tail: the last block runs past the end of x (the blocks that spill into the next block's range
    # write the values that block writes, which the NPU tolerates)
    (TAIL, "int32_t n = tile;", "error", "gm-out-of-bounds"),
], ids=["half-computed-tile", "missing-tail"])
def test_a_variant_the_interpreter_accepts_but_the_emulator_rejects_is_not_counted(old, new, kind, words):
    assert judge_dsl(TASK, GOOD, "leaky_relu.py")[1] == []          # the DSL is right: the interpreter accepts it
    wrong = evaluate_modelled(TASK, passes=planted(old, new))(GOOD)
    assert not wrong.correct and wrong.failed_at == "emulator"
    assert wrong.kernel_us is None and wrong.speedup is None                  # no speed-up for a wrong kernel
    assert wrong.verification.kind == kind and not wrong.verification.passed
    assert words in wrong.problems[0] and "CPU emulation" in wrong.problems[0]
    history = TuningHistory()
    history.add(Variant("v0", GOOD, "llm", wrong))
    assert history.best is None and "| no (emulator) |" in history.table()


def test_a_correct_variant_is_verified_once_on_the_emulator_and_timed_at_each_size():
    verdicts = {}                                   # DSL -> emulator verdict, shared by evaluators of several sizes
    small, full = (evaluate_modelled(TASK, size=size, verdicts=verdicts)(GOOD) for size in ("small", "full"))
    assert small.correct and full.correct and list(verdicts) == [GOOD]
    assert full.verification is small.verification and full.verification.passed and full.verification.size == "small"
    assert 0 < small.kernel_us < full.kernel_us and full.speedup > 0 and "| MTE2 |" in full.breakdown
