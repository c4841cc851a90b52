"""Checkers for the Day 1 exercises (Agent 的解剖与裸调 API)."""

from __future__ import annotations

import itertools
import json
import uuid
from typing import Any, Callable, Iterator

from .framework import (_CALCULATOR_SCHEMA, _CHINESE, ExerciseFailed, TooManyModelCalls, _brief, _callable, _Check,  # noqa: F401
                        _closed_port, _Recorder, _same_call, _short, offline_base_url, offline_client)

def _raw_reply(base_url: str, model: str, user_message: str) -> str:
    import httpx

    response = httpx.post(f"{base_url}/chat/completions", json={"model": model, "messages": [{"role": "user", "content": user_message}]},
                          headers={"Authorization": "Bearer offline"}, timeout=30)
    response.raise_for_status()
    return response.json()["choices"][0]["message"]["content"]


class _RecordingServer:
    """A one-endpoint HTTP server on 127.0.0.1 that records each request and answers with a fixed chat completion."""

    REPLY = "（记录服务器的固定回复）"

    def __init__(self) -> None:
        import http.server
        import threading

        recorded = self.requests = []  # type: list[dict[str, Any]]
        reply = self.REPLY

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                recorded.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": raw})
                body = json.dumps({"id": "chatcmpl-record", "object": "chat.completion", "created": 0, "model": "recorder",
                                   "choices": [{"index": 0, "message": {"role": "assistant", "content": reply},
                                                "finish_reason": "stop"}]}, ensure_ascii=False).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:  # keep the notebook quiet
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def __enter__(self) -> "_RecordingServer":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self._server.shutdown()
        self._server.server_close()


def day1_raw_chat(chat_once: Callable[[str, str, str, str], str]) -> None:
    """Exercise 1.1: ``chat_once(base_url, api_key, model, user_message) -> str`` with raw ``httpx``."""
    __tracebackhide__ = True
    import httpx

    check = _Check("day1_raw_chat")
    _callable(check.exercise, chat_once)

    case = "发出的请求：POST /chat/completions，带密钥和 JSON 请求体"
    with _RecordingServer() as recorder:
        got = check.call(case, chat_once, recorder.base_url, "sk-check-123", "demo-model", "你好",
                         hint="用 httpx.post(url, json=body, headers={\"Authorization\": f\"Bearer {api_key}\"})。")
    sent = recorder.requests[0] if recorder.requests else None
    wanted_body = {"model": "demo-model", "messages": [{"role": "user", "content": "你好"}]}
    if sent is None:
        raise check.fail(case, expected="向 base_url + \"/chat/completions\" 发一个 POST 请求", got="没有收到 POST 请求",
                         hint="用 httpx.post(...) 发送，不是 httpx.get。")
    try:
        body = json.loads(sent["body"] or b"null")
    except ValueError:
        body = sent["body"][:200]
    problems = []
    if sent["path"] != "/v1/chat/completions":
        problems.append(f"路径是 {sent['path']}，应该是 /v1/chat/completions")
    if sent["headers"].get("authorization") != "Bearer sk-check-123":
        problems.append(f"Authorization 请求头是 {sent['headers'].get('authorization')!r}，应该是 'Bearer sk-check-123'")
    if body != wanted_body:
        problems.append(f"请求体是 {body!r}，应该是 {wanted_body!r}")
    if problems:
        raise check.fail(case, expected="POST /v1/chat/completions，Authorization: Bearer <api_key>，请求体只有 model 和 messages",
                         got="；".join(problems), hint="密钥放在请求头 Authorization: Bearer <api_key> 里；请求体用 json= 发送。")
    if got != _RecordingServer.REPLY:
        raise check.fail(case, expected=_RecordingServer.REPLY, got=got,
                         hint="返回回复的文本：response.json()[\"choices\"][0][\"message\"][\"content\"]。")
    check.ok(case, "路径、密钥和请求体都对")

    base_url = offline_base_url()
    for case, message, url in (("发一句问候，返回回复文本", "你好，你是谁？", base_url),
                               ("换一种语言问，回复也跟着变", "Hello, what can you do?", base_url),
                               ("base_url 末尾带 /", "你好", base_url + "/")):
        got = check.call(case, chat_once, url, "sk-offline-demo", "course-sim", message,
                         hint="检查 URL 是否是 base_url + \"/chat/completions\"，请求体里有 model 和 messages，"
                              "回复文本在 response.json()[\"choices\"][0][\"message\"][\"content\"]。"
                              + ("base_url 可能以 / 结尾：先 base_url.rstrip(\"/\") 再拼路径。" if url.endswith("/") else ""))
        expected = _raw_reply(base_url, "course-sim", message)
        if not isinstance(got, str):
            raise check.fail(case, given=message, expected=f"一个字符串：{expected!r}", got=f"{type(got).__name__}: {_short(got)}",
                             hint="要返回的是回复的文本本身，不是整个 JSON，也不是 message 字典："
                                  "response.json()[\"choices\"][0][\"message\"][\"content\"]。")
        if got != expected:
            raise check.fail(case, given=message, expected=expected, got=got,
                             hint="请求里要带上这次的 user_message（{\"role\": \"user\", \"content\": user_message}），"
                                  "并原样返回 content，不要加工。")
        check.ok(case, _brief(got, 60))

    case = "服务器返回 HTTP 500 时要报错，而不是返回奇怪的东西"
    try:
        got = chat_once(base_url, "sk-offline-demo", "course-sim:server_error", "你好")
    except NotImplementedError:
        raise check.not_done() from None
    except httpx.HTTPStatusError as exc:
        check.ok(case, f"抛出了 httpx.HTTPStatusError（HTTP {exc.response.status_code}）")
    except Exception as exc:  # noqa: BLE001
        raise check.fail(case, expected="抛出 httpx.HTTPStatusError（说明 HTTP 500）",
                         got=f"抛出了 {type(exc).__name__}: {_short(str(exc), 120)}",
                         hint="解析 JSON 之前先调用 response.raise_for_status()：否则错误体 {\"error\": …} 里没有 choices，"
                              "你只会看到一个让人摸不着头脑的 KeyError。") from exc
    else:
        raise check.fail(case, expected="抛出 httpx.HTTPStatusError", got=f"返回了 {_short(got)}",
                         hint="不要吞掉错误：解析 JSON 之前先调用 response.raise_for_status()。")
    check.done()


