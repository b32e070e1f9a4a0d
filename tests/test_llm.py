"""LLMClient and ReplyCache against a real HTTP server on 127.0.0.1 (FakeLLMServer): every failure mode,
retries and their timing, replay, the cache on disk, accounting. The client is never mocked."""
import json
import socket
import threading
import time
from pathlib import Path

import pytest

from ascendcraft.config import Settings
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.llm import (CachedReply, LLMClient, ReplyCache, RetryPolicy, atomic_write_text, build_request,
                             request_key)
from ascendcraft.llm_server import Drop, Empty, Fail, FakeLLMServer, Malformed, Reply, truncated

FAST = RetryPolicy(base_delay=0.05, max_delay=0.2, jitter=0.25, max_retry_after=2.0)
ASK = [{"role": "system", "content": "You write AscendCraft DSL."},
       {"role": "user", "content": "Write an elementwise add kernel."}]
CODE = "Here:\n```python\n@kernel\ndef add_kernel(x, y, z): ...\n```\n"


@pytest.fixture
def settings(tmp_path):
    return Settings(cache_dir=str(tmp_path / "cache"), llm_model="scripted", llm_timeout=1.0, llm_max_retries=2,
                    llm_api_key_env="ASCENDCRAFT_TEST_LLM_KEY")


def client_for(srv, settings, retry=FAST, **changes):
    return LLMClient(settings.replace(llm_base_url=srv.base_url, **changes), retry=retry)


def failure(call) -> AscendCraftError:
    "Run `call`, which must raise an AscendCraftError; return it."
    with pytest.raises(AscendCraftError) as info:
        call()
    assert info.value.stage == "llm"
    return info.value


def gaps(srv) -> list[float]:
    "Seconds between consecutive chat requests the server received."
    times = [r.received for r in srv.chat_requests]
    return [b - a for a, b in zip(times, times[1:])]


def closed_port() -> int:
    "A local port nothing listens on."
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cache_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


# ---------------------------------------------------------------- answers

def test_reply_carries_text_usage_and_the_request_as_sent(settings):
    usage = {"prompt_tokens": 17, "completion_tokens": 9, "total_tokens": 26}
    with FakeLLMServer([Reply(CODE, usage=usage, model="scripted-2025")]) as srv:
        with client_for(srv, settings) as client:
            reply = client.chat(ASK, purpose="stage1", max_tokens=512, seed=7)
    assert reply.text == CODE
    assert reply.code() == "@kernel\ndef add_kernel(x, y, z): ...\n"
    assert (reply.model, reply.finish_reason, reply.cached, reply.attempts) == ("scripted-2025", "stop", False, 1)
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens, reply.usage.total_tokens) == (17, 9, 26)
    assert reply.latency_s > 0
    sent = srv.chat_requests[0]
    assert sent.messages == ASK
    assert (sent.body["model"], sent.body["temperature"], sent.body["max_tokens"], sent.body["seed"]) == ("scripted", 0.0, 512, 7)
    assert sent.headers["authorization"] == "Bearer no-key-configured"    # placeholder: no key is set
    expected = request_key(build_request("scripted", ASK, {"temperature": 0.0, "max_tokens": 512, "seed": 7}))
    assert reply.request_key == expected


def test_api_key_comes_from_the_variable_the_settings_name(settings, monkeypatch):
    monkeypatch.setenv("ASCENDCRAFT_TEST_LLM_KEY", "sk-secret")
    with FakeLLMServer([CODE], api_key="sk-secret") as srv:
        reply = client_for(srv, settings).chat(ASK)
    assert reply.text == CODE
    assert srv.chat_requests[0].headers["authorization"] == "Bearer sk-secret"
    # the key never reaches the cache
    assert all("sk-secret" not in p.read_text() for p in cache_files(settings.cache_path))


# ---------------------------------------------------------------- errors that are not retried

def test_401_is_llm_auth_naming_the_key_variable_and_not_retried(settings):
    with FakeLLMServer([CODE], api_key="sk-needed") as srv:
        err = failure(lambda: client_for(srv, settings).chat(ASK))
    d = err.diagnostics[0]
    assert d.kind == "llm-auth"
    assert srv.base_url in d.message and "no key is set" in d.message
    assert "ASCENDCRAFT_TEST_LLM_KEY" in d.hint and srv.base_url in d.hint
    assert len(srv.chat_requests) == 1


