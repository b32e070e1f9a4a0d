"""`generate --samples K` on the local pool: K stage-1 samples per task from a scripted OpenAI-compatible endpoint,
each benchmarked on two SoC profiles; pass@k and Fast_p@k from the unbiased estimator; a second sweep replays
every sample from the reply cache (shipped with the items) without asking the endpoint."""
import json
import uuid

from ascendcraft.config import load_settings
from ascendcraft.executor import LocalPool
from ascendcraft.generate import examples_root
from ascendcraft.llm_server import FakeLLMServer
from ascendcraft.bench import select_tasks
from ascendcraft.samples import generate_samples, pass_at_k, sample_sweep

GOOD = (examples_root() / "activation" / "leaky_relu.py").read_text()
WRONG = GOOD.replace("negative_slope: float = 0.01", "negative_slope: float = 0.1")   # only the interpreter sees it
KEY = "activation/leaky_relu"


def fenced(code: str) -> str:
    return f"Here you are.\n\n```python\n{code.rstrip()}\n```\n"


def scripted_settings(url: str, model: str):
    # the usual cache (emulator builds are cached by content); a model name of its own keeps the replies apart
    return load_settings().replace(llm_base_url=url, llm_model=model, trials=1, ray_address="")


def test_four_samples_give_pass_at_k_and_fast_p_at_k_on_two_socs(tmp_path):
    assert WRONG != GOOD
    model = f"scripted-{uuid.uuid4().hex[:8]}"
    with FakeLLMServer([fenced(GOOD), fenced(WRONG), fenced(GOOD), fenced(WRONG)], models=None) as srv:
        sweep = sample_sweep(["leaky_relu"], samples=4, out=tmp_path / "sweep", socs=["Ascend910B2", "Ascend910B3"],
                             settings=scripted_settings(srv.base_url, model), rounds=1, executor=LocalPool(2))
        assert len(srv.chat_requests) == 4                           # one request per sample, generated once for both SoCs
    for soc in ("Ascend910B2", "Ascend910B3"):
        assert sweep.counts(soc) == {KEY: (4, 2)}
        assert [round(sweep.at_k(soc, k), 4) for k in (1, 2, 4)] == [0.5, round(1 - 1 / 6, 4), 1.0]
        speedups = [r.speedup for r in sweep.results[soc][KEY] if r.correct]
        assert len(speedups) == 2 and all(s and s > 0 for s in speedups)
        for p in sweep.ps:                                            # Fast_p@k counts the correct samples at least p× faster
            c = sum(s >= p for s in speedups)
            assert sweep.at_k(soc, 4, p) == pass_at_k(4, c, 4)
        assert all(r.timing["soc"] == soc for r in sweep.results[soc][KEY] if r.correct)
    assert [r.status for r in sweep.results["Ascend910B2"][KEY]].count("incorrect") == 2
    saved = json.loads((tmp_path / "sweep" / "passk.json").read_text())
    assert saved["socs"]["Ascend910B2"]["pass"]["1"] == 0.5 and "pass@k" in (tmp_path / "sweep" / "passk.md").read_text()
    assert sorted(p.parent.name for p in (tmp_path / "sweep" / "samples").glob("s*/activation/leaky_relu.py")) == \
        ["activation"] * 4

    with FakeLLMServer([], models=None) as silent:                   # a new sweep folder: every sample from the cache
        again = generate_samples(list(select_tasks(None, None, ["leaky_relu"])), scripted_settings(silent.base_url, model),
                                 tmp_path / "again", 4, LocalPool(2), rounds=1)
        assert silent.chat_requests == []
    assert sorted(g.ok for g in again.values()) == [False, False, True, True]
    for j in range(4):
        assert (tmp_path / "again" / "samples" / f"s{j}" / "activation" / "leaky_relu.py").read_text() == \
            (tmp_path / "sweep" / "samples" / f"s{j}" / "activation" / "leaky_relu.py").read_text()