def _chunk(delta: dict[str, Any] | None = None, finish_reason: str | None = None, *, choices: bool = True,
           usage: dict[str, int] | None = None) -> dict[str, Any]:
    chunk: dict[str, Any] = {"id": "chatcmpl-demo", "object": "chat.completion.chunk", "created": 0, "model": "course-sim",
                             "choices": [{"index": 0, "delta": delta or {}, "finish_reason": finish_reason}] if choices else []}
    if usage is not None:
        chunk["usage"] = usage
    return chunk


def _tool_fragment(index: int, *, id: str | None = None, name: str | None = None, arguments: str = "") -> dict[str, Any]:
    fragment: dict[str, Any] = {"index": index, "function": {"arguments": arguments}}
    if id is not None:
        fragment.update(id=id, type="function")
        fragment["function"]["name"] = name
    return fragment


def _stream_cases() -> list[tuple[str, list[dict[str, Any]], dict[str, Any], str]]:
    text = [_chunk({"role": "assistant", "content": ""}), _chunk({"content": "你好"}), _chunk({"content": "，我是"}),
            _chunk({"content": "课程模拟器。"}), _chunk({}, "stop")]
    with_usage = text[:-1] + [_chunk({}, "stop"), _chunk(choices=False, usage={"prompt_tokens": 9, "completion_tokens": 7, "total_tokens": 16})]
    one_call = [_chunk({"role": "assistant", "content": None}),
                _chunk({"tool_calls": [_tool_fragment(0, id="call_a1", name="get_weather")]}),
                _chunk({"tool_calls": [_tool_fragment(0, arguments='{"ci')]}),
                _chunk({"tool_calls": [_tool_fragment(0, arguments='ty": "北')]}),
                _chunk({"tool_calls": [_tool_fragment(0, arguments='京"}')]}),
                _chunk({}, "tool_calls")]
    two_calls = [_chunk({"role": "assistant", "content": None}),
                 _chunk({"tool_calls": [_tool_fragment(0, id="call_t1", name="get_time")]}),
                 _chunk({"tool_calls": [_tool_fragment(1, id="call_c2", name="calculate")]}),
                 _chunk({"tool_calls": [_tool_fragment(0, arguments="{}")]}),
                 _chunk({"tool_calls": [_tool_fragment(1, arguments='{"expression": ')]}),
                 _chunk({"tool_calls": [_tool_fragment(1, arguments='"17 * 9"}')]}),
                 _chunk({}, "tool_calls")]

    def call(id: str, name: str, arguments: str) -> dict[str, Any]:
        return {"id": id, "type": "function", "function": {"name": name, "arguments": arguments}}

    return [
        ("纯文本的流", text, {"content": "你好，我是课程模拟器。", "tool_calls": [], "finish_reason": "stop"},
         "把每一块 choices[0][\"delta\"][\"content\"] 依次拼起来；注意有的块没有 content 或是 None。"),
        ("最后一块只有 usage、choices 是空列表", with_usage, {"content": "你好，我是课程模拟器。", "tool_calls": [], "finish_reason": "stop"},
         "请求了 stream_options={\"include_usage\": True} 时，最后一块的 choices 是 []：不要直接取 chunk[\"choices\"][0]。"),
        ("一个工具调用，参数分成几片", one_call, {"content": "", "tool_calls": [call("call_a1", "get_weather", '{"city": "北京"}')],
                                        "finish_reason": "tool_calls"},
         "同一个工具调用的 arguments 是分片到达的，要按 index 找到那个调用，把片段拼接（+=）起来，不要覆盖。"),
        ("两个并行的工具调用，片段交错到达", two_calls,
         {"content": "", "tool_calls": [call("call_t1", "get_time", "{}"), call("call_c2", "calculate", '{"expression": "17 * 9"}')],
          "finish_reason": "tool_calls"},
         "用片段里的 index 区分不同的工具调用（例如一个 dict：index → 调用），id 和 name 只在每个调用的第一片里出现。"),
    ]