def test_wrong_key_and_403_are_llm_auth(settings, monkeypatch):
    monkeypatch.setenv("ASCENDCRAFT_TEST_LLM_KEY", "sk-wrong")
    with FakeLLMServer([CODE], api_key="sk-right") as srv:
        err = failure(lambda: client_for(srv, settings).chat(ASK))
    assert err.kinds == ["llm-auth"] and "was refused" in err.diagnostics[0].message
    with FakeLLMServer([Fail(403, "project has no access"), CODE]) as srv:
        err = failure(lambda: client_for(srv, settings).chat(ASK))
    assert err.kinds == ["llm-auth"] and "project has no access" in err.diagnostics[0].message
    assert len(srv.chat_requests) == 1


def test_unknown_model_lists_the_models_the_endpoint_offers(settings):
    with FakeLLMServer([CODE], models=["qwen2.5-coder", "deepseek-v3"]) as srv:
        client = client_for(srv, settings, llm_model="gpt-nope")
        err = failure(lambda: client.chat(ASK))
    d = err.diagnostics[0]
    assert d.kind == "llm-unknown-model"
    assert "'gpt-nope'" in d.message and srv.base_url in d.message
    assert "qwen2.5-coder, deepseek-v3" in d.hint and "ASCENDCRAFT_LLM_MODEL" in d.hint
    assert len(srv.chat_requests) == 1                                  # 404 is not retried
    assert [r.path for r in srv.requests if r.method == "GET"] == ["/v1/models"]
    assert srv.script.remaining == 1


def test_404_from_a_base_url_without_v1_points_at_the_base_url(settings):
    with FakeLLMServer([CODE]) as srv:
        root = srv.base_url.removesuffix("/v1")
        client = LLMClient(settings.replace(llm_base_url=root), retry=FAST)
        err = failure(lambda: client.chat(ASK))
    d = err.diagnostics[0]
    assert d.kind == "llm-unknown-model"
    assert "did not list its models" in d.hint and "llm_base_url" in d.hint and "/v1" in d.hint


def test_no_model_configured(settings):
    with FakeLLMServer([CODE]) as srv:
        err = failure(lambda: client_for(srv, settings, llm_model="").chat(ASK))
    assert err.kinds == ["llm-unknown-model"]
    assert "No model is configured" in err.diagnostics[0].message and "scripted" in err.diagnostics[0].hint
    assert srv.chat_requests == []


def test_400_is_a_bad_request_with_the_server_message_and_not_retried(settings):
    with FakeLLMServer([Fail(400, "maximum context length is 4096 tokens"), CODE]) as srv:
        err = failure(lambda: client_for(srv, settings).chat(ASK))
    assert err.kinds == ["llm-bad-request"]
    assert "maximum context length is 4096 tokens" in err.diagnostics[0].message
    assert len(srv.chat_requests) == 1


# ---------------------------------------------------------------- retried errors

def test_429_retry_after_is_honoured(settings):
    with FakeLLMServer([Fail(429, retry_after=1), CODE]) as srv:
        client = client_for(srv, settings, llm_timeout=1.0)
        reply = client.chat(ASK)
    assert reply.attempts == 2
    assert 0.95 <= gaps(srv)[0] < 2.0, gaps(srv)
    assert any("Retry-After" in note for note in client.calls[0].notes)


def test_retry_after_is_capped_by_the_policy(settings):
    policy = RetryPolicy(base_delay=0.05, max_retry_after=0.3)
    with FakeLLMServer([Fail(429, retry_after=30), CODE]) as srv:
        reply = client_for(srv, settings, retry=policy).chat(ASK)
    assert reply.attempts == 2
    assert 0.28 <= gaps(srv)[0] < 1.5, gaps(srv)       # not the 30 s asked for


def test_429_on_every_attempt_is_llm_rate_limited(settings):
    with FakeLLMServer([Fail(429, retry_after=0.05)] * 3) as srv:
        err = failure(lambda: client_for(srv, settings).chat(ASK))
    d = err.diagnostics[0]
    assert d.kind == "llm-rate-limited"
    assert "3 attempts" in d.message and srv.base_url in d.message
    assert "llm_max_retries" in d.hint and "ASCENDCRAFT_LLM_MAX_RETRIES" in d.hint
    assert d.context["attempts"] == 3 and len(srv.chat_requests) == 3


