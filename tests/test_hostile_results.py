"""Hostile edits of results and caches: a forged result.json, a swapped binary in the shared build cache, an
altered build record, a stale result, an output file swapped for a link. Each must be refused, rebuilt or
ignored, and say so (ascendcraft.seal, ascendcraft.sandbox.read_scratch)."""
import contextlib
import io
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.cli import main
from ascendcraft.config import load_settings
from ascendcraft.emu import GM, Scalar, build, run
from ascendcraft.report import RESULT_FILE, TaskResult, read_result
from ascendcraft.seal import artifact_hashes, file_sha256, sign

HOSTILE = Path(__file__).parent / "hostile"
SETTINGS = load_settings()


def _args(n=256):
    x = np.arange(n, dtype=np.float32)
    return x, [GM("x", x), GM("y", np.empty_like(x), "out"), Scalar(n)]


def _copy_kernel(tag: str) -> dict:
    "The honest copy kernel of ctor tests, made unique so the test owns its cache entry."
    text = (HOSTILE / "output_symlink.cpp").read_text()
    text = text.replace('    unlink("gm1.bin");\n    symlink("/etc/hostname", "gm1.bin");\n    unlink("report.jsonl");\n'
                        '    symlink("/etc/hostname", "report.jsonl");\n', "")
    return {"copy.cpp": text + f"\n// {tag}\n"}


def test_a_swapped_binary_in_the_build_cache_is_not_served(tmp_path):
    honest = build(_copy_kernel("swap-victim"))
    other = build(HOSTILE / "big_file.cpp")
    assert honest.ok and other.ok
    shutil.copy(other.binary, honest.binary)                  # the attack: another kernel's binary under our key
    again = build(_copy_kernel("swap-victim"))
    assert not again.cached                                   # verified against its seal, rebuilt
    assert file_sha256(again.binary) != file_sha256(other.binary)
    x, args = _args()
    r = run(again, args, block_dim=1)
    assert r.ok and (r.outputs["y"] == x).all()


def test_an_altered_build_record_is_not_served():
    b = build(_copy_kernel("record-victim"))
    info = json.loads((b.folder / "build.json").read_text())
    info["log"] = "forged"
    (b.folder / "build.json").write_text(json.dumps(info))
    again = build(_copy_kernel("record-victim"))
    assert not again.cached and again.ok and again.log != "forged"


def test_the_cache_folder_is_private():
    build(_copy_kernel("private"))
    assert SETTINGS.cache_path.stat().st_mode & 0o077 == 0


def test_an_output_swapped_for_a_link_to_a_host_file_is_not_read():
    x, args = _args()
    r = run(build(HOSTILE / "output_symlink.cpp"), args, block_dim=1)
    assert "y" not in r.outputs                               # not /etc/hostname's bytes
    assert not r.ok and not any("hostname" in (d.message or "") for d in r.diagnostics)


def _run_folder(tmp_path: Path, dsl: Path) -> Path:
    out = tmp_path / "run"
    r = TaskResult("relu", "activation", "ok", compiled=True, correct=True, inputs={"dsl": str(dsl)},
                   hashes=artifact_hashes(dsl.read_text(), {"relu.cpp": "..."}, None),
                   timing={"kind": "modelled", "soc": "Ascend910B2", "kernel_us": 10.0, "call_us": 10.0, "eager_us": 11.0,
                           "speedup": 1.1, "verdict": "memory-bound"})
    (out / "activation" / "relu").mkdir(parents=True)
    (out / "activation" / "relu" / RESULT_FILE).write_text(json.dumps(sign(json.loads(r.to_json()), SETTINGS.cache_path)))
    return out


@pytest.fixture
def sealed(tmp_path):
    dsl = tmp_path / "relu.py"
    dsl.write_text("# the DSL\n")
    out = _run_folder(tmp_path, dsl)
    return out, out / "activation" / "relu" / RESULT_FILE, dsl


def test_a_sealed_result_is_read(sealed):
    out, path, dsl = sealed
    r = read_result(path)
    assert (r.status, r.speedup) == ("ok", 1.1)


def test_a_forged_speedup_is_refused_and_the_table_says_so(sealed):
    out, path, dsl = sealed
    data = json.loads(path.read_text())
    data["timing"]["speedup"] = 9.5                          # the 'setsid' attack of the issue, done by hand
    path.write_text(json.dumps(data))
    r = read_result(path)
    assert (r.status, r.detail) == ("harness-error", "refused-result") and "changed after" in r.message
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        assert main(["table", str(out)]) == 2
    assert "refused" in text.getvalue() and "9.5" not in text.getvalue()


def test_an_unsealed_result_is_refused(sealed):
    out, path, dsl = sealed
    data = json.loads(path.read_text())
    del data["seal"]
    path.write_text(json.dumps(data))
    assert "no seal" in read_result(path).message


def test_a_result_whose_dsl_changed_is_refused(sealed):
    out, path, dsl = sealed
    dsl.write_text("# the DSL, edited after the run\n")
    r = read_result(path)
    assert r.detail == "refused-result" and "DSL changed" in r.message


def test_an_llm_endpoint_that_trickles_bytes_hits_the_wall_clock_deadline():
    "A server that sends its (non-streamed) answer one byte every 0.2 s: every read is quick, the call is not."
    import socket
    import threading
    import time

    from ascendcraft.llm import LLMClient
    from ascendcraft.diagnostics import AscendCraftError
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try: conn, _ = server.accept()
            except OSError: return
            conn.recv(65536)
            body = b'{"id":"x","object":"chat.completion","choices":[]}' + b" " * 400
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body))
            for byte in body:
                if stop.wait(0.2): break
                try: conn.sendall(bytes([byte]))
                except OSError: break
            conn.close()
    threading.Thread(target=serve, daemon=True).start()
    settings = SETTINGS.replace(llm_base_url=f"http://127.0.0.1:{server.getsockname()[1]}/v1", llm_model="m",
                                llm_timeout=1.0, llm_max_retries=0, cache_dir=str(SETTINGS.cache_path / "test-trickle"))
    import openai  # noqa: F401  (imported before the clock starts: a slow first import is not the endpoint's time)
    client = LLMClient(settings)
    client._api()
    started = time.monotonic()
    try:
        with pytest.raises(AscendCraftError) as err:
            client.chat([{"role": "user", "content": "hi"}])
    finally:
        stop.set(); server.close()
    assert "llm-timeout" in [d.kind for d in err.value.diagnostics]
    assert time.monotonic() - started < 15                      # the 1 s limit plus slack on a busy machine, not 90 s of trickle