def _normalize_stream_result(value: Any) -> dict[str, Any]:
    calls = []
    for call in value.get("tool_calls") or []:
        function = call.get("function") or {}
        calls.append({"id": call.get("id"), "type": call.get("type", "function"),
                      "function": {"name": function.get("name"), "arguments": function.get("arguments")}})
    return {"content": value.get("content") or "", "tool_calls": calls, "finish_reason": value.get("finish_reason")}


def _live_stream(base_url: str, body: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The chunks of a real streamed reply (parsed from SSE) and the same request's non-streamed message."""
    import httpx

    chunks = []
    with httpx.stream("POST", f"{base_url}/chat/completions", json={**body, "stream": True,
                                                                   "stream_options": {"include_usage": True}}, timeout=30) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            if line.startswith("data:"):
                data = line[len("data:"):].strip()
                if data == "[DONE]":
                    break
                chunks.append(json.loads(data))
    whole = httpx.post(f"{base_url}/chat/completions", json=body, timeout=30)
    whole.raise_for_status()
    choice = whole.json()["choices"][0]
    message = choice["message"]
    expected = {"content": message.get("content") or "", "tool_calls": message.get("tool_calls") or [],
                "finish_reason": choice["finish_reason"]}
    return chunks, _normalize_stream_result(expected)



def day1_assemble_stream(assemble_stream: Callable[[list[dict[str, Any]]], dict[str, Any]]) -> None:
    """Exercise 1.2: ``assemble_stream(chunks) -> {"content", "tool_calls", "finish_reason"}`` from SSE chunk dicts."""
    __tracebackhide__ = True
    check = _Check("day1_assemble_stream")
    _callable(check.exercise, assemble_stream)
    def live_cases() -> Iterator[tuple[str, list[dict[str, Any]], dict[str, Any], str]]:
        for case, body in (("真实的流：模拟器的文字回答", {"model": "course-sim", "messages": [{"role": "user", "content": "你好，请介绍一下你自己"}]}),
                           ("真实的流：模拟器的工具调用", {"model": "course-sim", "tools": [_CALCULATOR_SCHEMA],
                                                   "messages": [{"role": "user", "content": "帮我算一下 (12 + 34) * 2"}]})):
            chunks, expected = _live_stream(offline_base_url(), body)  # fetched only when the hand-made cases pass
            yield case, chunks, expected, "和同一请求的非流式结果比较：两者应该是同一条消息。"

    for case, chunks, expected, hint in itertools.chain(_stream_cases(), live_cases()):
        got = check.call(case, assemble_stream, [json.loads(json.dumps(chunk)) for chunk in chunks], hint=hint)
        if not isinstance(got, dict):
            raise check.fail(case, expected="一个 dict：{\"content\": …, \"tool_calls\": […], \"finish_reason\": …}",
                             got=f"{type(got).__name__}: {_short(got)}", hint="按练习说明返回一个 dict。")
        normalized = _normalize_stream_result(got)
        for key in ("content", "tool_calls", "finish_reason"):
            if normalized[key] != expected[key]:
                raise check.fail(case, given=f"{len(chunks)} 个 chunk", expected=f"{key} = {expected[key]!r}",
                                 got=f"{key} = {normalized[key]!r}", hint=hint)
        summary = f"{len(chunks)} 块 → " + (f"{len(expected['tool_calls'])} 个工具调用" if expected["tool_calls"]
                                           else f"文本 {_brief(expected['content'], 30)!r}")
        check.ok(case, summary)
    check.done()


def _status_error(cls: type, status: int, message: str, *, headers: dict[str, str] | None = None) -> Any:
    import httpx

    body = {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": None}}
    request = httpx.Request("POST", "https://api.example.com/v1/chat/completions")
    response = httpx.Response(status, request=request, json=body, headers=headers)
    return cls(f"Error code: {status} - {body}", response=response, body=body["error"])


def _real_error(model: str, *, base_url: str | None = None, timeout: float = 10.0) -> Exception:
    """The exception the official SDK really raises for this request (no retries)."""
    import openai

    sdk = openai.OpenAI(base_url=base_url or offline_base_url(), api_key="sk-offline-demo", timeout=timeout, max_retries=0)
    fresh = f"你好（{uuid.uuid4().hex[:8]}）"  # a request the server has not seen: rate_limit answers 429 to each new one once
    try:
        sdk.chat.completions.create(model=model, messages=[{"role": "user", "content": fresh}])
    except openai.OpenAIError as exc:
        return exc
    raise RuntimeError(f"expected the request with model {model!r} to fail, but it succeeded")


def day1_explain_error(explain_error: Callable[[Exception], str]) -> None:
    """Exercise 1.3: ``explain_error(exc) -> str``, a Chinese message naming the ``.env`` variable to fix."""
    __tracebackhide__ = True
    import openai

    check = _Check("day1_explain_error")
    _callable(check.exercise, explain_error)
    cases: list[tuple[str, Callable[[], Exception], tuple[str, ...], str]] = [
        ("401 密钥错误", lambda: _status_error(openai.AuthenticationError, 401, "Incorrect API key provided."),
         ("LLM_API_KEY",), "401 说明服务器不认这个密钥：提示检查 .env 里的 LLM_API_KEY。"),
        ("404 模型不存在（真实请求 course-sim:no_such_model）", lambda: _real_error("course-sim:no_such_model"),
         ("LLM_MODEL",), "404 多半是模型名写错了：提示检查 .env 里的 LLM_MODEL。"),
        ("连接被拒绝（真实请求一个没人监听的端口）", lambda: _real_error("course-sim", base_url=f"http://127.0.0.1:{_closed_port()}/v1"),
         ("LLM_BASE_URL",), "连不上服务器时要检查 .env 里的 LLM_BASE_URL（地址、端口、/v1），以及服务是否启动。"),
        ("超时（真实请求 course-sim:slow，timeout=0.3 秒）", lambda: _real_error("course-sim:slow", timeout=0.3),
         ("LLM_TIMEOUT", "超时"),
         "注意 openai.APITimeoutError 是 openai.APIConnectionError 的子类：要先判断超时，再判断连接错误。"
         "超时的提示要说“超时”，并建议调大 .env 里的 LLM_TIMEOUT。"),
        ("429 请求太频繁（真实请求 course-sim:rate_limit）", lambda: _real_error("course-sim:rate_limit"),
         ("稍后",), "429 是限流：告诉用户稍后再试（或减少请求频率），这不是密钥或地址的问题。"),
    ]
    for case, make_error, must, hint in cases:
        exc = make_error()
        got = check.call(case, explain_error, exc, hint="你的函数对这种异常抛出了异常；用 isinstance 判断类型，任何异常都要返回一段文字。")
        if not isinstance(got, str) or not _CHINESE.search(got):
            raise check.fail(case, given=f"{type(exc).__name__}", expected="一段中文说明（str）", got=_short(got), hint=hint)
        missing = [word for word in must if word not in got]
        if missing:
            raise check.fail(case, given=f"{type(exc).__name__}: {_short(str(exc), 100)}",
                             expected=f"提到 {'、'.join(missing)}", got=got, hint=hint)
        check.ok(case, f"{type(exc).__name__} → {_brief(got, 50)}")
    case = "其他任何异常也要给出一段话，而不是再抛出异常"
    got = check.call(case, explain_error, ValueError("something unexpected"),
                     hint="最后加一个兜底分支：return f\"调用模型失败：{exc}\" 之类。")
    if not isinstance(got, str) or not got.strip():
        raise check.fail(case, expected="一段非空的文字", got=_short(got), hint="最后加一个兜底分支，总是返回一段文字。")
    check.ok(case, _brief(got, 50))
    check.done()


__all__ = ["day1_raw_chat","day1_assemble_stream","day1_explain_error"]