def test_5xx_then_success_counts_attempts(settings):
    with FakeLLMServer([Fail(500), Fail(503), CODE]) as srv:
        client = client_for(srv, settings)
        reply = client.chat(ASK, purpose="stage1")
    assert reply.attempts == 3 and reply.text == CODE
    record = client.calls[0]
    assert (record.ok, record.attempts) == (True, 3)
    assert [n.split(":")[0] for n in record.notes if n.startswith("attempt")] == ["attempt 1", "attempt 2"]
    assert "HTTP 500" in record.notes[0]


def test_5xx_on_every_attempt_is_llm_server_error(settings):
    with FakeLLMServer([Fail(502, "upstream model crashed")] * 4) as srv:
        err = failure(lambda: client_for(srv, settings).chat(ASK))
    d = err.diagnostics[0]
    assert d.kind == "llm-server-error"
    assert "upstream model crashed" in d.message and "3 attempts" in d.message
    assert len(srv.chat_requests) == 3 and srv.script.remaining == 1


def test_backoff_grows_exponentially_with_jitter(settings):
    policy = RetryPolicy(base_delay=0.1, max_delay=1.0, jitter=0.25)
    with FakeLLMServer([Fail(503)] * 3 + [CODE]) as srv:
        reply = client_for(srv, settings, retry=policy, llm_max_retries=3).chat(ASK)
    assert reply.attempts == 4
    for gap, full in zip(gaps(srv), [0.1, 0.2, 0.4]):
        assert 0.75 * full - 0.01 <= gap < full + 0.25, (gaps(srv), full)


def test_dropped_connection_is_retried(settings):
    with FakeLLMServer([Drop(), CODE]) as srv:
        reply = client_for(srv, settings).chat(ASK)
    assert reply.attempts == 2 and len(srv.chat_requests) == 2


def test_dropped_on_every_attempt_is_a_server_error(settings):
    with FakeLLMServer([Drop()] * 3) as srv:
        err = failure(lambda: client_for(srv, settings).chat(ASK))
    assert err.kinds == ["llm-server-error"] and "connection dropped" in err.diagnostics[0].message


def test_malformed_json_is_retried_then_reported(settings):
    with FakeLLMServer([Malformed(), CODE]) as srv:
        assert client_for(srv, settings).chat(ASK).attempts == 2
    with FakeLLMServer([Malformed()] * 3) as srv:
        err = failure(lambda: client_for(srv, settings).chat([{"role": "user", "content": "not cached yet"}]))
    assert err.kinds == ["llm-server-error"] and "malformed answer" in err.diagnostics[0].message


def test_unreachable_endpoint(settings):
    url = f"http://127.0.0.1:{closed_port()}/v1"
    client = LLMClient(settings.replace(llm_base_url=url), retry=FAST)
    err = failure(lambda: client.chat(ASK))
    d = err.diagnostics[0]
    assert d.kind == "llm-unreachable"
    assert url in d.message and "llm_base_url" in d.hint and "ASCENDCRAFT_LLM_BASE_URL" in d.hint
    assert d.context["attempts"] == 3          # a server that is starting up gets retried


# ---------------------------------------------------------------- time limits

def test_slow_reply_hits_the_timeout_and_is_not_retried(settings):
    with FakeLLMServer([Reply(CODE, delay=3.0), CODE]) as srv:
        client = client_for(srv, settings, llm_timeout=0.5)
        started = time.monotonic()
        err = failure(lambda: client.chat(ASK))
        elapsed = time.monotonic() - started
    d = err.diagnostics[0]
    assert d.kind == "llm-timeout"
    assert 0.45 <= elapsed < 1.3, elapsed
    assert "llm_timeout" in d.hint and "ASCENDCRAFT_LLM_TIMEOUT" in d.hint and srv.base_url in d.message
    assert len(srv.chat_requests) == 1


def test_timeouts_are_retried_when_the_policy_says_so(settings):
    policy = RetryPolicy(base_delay=0.05, retry_timeouts=True)
    with FakeLLMServer([Reply("late", delay=2.0), CODE]) as srv:
        reply = client_for(srv, settings, retry=policy, llm_timeout=0.4).chat(ASK)
    assert reply.attempts == 2 and reply.text == CODE


