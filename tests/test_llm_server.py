"""FakeLLMServer speaks HTTP like an OpenAI-compatible endpoint, checked with the stdlib HTTP client
(independent of the `openai` package the LLM client uses)."""
import http.client
import json
import threading
import time

import pytest

from ascendcraft.llm_server import Drop, Empty, Fail, FakeLLMServer, Malformed, Reply, answer_by_prompt, truncated


def post(srv, body, path="/v1/chat/completions", key=None, timeout=5.0):
    "POST JSON; returns (status, headers, raw body)."
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=timeout)
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
    try:
        conn.request("POST", path, body=json.dumps(body) if not isinstance(body, str) else body, headers=headers)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode()
    finally:
        conn.close()


def get(srv, path, key=None):
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {key}"} if key else {})
        response = conn.getresponse()
        return response.status, response.read().decode()
    finally:
        conn.close()


def chat(content="hi", model="scripted", **extra):
    return {"model": model, "messages": [{"role": "user", "content": content}], **extra}


def events(raw: str) -> list:
    "The data payloads of a server-sent event stream."
    return [line[len("data: "):] for line in raw.splitlines() if line.startswith("data: ")]


def test_json_reply_shape_and_usage():
    with FakeLLMServer([Reply("two words", usage={"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5})]) as srv:
        status, headers, raw = post(srv, chat())
    body = json.loads(raw)
    assert status == 200 and headers["Content-Type"] == "application/json"
    assert body["object"] == "chat.completion" and body["model"] == "scripted"
    assert body["choices"][0]["message"] == {"role": "assistant", "content": "two words"}
    assert body["choices"][0]["finish_reason"] == "stop"
    assert body["usage"] == {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}


def test_stream_sends_chunks_usage_and_done():
    with FakeLLMServer([truncated("alpha beta gamma")]) as srv:
        status, headers, raw = post(srv, chat(stream=True, stream_options={"include_usage": True}))
    payloads = events(raw)
    assert status == 200 and headers["Content-Type"] == "text/event-stream"
    assert payloads[-1] == "[DONE]"
    chunks = [json.loads(p) for p in payloads[:-1]]
    assert "".join(c["choices"][0]["delta"].get("content", "") for c in chunks if c["choices"]) == "alpha beta gamma"
    assert [c["choices"][0]["finish_reason"] for c in chunks if c["choices"]][-1] == "length"
    assert chunks[-1]["choices"] == [] and chunks[-1]["usage"]["completion_tokens"] == 3


def test_error_steps_and_retry_after():
    with FakeLLMServer([Fail(429, retry_after=2), Fail(503, body="upstream down"), Empty(), Malformed()]) as srv:
        status, headers, raw = post(srv, chat())
        assert (status, headers["Retry-After"]) == (429, "2")
        assert json.loads(raw)["error"]["type"] == "invalid_request_error"
        assert post(srv, chat())[::2] == (503, "upstream down")
        status, _, raw = post(srv, chat())
        assert status == 200 and json.loads(raw)["choices"] == []
        status, _, raw = post(srv, chat())
        assert status == 200
        with pytest.raises(json.JSONDecodeError):
            json.loads(raw)


def test_drop_closes_without_an_answer():
    with FakeLLMServer([Drop()]) as srv:
        with pytest.raises((http.client.RemoteDisconnected, ConnectionError)):
            post(srv, chat())
        assert len(srv.chat_requests) == 1


def test_auth_unknown_model_and_unknown_path_do_not_consume_steps():
    with FakeLLMServer(["answer"], api_key="sk-1", models=["m1", "m2"]) as srv:
        assert post(srv, chat(model="m1"))[0] == 401
        assert post(srv, chat(model="m1"), key="sk-2")[0] == 401
        status, _, raw = post(srv, chat(model="m3"), key="sk-1")
        assert status == 404 and json.loads(raw)["error"]["code"] == "model_not_found"
        assert post(srv, chat(model="m1"), path="/v1/completions", key="sk-1")[0] == 404
        assert get(srv, "/v1/models")[0] == 401
        status, raw = get(srv, "/v1/models", key="sk-1")
        assert status == 200 and [m["id"] for m in json.loads(raw)["data"]] == ["m1", "m2"]
        assert srv.script.remaining == 1
        assert json.loads(post(srv, chat(model="m2"), key="sk-1")[2])["model"] == "m2"
    assert len(srv.requests) == 7 and len(srv.chat_requests) == 4     # /v1/completions is no chat request


def test_bad_json_body_is_400():
    with FakeLLMServer(["x"]) as srv:
        assert post(srv, "{not json")[0] == 400
        assert srv.requests[0].body == "{not json"


def test_exhausted_script_says_so():
    with FakeLLMServer(["only one"]) as srv:
        post(srv, chat())
        status, _, raw = post(srv, chat())
    assert status == 500 and "script exhausted after 1 chat requests" in json.loads(raw)["error"]["message"]


def test_function_script_answers_by_prompt():
    script = answer_by_prompt({"relu": "RELU", "gelu": Fail(503)})
    with FakeLLMServer(script, models=None) as srv:
        assert json.loads(post(srv, chat("write relu", model="any"))[2])["choices"][0]["message"]["content"] == "RELU"
        assert post(srv, chat("write gelu"))[0] == 503
        status, _, raw = post(srv, chat("write softmax"))
        assert status == 400 and "no rule matches" in raw


def test_a_slow_step_does_not_block_other_requests_and_stop_is_prompt():
    srv = FakeLLMServer([Reply("slow", delay=5.0), "fast"]).start()
    results = {}
    slow = threading.Thread(target=lambda: results.setdefault("slow", _swallow(lambda: post(srv, chat(), timeout=10))))
    slow.start()
    while not srv.chat_requests: time.sleep(0.01)
    started = time.monotonic()
    assert json.loads(post(srv, chat())[2])["choices"][0]["message"]["content"] == "fast"
    assert time.monotonic() - started < 1.0
    started = time.monotonic()
    srv.stop()
    slow.join(timeout=5)
    assert time.monotonic() - started < 1.0 and not slow.is_alive()


def _swallow(call):
    try:
        return call()
    except OSError as e:
        return e


def test_requests_are_recorded_with_headers_and_body():
    with FakeLLMServer(["ok"]) as srv:
        post(srv, chat("count me", temperature=0.5), key="sk-any")
    recorded = srv.requests[0]
    assert (recorded.method, recorded.path) == ("POST", "/v1/chat/completions")
    assert recorded.headers["authorization"] == "Bearer sk-any"
    assert recorded.messages == [{"role": "user", "content": "count me"}] and recorded.body["temperature"] == 0.5


def test_push_extends_the_script_and_ports_differ():
    with FakeLLMServer([]) as a, FakeLLMServer([]) as b:
        assert a.port != b.port
        a.push("late addition")
        assert json.loads(post(a, chat())[2])["choices"][0]["message"]["content"] == "late addition"
