"""Results the harness writes itself (a task that timed out, a task process that ended without a result) and the
fork server's reply reading: what `ascendcraft bench` and `ascendcraft table` show for them afterwards."""
import json
import time
from pathlib import Path

from ascendcraft.bench import _harness_result, _Job, plan
from ascendcraft.config import load_settings
from ascendcraft.report import RESULT_FILE, read_result
from ascendcraft.taskset import registry

ROOT = Path(__file__).resolve().parents[1]


def _job(tmp_path):
    spec, = plan(list(registry(tasks=["relu"])), ROOT / "examples", tmp_path / "out", size="small", timing=False,
                 source="expert", settings=load_settings(), task_timeout=5)
    Path(spec.folder).mkdir(parents=True)
    return _Job(spec, proc=None, started=time.monotonic(), deadline=time.monotonic(), log=None)


def test_a_timeout_the_harness_wrote_reads_back_as_a_timeout(tmp_path):
    """The summary and `ascendcraft table` read every result.json back through the seal check: a result the harness
    wrote for a task process it killed must read back as itself, not as a result refused for a changed DSL."""
    job = _job(tmp_path)
    written = _harness_result(job, "timeout", "verify", "the task did not finish within 5 s (it was in stage 'verify')")
    back = read_result(Path(job.spec.folder) / RESULT_FILE)
    assert (back.status, back.detail, back.message) == ("timeout", "verify", written.message), back.message


def test_a_harness_result_goes_stale_when_its_dsl_changes(tmp_path):
    "It records the DSL it was about: once the kernel is edited, the old timeout is not this kernel's verdict."
    job = _job(tmp_path)
    _harness_result(job, "timeout", "verify", "the task did not finish")
    dsl = Path(job.spec.dsl_file)
    edited = tmp_path / "relu.py"
    edited.write_text(dsl.read_text() + "\n# edited\n")
    data = json.loads((Path(job.spec.folder) / RESULT_FILE).read_text())
    data["inputs"]["dsl"] = str(edited)          # the same result, pointed at a DSL whose text differs now
    (Path(job.spec.folder) / RESULT_FILE).write_text(json.dumps(data))
    back = read_result(Path(job.spec.folder) / RESULT_FILE)
    assert back.status == "harness-error" and back.detail == "refused-result"


def test_a_ray_task_given_up_reads_back_with_its_own_reason(tmp_path):
    "The Ray driver writes a result for a task it gave up on: the summary shows that reason, not a refusal."
    from ascendcraft.bench import write_result
    from ascendcraft.executor import _lost_result
    job = _job(tmp_path)
    lost = _lost_result(job.spec, RuntimeError("the node died"))
    write_result(Path(job.spec.folder), lost)
    back = read_result(Path(job.spec.folder) / RESULT_FILE)
    assert (back.status, back.detail) == ("harness-error", "ray") and "the node died" in back.message, back.message