def test_the_time_budget_bounds_the_whole_call(settings):
    policy = RetryPolicy(base_delay=0.05, retry_timeouts=True, total_timeout=0.8)
    with FakeLLMServer([Reply("late", delay=3.0)] * 6) as srv:
        client = client_for(srv, settings, retry=policy, llm_timeout=0.5, llm_max_retries=5)
        started = time.monotonic()
        err = failure(lambda: client.chat(ASK))
        elapsed = time.monotonic() - started
    assert err.kinds == ["llm-timeout"]
    assert elapsed < 1.4, elapsed                       # budget 0.8 s, not 6 × 0.5 s
    assert len(srv.chat_requests) == 2                  # 0.5 s, a short wait, then the ~0.25 s left


def test_streaming_attempt_is_bounded_by_the_timeout(settings):
    trickle = Reply(" ".join(["word"] * 20), chunk_delay=0.15)          # 3 s in all
    with FakeLLMServer([trickle]) as srv:
        client = client_for(srv, settings, llm_timeout=0.5)
        started = time.monotonic()
        err = failure(lambda: client.chat(ASK, stream=True))
    assert err.kinds == ["llm-timeout"] and time.monotonic() - started < 1.5


# ---------------------------------------------------------------- unusable answers

@pytest.mark.parametrize("stream", [False, True])
def test_empty_choices_is_llm_empty_and_not_cached(settings, stream):
    with FakeLLMServer([Empty()]) as srv:
        err = failure(lambda: client_for(srv, settings).chat(ASK, stream=stream))
    assert err.kinds == ["llm-empty"] and srv.base_url in err.diagnostics[0].message
    assert cache_files(settings.cache_path) == []


def test_empty_content_and_content_filter_are_llm_empty(settings):
    with FakeLLMServer([Reply("   "), Reply("", finish_reason="content_filter")]) as srv:
        client = client_for(srv, settings)
        assert failure(lambda: client.chat(ASK)).kinds == ["llm-empty"]
        err = failure(lambda: client.chat(ASK))
    assert "content_filter" in err.diagnostics[0].message


@pytest.mark.parametrize("stream", [False, True])
def test_truncated_reply_keeps_the_partial_text_and_asks_again_next_time(settings, stream):
    partial = "```python\ndef add_kernel(x, y"
    with FakeLLMServer([truncated(partial), CODE]) as srv:
        client = client_for(srv, settings)
        err = failure(lambda: client.chat(ASK, stream=stream, max_tokens=8))
        d = err.diagnostics[0]
        assert d.kind == "llm-truncated" and d.context["text"] == partial
        assert "max_tokens" in d.hint and "now 8" in d.hint
        assert client.chat(ASK, stream=stream, max_tokens=8).text == CODE    # not cached: asked again
    assert len(srv.chat_requests) == 2


# ---------------------------------------------------------------- cache and replay

def test_cache_hit_makes_zero_requests_even_on_another_server(settings):
    with FakeLLMServer([CODE]) as recorder:
        first = client_for(recorder, settings).chat(ASK, purpose="stage1")
    with FakeLLMServer([]) as other:                    # another port: the URL is not part of the key
        client = client_for(other, settings)
        again = client.chat(ASK, purpose="stage1")
    assert (again.text, again.cached, again.attempts, again.request_key) == (first.text, True, 0, first.request_key)
    assert other.requests == []
    assert client.calls[0].cached and client.calls[0].usage == first.usage


def test_replay_with_no_endpoint_and_replay_only(settings):
    with FakeLLMServer([CODE]) as srv:
        client_for(srv, settings).chat(ASK)
    for replay in (settings, settings.replace(llm_replay_only=True)):
        assert LLMClient(replay).chat(ASK).text == CODE


def test_replay_only_miss_names_the_key_and_the_folder_and_sends_nothing(settings):
    with FakeLLMServer([CODE]) as srv:
        client = client_for(srv, settings, llm_replay_only=True)
        err = failure(lambda: client.chat(ASK, purpose="stage1"))
    d = err.diagnostics[0]
    key = request_key(build_request("scripted", ASK, {"temperature": 0.0}))
    assert d.kind == "llm-cache-miss"
    assert key in d.message and str(settings.cache_path / "llm") in d.message and "stage1" in d.message
    assert "ASCENDCRAFT_LLM_REPLAY_ONLY" in d.hint
    assert srv.requests == []
    assert (client.calls[0].ok, client.calls[0].error) == (False, "llm-cache-miss")


def test_no_endpoint_and_no_cached_reply(settings):
    err = failure(lambda: LLMClient(settings).chat(ASK))
    assert err.kinds == ["llm-no-endpoint"]
    assert "llm_base_url" in err.diagnostics[0].hint and "ASCENDCRAFT_LLM_BASE_URL" in err.diagnostics[0].hint


def test_a_miss_mentions_recordings_of_the_same_messages_for_another_model(settings):
    with FakeLLMServer([CODE]) as srv:
        client_for(srv, settings).chat(ASK)
    err = failure(lambda: LLMClient(settings.replace(llm_model="qwen", llm_replay_only=True)).chat(ASK))
    assert "differs in model (model 'scripted')" in err.diagnostics[0].hint


def test_corrupt_cache_entry_is_a_miss_and_gets_rewritten(settings):
    key = request_key(build_request("scripted", ASK, {"temperature": 0.0}))
    path = ReplyCache.path_in(settings.cache_path / "llm", key)
    path.parent.mkdir(parents=True)
    path.write_text('{"format": "ascendcraft-llm-reply/1", "text": "half')
    with FakeLLMServer([CODE]) as srv:
        client = client_for(srv, settings)
        reply = client.chat(ASK)
    assert (reply.cached, len(srv.chat_requests)) == (False, 1)
    assert any("corrupt cache entry" in n and str(path) in n for n in client.calls[0].notes)
    assert CachedReply.from_json(path.read_text(), key).text == CODE


def test_an_entry_whose_request_does_not_match_its_key_is_a_miss(settings, tmp_path):
    cache = ReplyCache(tmp_path / "c")
    request = build_request("m", ASK, {"temperature": 0.0})
    key = request_key(request)
    cache.store(CachedReply(key, request, "real"))
    path = ReplyCache.path_in(cache.folder, key)
    data = json.loads(path.read_text())
    data["request"]["model"] = "edited"
    path.write_text(json.dumps(data))
    found = cache.lookup(key)
    assert found.entry is None and "does not hash to its key" in found.problems[0]


def test_cache_files_are_written_whole_with_no_temp_files_left(settings):
    with FakeLLMServer([CODE, "```python\nb = 2\n```", "```python\nc = 3\n```"]) as srv:
        client = client_for(srv, settings)
        keys = [client.chat([{"role": "user", "content": f"question {i}"}], purpose="p").request_key for i in range(3)]
    files = cache_files(settings.cache_path / "llm")
    assert [p.relative_to(settings.cache_path / "llm").as_posix() for p in files] == \
           sorted(f"{k[:2]}/{k}.json" for k in keys)
    for path in files:
        entry = CachedReply.from_json(path.read_text(), path.stem)
        assert entry.purpose == "p" and entry.created and entry.latency_s > 0


def test_a_failed_atomic_write_keeps_the_old_file_and_leaves_no_temp_file(tmp_path):
    target = atomic_write_text(tmp_path / "entry.json", "old")
    with pytest.raises(TypeError):
        atomic_write_text(target, b"not text")          # fails inside the write
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["entry.json"]


def test_recordings_are_read_under_a_writable_cache_and_never_written(settings, tmp_path):
    recordings = tmp_path / "recordings"
    with FakeLLMServer([CODE]) as srv:
        LLMClient(settings.replace(llm_base_url=srv.base_url), cache=ReplyCache(recordings)).chat(ASK)
    before = {p: p.read_bytes() for p in cache_files(recordings)}
    layered = ReplyCache(tmp_path / "mine", recordings=[recordings])
    new = [{"role": "user", "content": "something new"}]
    with FakeLLMServer(["```python\nnew = 1\n```"]) as srv:
        client = LLMClient(settings.replace(llm_base_url=srv.base_url), cache=layered, retry=FAST)
        assert client.chat(ASK).cached
        assert not client.chat(new).cached
    assert len(srv.chat_requests) == 1
    assert {p: p.read_bytes() for p in cache_files(recordings)} == before
    assert len(cache_files(tmp_path / "mine")) == 1


def test_a_read_only_cache_is_never_written(settings, tmp_path):
    with FakeLLMServer([CODE, CODE]) as srv:
        client = LLMClient(settings.replace(llm_base_url=srv.base_url), cache=ReplyCache(tmp_path / "ro", read_only=True))
        client.chat(ASK)
        client.chat(ASK)
    assert len(srv.chat_requests) == 2 and not (tmp_path / "ro").exists()


def test_samples_of_a_hot_request_are_separate_entries_that_replay_in_order(settings):
    hot = {"temperature": 0.8}
    with FakeLLMServer(["```python\nv = 1\n```", "```python\nv = 2\n```"]) as srv:
        client = client_for(srv, settings)
        texts = [client.chat(ASK, sample=i, **hot).text for i in (0, 1)]
    assert texts[0] != texts[1]
    replay = LLMClient(settings.replace(llm_replay_only=True))
    assert [replay.chat(ASK, sample=i, **hot).text for i in (0, 1)] == texts
    assert srv.chat_requests[1].body["temperature"] == 0.8 and "sample" not in srv.chat_requests[1].body


# ---------------------------------------------------------------- accounting

def test_accounting_records_tokens_latency_attempts_and_failures(settings):
    usage = {"prompt_tokens": 7, "completion_tokens": 5, "total_tokens": 12}
    with FakeLLMServer([Reply(CODE, usage=usage, delay=0.3), Fail(503), Fail(503), Fail(503)]) as srv:
        client = client_for(srv, settings)
        client.chat(ASK, purpose="stage1")
        client.chat(ASK, purpose="stage1")                               # cached
        failure(lambda: client.chat([{"role": "user", "content": "x"}], purpose="tune"))
    first, cached, failed = client.calls
    assert (first.usage.prompt_tokens, first.usage.completion_tokens, first.usage.total_tokens) == (7, 5, 12)
    assert first.latency_s >= 0.3 and first.attempts == 1 and first.ok
    assert cached.cached and cached.attempts == 0 and cached.latency_s < 0.3
    assert (failed.ok, failed.error, failed.attempts) == (False, "llm-server-error", 3)
    assert client.calls.usage.total_tokens == 12                        # the cached call cost nothing
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
            for line in client.calls.summary().splitlines()[2:]}
    assert rows["stage1"][:6] == ["2", "1", "0", "1", "7", "5"]
    assert rows["tune"][:4] == ["1", "0", "1", "3"]
    assert rows["**total**"][:6] == ["3", "1", "1", "4", "7", "5"]
    assert "llm-server-error" in client.calls.table()


def test_concurrent_calls_from_threads_are_all_logged(settings):
    with FakeLLMServer(lambda request: Reply("```python\n" + request["messages"][0]["content"] + "\n```")) as srv:
        client = client_for(srv, settings)
        replies = {}
        threads = [threading.Thread(target=lambda i=i: replies.__setitem__(
            i, client.chat([{"role": "user", "content": f"n = {i}"}]).code())) for i in range(4)]
        for t in threads: t.start()
        for t in threads: t.join()
    assert replies == {i: f"n = {i}\n" for i in range(4)}
    assert len(client.calls) == 4 and len(srv.chat_requests) == 4


def test_streaming_reply_is_cached_like_a_plain_one(settings):
    seen = []
    with FakeLLMServer([CODE]) as srv:
        reply = client_for(srv, settings).chat(ASK, stream=True, on_text=seen.append)
    assert reply.text == CODE == "".join(seen) and len(seen) > 3
    assert reply.usage.completion_tokens > 0
    assert LLMClient(settings.replace(llm_replay_only=True)).chat(ASK).text == CODE   # stream is not in the key


def test_an_exception_in_on_text_propagates_unchanged_and_is_not_retried(settings):
    def refuse(_text):
        raise RuntimeError("the caller stopped reading")
    with FakeLLMServer([CODE, CODE]) as srv:
        with pytest.raises(RuntimeError, match="the caller stopped reading"):
            client_for(srv, settings).chat(ASK, stream=True, on_text=refuse)
    assert len(srv.chat_requests) == 1


def test_a_200_html_page_is_a_server_error_quoting_the_body(settings):
    with FakeLLMServer([Fail(200, body="<html>proxy login</html>")] * 3) as srv:
        err = failure(lambda: client_for(srv, settings).chat(ASK))
    assert err.kinds == ["llm-server-error"]
    assert "not chat-completions JSON" in err.diagnostics[0].message and "proxy login" in err.diagnostics[0].message


def test_a_404_for_a_listed_model_blames_the_url(settings):
    with FakeLLMServer([Fail(404, "no route")]) as srv:
        err = failure(lambda: client_for(srv, settings).chat(ASK))
    assert err.kinds == ["llm-unknown-model"]
    assert "does list 'scripted'" in err.diagnostics[0].hint and "llm_base_url" in err.diagnostics[0].hint
