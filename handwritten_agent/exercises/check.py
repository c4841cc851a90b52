"""Checkers for the exercises of Days 1–3: one function per exercise, called from its check cell.

    from handwritten_agent.exercises import check
    check.day2_extract_json(extract_json)

A checker runs the learner's code on several cases — against the offline course simulator when a
model is needed, so the result is the same on every machine — and prints one ``✅`` line per case
that passes. At the first case that fails it raises ``ExerciseFailed`` (an ``AssertionError``, so
nbval and pytest mark the cell failed) with a message in Chinese: which case, what was expected,
what came back, and a hint. The ``raise NotImplementedError()`` left in an unfinished exercise
becomes "还没有完成".

Every checker fails on the placeholder and on the plausible wrong answers listed in
``tests/test_exercises.py``, and passes on the published solution.

Left out: scores and partial credit — an exercise passes or says what to fix. The checkers always use
the offline simulator, even when ``.env`` names a real provider, because a real model's answers vary.
"""

from __future__ import annotations

import itertools
import json
import re
import socket
import uuid
from typing import Any, Callable, Iterator, Sequence

from ..types import ToolCall, shorten

NOT_DONE = "还没有完成：请在 `# YOUR CODE HERE` 处写下你的实现（并删掉 `raise NotImplementedError()` 这一行），然后重新运行这个单元格。"
_CHINESE = re.compile(r"[\u4e00-\u9fff]")


class ExerciseFailed(AssertionError):
    """An exercise's check did not pass. The message (Chinese) says which case, what was expected and a hint."""


# ---------------------------------------------------------------------------------------------
# The framework: cases, messages, the shared offline server
# ---------------------------------------------------------------------------------------------

def _short(value: Any, limit: int = 300) -> str:
    """A learner's value for a failure message: cut to ``limit`` characters, saying how long it was."""
    return shorten(value, limit, one_line=False, show_length=True)


class _Check:
    """One run of one checker: counts passed cases, prints them, and builds failure messages."""

    def __init__(self, exercise: str):
        self.exercise = exercise
        self.passed = 0
        self._pending: list[str] = []

    def ok(self, case: str, detail: str = "") -> None:
        self.passed += 1
        self._pending.append(f"✅ {case}" + (f"：{detail}" if detail else ""))

    def _flush(self) -> None:
        # One print for all lines: a notebook then stores one output, the same on every run,
        # instead of pieces split wherever the kernel happened to flush while a case was running.
        if self._pending:
            print("\n".join(self._pending))
            self._pending.clear()

    def not_done(self) -> ExerciseFailed:
        self._flush()
        return ExerciseFailed(f"{self.exercise}：{NOT_DONE}")

    def fail(self, case: str, *, expected: Any, got: Any, hint: str, given: Any = None) -> ExerciseFailed:
        self._flush()
        lines = [f"{self.exercise}：用例「{case}」没有通过。"]
        if given is not None:
            lines.append(f"  输入：{_short(given)}")
        lines.append(f"  期望：{_short(expected)}")
        lines.append(f"  实际：{_short(got)}")
        lines.append(f"  提示：{hint}")
        if self.passed:
            lines.append(f"（前面 {self.passed} 个用例已通过。）")
        return ExerciseFailed("\n".join(lines))

    def call(self, case: str, fn: Callable[..., Any], *args: Any, hint: str = "", expected: Any = "正常返回", **kwargs: Any) -> Any:
        """Run the learner's code; the placeholder and unexpected exceptions become ``ExerciseFailed``."""
        __tracebackhide__ = True  # pytest and IPython leave the checker's own frames out of the traceback
        try:
            return fn(*args, **kwargs)
        except NotImplementedError:
            raise self.not_done() from None
        except ExerciseFailed:
            self._flush()
            raise
        except Exception as exc:  # noqa: BLE001 - any learner bug becomes a readable failure
            raise self.fail(case, expected=expected, got=f"抛出了异常 {type(exc).__name__}: {exc}",
                            hint=hint or "先在上面的单元格里单独调用你的函数，看看是哪一行出的错。") from exc

    def done(self) -> None:
        self._pending.append(f"🎉 {self.exercise}：全部 {self.passed} 个用例通过！")
        self._flush()


def _same_call(got: Any, wanted: ToolCall) -> bool:
    """The learner's value is a call to the same tool with equal arguments (key order and spacing do not matter)."""
    return isinstance(got, ToolCall) and got.same_call(wanted)


def _brief(value: Any, limit: int = 40) -> str:
    """One short line for a ✅ message."""
    return shorten(value, limit)


def _callable(exercise: str, fn: Any, what: str = "函数") -> None:
    if not callable(fn):
        raise ExerciseFailed(f"{exercise}：需要传入你写的{what}本身（例如 check.{exercise}(my_function)，不带括号），"
                             f"收到的是 {type(fn).__name__}: {_short(fn, 100)}")


def offline_base_url() -> str:
    """The API root of the in-process offline server that ``connect("offline")`` shares (started on first use)."""
    from ..llm import connect

    return connect("offline", quiet=True).base_url


def offline_client(model: str = "course-sim", *, max_retries: int = 0, timeout: float = 30.0) -> Any:
    """A ``ChatClient`` on the offline simulator, independent of ``.env`` (checks must not depend on it)."""
    from ..llm import OFFLINE_API_KEY, ChatClient

    return ChatClient(offline_base_url(), OFFLINE_API_KEY, model, timeout=timeout, max_retries=max_retries,
                      label="offline course simulator", backoff=0.0, max_wait=0.0)


def _closed_port() -> int:
    """A local port with nothing listening on it (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# ---------------------------------------------------------------------------------------------
# Day 1
# ---------------------------------------------------------------------------------------------

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


_CALCULATOR_SCHEMA = {"type": "function", "function": {
    "name": "calculate", "description": "计算一个数学表达式，例如 (12 + 34) * 2。",
    "parameters": {"type": "object", "properties": {"expression": {"type": "string", "description": "要计算的表达式，例如 17 * 9"}},
                   "required": ["expression"]}}}


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


# ---------------------------------------------------------------------------------------------
# Day 2
# ---------------------------------------------------------------------------------------------

_WEATHER_SCHEMA = {"type": "function", "function": {
    "name": "get_weather", "description": "查询某个城市今天的天气，例如“北京今天天气怎么样”。",
    "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "城市名称，例如：北京"}},
                   "required": ["city"]}}}

_EXTRACT_CASES: list[tuple[str, str, Any, str]] = [
    ("只有 JSON", '{"name": "get_weather", "arguments": {"city": "北京"}}',
     {"name": "get_weather", "arguments": {"city": "北京"}}, "最简单的情况：json.loads 就够了。"),
    ("包在 ```json 代码块里", '```json\n{\n  "name": "calculate",\n  "arguments": {"expression": "17 * 9"}\n}\n```',
     {"name": "calculate", "arguments": {"expression": "17 * 9"}}, "先去掉 ``` 代码块标记，或者直接找第一个 { 开始的 JSON。"),
    ("前后有解释文字", '好的，我来帮你查一下。\n{"name": "get_weather", "arguments": {"city": "上海"}}\n请稍等片刻。',
     {"name": "get_weather", "arguments": {"city": "上海"}}, "从第一个 { 开始，数括号找到与它配对的 }。"),
    ("JSON 后面还有别的花括号", '调用：{"name": "calculate", "arguments": {"expression": "(1 + 2) * 3"}} 结果稍后以 {结果} 的形式给出。',
     {"name": "calculate", "arguments": {"expression": "(1 + 2) * 3"}},
     "贪婪的正则 \\{.*\\} 会一直匹配到最后一个 }：要数括号（{ 加一、} 减一），数到 0 就是这个对象的结尾。"),
    ("字符串里有括号", '{"name": "save_note", "arguments": {"text": "记得带 {钥匙} 和 }雨伞{"}}',
     {"name": "save_note", "arguments": {"text": "记得带 {钥匙} 和 }雨伞{"}}, "数括号时要跳过字符串里面的字符（在 \"…\" 之间的 { } 不算）。"),
    ("尾随逗号", '{"name": "calculate", "arguments": {"expression": "1 + 2",},}',
     {"name": "calculate", "arguments": {"expression": "1 + 2"}}, "json.loads 不接受 },} 这样的尾随逗号：在 } 或 ] 前面的逗号要删掉（字符串外面的）。"),
    ("全角标点和引号", '｛“name”：“get_weather”，“arguments”：｛“city”：“广州”｝｝',
     {"name": "get_weather", "arguments": {"city": "广州"}}, "中文输入法打出的 ｛｝“”：， 要换成 {}\":,。"),
    ("字符串里的全角逗号要保留", '{"name"："save_note"，"arguments"：{"text"："你好，世界"}}',
     {"name": "save_note", "arguments": {"text": "你好，世界"}},
     "只替换字符串外面的全角标点：\"你好，世界\" 里的逗号是内容，不能改成英文逗号。逐个字符扫描，记住当前是否在字符串里。"),
    ("单引号", "{'name': 'get_weather', 'arguments': {'city': '深圳'}}",
     {"name": "get_weather", "arguments": {"city": "深圳"}}, "Python 风格的单引号不是合法 JSON：把字符串外面的 ' 换成 \"。"),
]


def _prompt_json_replies(user_message: str, profiles: Sequence[str]) -> list[tuple[str, str]]:
    """What the simulator writes in prompt-JSON mode for each messiness profile (no ``tools`` parameter)."""
    from ..prompting import render_tool_prompt

    system = render_tool_prompt([_WEATHER_SCHEMA, _CALCULATOR_SCHEMA])
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user_message}]
    return [(profile, offline_client(f"course-sim:{profile}").complete(messages).content or "") for profile in profiles]


def day2_extract_json(extract_json: Callable[[str], dict[str, Any]]) -> None:
    """Exercise 2.1: ``extract_json(text) -> dict`` for messy model output; ``ValueError`` when there is no JSON."""
    __tracebackhide__ = True
    check = _Check("day2_extract_json")
    _callable(check.exercise, extract_json)
    for case, text, expected, hint in _EXTRACT_CASES:
        got = check.call(case, extract_json, text, expected=expected, hint=hint)
        if got != expected:
            raise check.fail(case, given=text, expected=expected, got=got, hint=hint)
        check.ok(case)

    case = "没有 JSON 时抛出 ValueError"
    text = "今天天气不错，这个问题不需要调用工具。"
    try:
        got = extract_json(text)
    except NotImplementedError:
        raise check.not_done() from None
    except ValueError as exc:
        check.ok(case, f"ValueError: {_brief(str(exc), 60)}")
    except Exception as exc:  # noqa: BLE001
        raise check.fail(case, given=text, expected="抛出 ValueError", got=f"抛出了 {type(exc).__name__}: {exc}",
                         hint="找不到 JSON 时 raise ValueError(\"…说明原因…\")，调用方才能把原因告诉模型。") from exc
    else:
        raise check.fail(case, given=text, expected="抛出 ValueError", got=f"返回了 {got!r}",
                         hint="不要返回 {} 或 None 假装成功：raise ValueError(\"…说明原因…\")，调用方才能把原因告诉模型。")

    profiles = ("clean", "fenced", "prose", "trailing_comma", "fullwidth", "single_quotes", "mixed")
    replies = _prompt_json_replies("帮我查一下杭州的天气", profiles)
    expected = json.loads(replies[0][1])
    for profile, text in replies:
        case = f"模拟器的 course-sim:{profile} 回复"
        got = check.call(case, extract_json, text, expected=expected, hint="把这段回复复制出来单独试一试。")
        if got != expected:
            raise check.fail(case, given=text, expected=expected, got=got, hint="把这段回复复制出来单独试一试，看是哪种凌乱没处理。")
        check.ok(case, _brief(text.replace("\n", "⏎"), 50))
    check.done()


class TooManyModelCalls(RuntimeError):
    """Raised by a checker's model when the learner's loop keeps calling it far beyond any sensible bound."""


class _Recorder:
    """Wraps a ChatModel and keeps each request's messages (for checking what the learner sent)."""

    def __init__(self, client: Any):
        self.client = client
        self.requests: list[list[dict[str, Any]]] = []

    def complete(self, messages: Sequence[dict[str, Any]], tools: Any = None, **options: Any) -> Any:
        self.requests.append(json.loads(json.dumps(list(messages), ensure_ascii=False, default=str)))
        if len(self.requests) > 20:
            raise TooManyModelCalls("调用模型超过了 20 次：循环没有上限吗？每个循环都要有明确的次数上限。")
        return self.client.complete(messages, tools, **options)


def day2_retry_on_parse_error(ask_for_tool_call: Callable[..., Any]) -> None:
    """Exercise 2.2: ``ask_for_tool_call(client, messages, max_attempts=3)`` retries with the ParseError told to the model."""
    __tracebackhide__ = True
    from ..parsing import ParseError, parse_tool_call
    from ..prompting import render_tool_prompt
    from ..scripted import ScriptedClient

    check = _Check("day2_retry_on_parse_error")
    _callable(check.exercise, ask_for_tool_call)
    system = render_tool_prompt([_WEATHER_SCHEMA, _CALCULATOR_SCHEMA])
    start = [{"role": "system", "content": system}, {"role": "user", "content": "计算 (3 + 4) * 5"}]
    broken = '{"name": "calculate", "arguments": {"expression": "(3 + 4) * 5"'
    good = '{"name": "calculate", "arguments": {"expression": "(3 + 4) * 5"}}'
    wanted = ToolCall.from_arguments("calculate", {"expression": "(3 + 4) * 5"})
    error = parse_tool_call(broken)
    assert isinstance(error, ParseError)

    case = "第一次回复被截断，第二次正确"
    client = _Recorder(ScriptedClient([broken, good]))
    got = check.call(case, ask_for_tool_call, client, [dict(m) for m in start], max_attempts=3)
    if not _same_call(got, wanted):
        raise check.fail(case, expected=wanted, got=got, hint="解析失败后要再问一次模型，并返回第二次解析出的 ToolCall。")
    if len(client.requests) != 2:
        raise check.fail(case, expected="调用模型 2 次", got=f"调用了 {len(client.requests)} 次", hint="第一次失败、第二次成功，就应该正好问两次。")
    second = client.requests[1]
    if second[: len(start)] != start:
        raise check.fail(case, expected=f"第二次请求以原来的 {len(start)} 条消息开头", got=second[: len(start)],
                         hint="重试时要保留原来的对话（system + user），在后面追加，而不是重新开始。")
    tail = second[len(start):]
    if len(tail) != 2 or tail[0].get("role") != "assistant" or tail[0].get("content") != broken:
        raise check.fail(case, expected="追加的第一条是模型那次的原始回复：{\"role\": \"assistant\", \"content\": <原文>}", got=tail,
                         hint="把模型写坏的那条回复原样作为 assistant 消息追加，模型才知道自己哪里写错了。")
    if tail[1].get("role") != "user" or error.message not in str(tail[1].get("content")):
        raise check.fail(case, expected=f"追加的第二条是 user 消息，内容包含 ParseError.message：{error.message}", got=tail[1],
                         hint="parse_tool_call 返回的 ParseError 有一个写给模型看的 message，把它作为 user 消息发回去。")
    check.ok(case, f"第二次请求带上了错误说明：{_brief(error.message, 40)}")

    case = "模型直接用文字回答时返回 None"
    client = _Recorder(ScriptedClient(["你好！我是助手，有什么可以帮你？"]))
    got = check.call(case, ask_for_tool_call, client, [{"role": "user", "content": "你好"}], max_attempts=3)
    if got is not None or len(client.requests) != 1:
        raise check.fail(case, expected="返回 None，只调用模型 1 次", got=f"返回 {got!r}，调用了 {len(client.requests)} 次",
                         hint="parse_tool_call 返回 None 表示模型没想调用工具：这不是错误，直接返回 None。")
    check.ok(case)

    case = "一直写坏：最多尝试 max_attempts 次，然后抛出 ValueError"
    client = _Recorder(ScriptedClient([broken] * 6))
    try:
        got = ask_for_tool_call(client, [dict(m) for m in start], max_attempts=3)
    except NotImplementedError:
        raise check.not_done() from None
    except ExerciseFailed:
        check._flush()
        raise
    except ValueError as exc:
        if len(client.requests) != 3:
            raise check.fail(case, expected="正好调用模型 3 次", got=f"调用了 {len(client.requests)} 次",
                             hint="max_attempts=3 表示总共问 3 次（第一次 + 2 次重试）。") from exc
        check.ok(case, f"问了 3 次后放弃：ValueError: {_brief(str(exc), 40)}")
    except Exception as exc:  # noqa: BLE001
        raise check.fail(case, expected="抛出 ValueError", got=f"抛出了 {type(exc).__name__}: {exc}",
                         hint="用完 max_attempts 次后 raise ValueError(最后一次的错误说明)。") from exc
    else:
        raise check.fail(case, expected="抛出 ValueError", got=f"返回了 {got!r}（调用了 {len(client.requests)} 次）",
                         hint="用完 max_attempts 次还解析不出来，就 raise ValueError(最后一次的错误说明)，不要返回半成品。")

    for case, model, attempts in (("模拟器 course-sim:malformed_json：第一次回复被截断", "course-sim:malformed_json", 2),
                                  ("模拟器 course-sim:mixed：凌乱但能解析，一次成功", "course-sim:mixed", 1)):
        client = _Recorder(offline_client(model))
        got = check.call(case, ask_for_tool_call, client, [dict(m) for m in start], max_attempts=3)
        if not _same_call(got, wanted) or len(client.requests) != attempts:
            raise check.fail(case, expected=f"{wanted}，调用模型 {attempts} 次", got=f"{got!r}，调用了 {len(client.requests)} 次",
                             hint="用 handwritten_agent.parsing.parse_tool_call 解析 reply.content；出错时追加 assistant 原文和 user 错误说明再问。")
        check.ok(case, f"{attempts} 次请求后得到 {got.name}({got.arguments})")
    check.done()


_PROMPT_TOOLS = [
    {"name": "get_stock_price", "description": "查询一只股票的最新价格（示例数据），例如“苹果公司的股价是多少”。",
     "parameters": {"type": "object", "properties": {
         "symbol": {"type": "string", "description": "股票代码，例如：AAPL"},
         "market": {"type": "string", "enum": ["US", "HK", "CN"], "description": "交易所所在的市场"}},
         "required": ["symbol"]}},
    {"name": "translate_text", "description": "把一段文字翻译成另一种语言，例如“把你好翻译成英文”。",
     "parameters": {"type": "object", "properties": {
         "text": {"type": "string", "description": "要翻译的原文"},
         "target_language": {"type": "string", "enum": ["英文", "日文", "法文"], "description": "目标语言"}},
         "required": ["text", "target_language"]}},
    {"name": "get_current_time", "description": "获取当前的日期和时间，不需要参数。",
     "parameters": {"type": "object", "properties": {}}},
]


def day2_render_tool_prompt(render_tool_prompt: Callable[[list[dict[str, Any]]], str]) -> None:
    """Exercise 2.3: ``render_tool_prompt(tools) -> str`` from JSON Schemas; the simulator must then call the right tool."""
    __tracebackhide__ = True
    from ..parsing import parse_tool_call

    check = _Check("day2_render_tool_prompt")
    _callable(check.exercise, render_tool_prompt)
    tools = json.loads(json.dumps(_PROMPT_TOOLS, ensure_ascii=False))
    prompt = check.call("渲染三个工具", render_tool_prompt, tools, hint="tools 是一个列表，每个元素有 name、description、parameters。")
    if not isinstance(prompt, str) or not prompt.strip():
        raise check.fail("渲染三个工具", expected="一段非空的提示词（str）", got=_short(prompt), hint="函数要 return 拼好的字符串。")
    if tools != _PROMPT_TOOLS:
        raise check.fail("不修改传入的 tools", expected="tools 原样不变", got=tools, hint="渲染提示词只读 tools，不要改动它。")

    needed: list[tuple[str, list[str], str]] = []
    for spec in _PROMPT_TOOLS:
        needed.append((f"写出工具 {spec['name']} 的名字和描述", [spec["name"], spec["description"]],
                       "每个工具都要写出 name 和完整的 description：模型靠描述决定用哪个工具。"))
        for pname, pschema in spec["parameters"]["properties"].items():
            words = [pname, pschema["description"], *pschema.get("enum", [])]
            needed.append((f"写出参数 {spec['name']}.{pname}（名字、描述{'、可选值' if 'enum' in pschema else ''}）", words,
                           "每个参数都要写出名字、类型和描述；有 enum 的要列出全部可选值（直接放入 JSON Schema 最省事）。"))
    needed.append(("说明哪些参数必填", ["required"] if "required" in prompt else ["必填"],
                   "要告诉模型哪些参数是必填的（写出 required 列表，或写“必填”）。"))
    needed.append(("规定回复格式：一个含 name 和 arguments 的 JSON 对象", ['"name"', '"arguments"'],
                   "写明调用工具时只输出一个 JSON 对象，例如 {\"name\": \"工具名\", \"arguments\": {…}}，字段名要带双引号。"))
    for case, words, hint in needed:
        missing = [word for word in words if word not in prompt]
        if missing:
            raise check.fail(case, expected=f"提示词里包含 {missing}", got=_short(prompt, 400), hint=hint)
        check.ok(case)

    client = offline_client("course-sim")
    for case, request, expected in (
            ("模拟器读你的提示词：查股价", "帮我查一下 AAPL 的股价", ToolCall.from_arguments("get_stock_price", {"symbol": "AAPL"})),
            ("模拟器读你的提示词：翻译", "把“早上好”翻译成日文", ToolCall.from_arguments("translate_text", {"text": "早上好", "target_language": "日文"}))):
        reply = client.complete([{"role": "system", "content": prompt}, {"role": "user", "content": request}])
        got = parse_tool_call(reply.content or "")
        if not _same_call(got, expected):
            raise check.fail(case, given=request, expected=expected, got=reply.content,
                             hint="模拟器和真实模型一样，只能从你的提示词里了解工具：确认每个工具的 JSON Schema 都完整写进去了"
                                  "（可以用 json.dumps(parameters, ensure_ascii=False) 原样放进去），并写明输出 JSON 的格式。")
        check.ok(case, f"{_brief(request, 30)} → {got.name}({got.arguments})")
    check.done()


# ---------------------------------------------------------------------------------------------
# Day 3
# ---------------------------------------------------------------------------------------------

def day3_exchange_rate_tool(build_exchange_tool: Callable[[], Any]) -> None:
    """Exercise 3.1: ``build_exchange_tool() -> Tool``; the Agent must choose it for "100 美元能换多少人民币"."""
    __tracebackhide__ = True
    from ..agent import Agent
    from ..scenarios import calculator
    from ..scenarios.exchange import CNY_PER_UNIT
    from ..tools import Tool, ToolRegistry

    check = _Check("day3_exchange_rate_tool")
    _callable(check.exercise, build_exchange_tool)
    case = "用 @tool 定义工具"
    made = check.call(case, build_exchange_tool, hint="@tool 在定义时就会检查：每个参数要有类型注解，文档字符串要有描述和 Args: 部分。")
    if not isinstance(made, Tool):
        raise check.fail(case, expected="一个 Tool（用 @tool 装饰的函数）", got=f"{type(made).__name__}: {_short(made)}",
                         hint="在 build_exchange_tool 里定义 @tool 装饰的函数，然后 return 它（不带括号）。")
    if made.name in ("get_exchange_rate", "calculator"):
        raise check.fail(case, expected="一个你自己命名的新工具", got=made.name,
                         hint="请自己写一个工具，并换一个名字（例如 query_exchange_rate），不要直接用课程包里现成的。")
    check.ok(case, f"{made.name}{tuple(made.parameters.get('properties', {}))}")

    case = "描述里有例子"
    properties = made.parameters.get("properties", {})
    text = made.description + " " + " ".join(str(p.get("description", "")) for p in properties.values())
    if "例如" not in text and "比如" not in text:
        raise check.fail(case, expected="工具或参数的描述里有“例如 …”", got=text,
                         hint="好的描述带例子：例如参数 from_currency 写“要换出的货币代码，例如：USD”。模型（和模拟器）照着例子填参数。")
    check.ok(case)

    registry = ToolRegistry([made, calculator])
    for request, code, amount in (("100 美元能换多少人民币", "USD", 100),
                                  ("查询汇率后计算 100 美元能换多少人民币", "USD", 100),
                                  ("先查欧元兑人民币的汇率，再算 50 欧元能换多少人民币", "EUR", 50)):
        case = f"Agent 回答“{request}”"
        rate = CNY_PER_UNIT[code] / CNY_PER_UNIT["CNY"]
        total = f"{amount * rate:g}"
        run = Agent(offline_client(), registry, max_steps=6).run(request)
        used = [record for record in run.tool_calls if record.call.name == made.name]
        if not used:
            asked = ", ".join(f"{r.call.name}({r.call.arguments})" for r in run.tool_calls) or "没有调用任何工具"
            raise check.fail(case, expected=f"调用你的工具 {made.name}", got=f"{asked}；回答：{run.answer}",
                             hint="模型（模拟器）是按工具名、描述和参数描述来选工具和填参数的：描述要写清楚“查询汇率”，"
                                  "参数描述要说明填什么并给例子（例如 USD、CNY）。")
        record = used[0]
        if not record.result.success:
            raise check.fail(case, expected="工具调用成功", got=f"{record.call.name}({record.call.arguments}) → {record.result.error}",
                             hint="看看模型填的参数和你的函数期望的是否一致：模型可能填货币代码（USD），也可能填中文名（美元），"
                                  "用 currency_code() 两种都能认。")
        data = json.dumps(record.result.data, ensure_ascii=False, default=str)
        if f"{rate:g}" not in data:
            raise check.fail(case, expected=f"工具结果里有汇率 {rate:g}（1 {code} = {rate:g} CNY）", got=f"{record.call.arguments} → {data}",
                             hint="返回 1 单位换出货币能换多少目标货币：CNY_PER_UNIT[换出] / CNY_PER_UNIT[换成]，别把方向弄反。")
        answer = run.answer or ""
        if run.stop_reason != "final" or total not in answer:
            raise check.fail(case, expected=f"最终回答里有换算结果 {total}", got=f"stop_reason={run.stop_reason}，回答：{answer}",
                             hint="工具返回汇率，模型再用计算器乘上金额：确认工具结果里有 rate，而且计算器也注册了。")
        check.ok(case, _brief(" ".join(answer.split()), 70))
    check.done()


def day3_loop_exits(run_loop: Callable[..., Any]) -> None:
    """Exercise 3.2: ``run_loop(client, registry, user_message, max_steps=5) -> (stop_reason, messages)``."""
    __tracebackhide__ = True
    from ..scenarios import basic_registry
    from ..scripted import ScriptedClient, call, calls, reply

    check = _Check("day3_loop_exits")
    _callable(check.exercise, run_loop)

    def outcome(case: str, client: Any, message: str, max_steps: int, hint: str) -> tuple[str, list[dict[str, Any]]]:
        got = check.call(case, run_loop, client, basic_registry(), message, max_steps=max_steps, hint=hint)
        if not (isinstance(got, tuple) and len(got) == 2 and isinstance(got[0], str) and isinstance(got[1], list)):
            raise check.fail(case, expected="(stop_reason, messages)，例如 (\"final\", [...])", got=_short(got),
                             hint="return stop_reason, messages")
        return got

    case = "调用一次工具后给出答案 → final"
    client = _Recorder(ScriptedClient([calls(call("calculator", {"expression": "17 * 9"}, id="call_calc_1")), reply("17 × 9 = 153。")]))
    reason, messages = outcome(case, client, "17 乘以 9 等于多少？", 5, "循环：调用模型 → 有 tool_calls 就执行并回传 → 没有就结束。")
    if reason != "final" or len(client.requests) != 2:
        raise check.fail(case, expected="stop_reason=final，调用模型 2 次", got=f"{reason}，调用了 {len(client.requests)} 次",
                         hint="模型回复里没有 tool_calls 时就是最终答案：返回 \"final\"。")
    second = client.requests[1]
    assistant = next((m for m in second if m.get("role") == "assistant"), None)
    tool_messages = [m for m in second if m.get("role") == "tool"]
    if not assistant or not assistant.get("tool_calls") or assistant["tool_calls"][0].get("id") != "call_calc_1":
        raise check.fail(case, expected="第二次请求里有带 tool_calls 的 assistant 消息（id 原样保留）", got=second,
                         hint="把模型的回复原样追加：messages.append(reply.to_message())。")
    if len(tool_messages) != 1 or tool_messages[0].get("tool_call_id") != "call_calc_1" or "153" not in str(tool_messages[0].get("content")):
        raise check.fail(case, expected="一条 role=tool 的消息，tool_call_id=\"call_calc_1\"，内容里有结果 153", got=tool_messages,
                         hint="每个工具调用都要回一条 {\"role\": \"tool\", \"tool_call_id\": call.id, \"content\": result.to_content()}。")
    check.ok(case, "工具结果带着 tool_call_id 回传了")

    case = "闲聊直接回答 → final"
    client = _Recorder(ScriptedClient([reply("你好！我是一个可以调用工具的助手。")]))
    reason, messages = outcome(case, client, "你好，你是谁？", 5, "")
    if reason != "final" or len(client.requests) != 1:
        raise check.fail(case, expected="final，调用模型 1 次", got=f"{reason}，调用了 {len(client.requests)} 次", hint="没有 tool_calls 就结束。")
    check.ok(case)

    case = "模型一直要调用工具 → max_steps"
    client = _Recorder(ScriptedClient([calls(call("calculator", {"expression": f"{i} + 1"}, id=f"call_{i}")) for i in range(10)]))
    reason, messages = outcome(case, client, "一直算下去", 3, "")
    if reason != "max_steps" or len(client.requests) != 3:
        raise check.fail(case, expected="max_steps，正好调用模型 3 次（max_steps=3）", got=f"{reason}，调用了 {len(client.requests)} 次",
                         hint="用 for step in range(max_steps) 限制次数；循环正常结束（没有 return）就说明步数用完了。")
    check.ok(case)

    case = "调用模型时抛出异常 → error（不能让异常冒出来）"
    reason, messages = outcome(case, ScriptedClient([]), "你好", 5,
                               "把 client.complete(...) 放进 try/except Exception，出错就 return \"error\", messages。")
    if reason != "error":
        raise check.fail(case, expected="error", got=reason, hint="模型调用失败时返回 \"error\"。")
    check.ok(case)

    case = "空回复（既没有内容也没有工具调用）→ error"
    client = _Recorder(ScriptedClient([reply("")]))
    reason, messages = outcome(case, client, "你好", 5, "")
    if reason != "error":
        raise check.fail(case, expected="error", got=reason, hint="没有 tool_calls、content 也是空的，不是答案：返回 \"error\"，别把空字符串当成最终回答。")
    check.ok(case)

    for case, model, message, wanted, steps in (
            ("模拟器 course-sim：先计算再回答 → final", "course-sim", "帮我算一下 (12 + 34) * 2", "final", 5),
            ("模拟器 course-sim:repeat_forever：永远在调用工具 → max_steps", "course-sim:repeat_forever", "现在几点了？", "max_steps", 4),
            ("模拟器 course-sim:server_error：HTTP 500 → error", "course-sim:server_error", "你好", "error", 4)):
        client = _Recorder(offline_client(model))
        reason, messages = outcome(case, client, message, steps, "")
        if reason != wanted or len(client.requests) > steps:
            raise check.fail(case, expected=f"{wanted}，最多调用模型 {steps} 次", got=f"{reason}，调用了 {len(client.requests)} 次",
                             hint="三种出口：没有工具调用且有内容 → final；步数用完 → max_steps；模型调用抛异常或空回复 → error。")
        if wanted == "final" and not any(m.get("role") == "tool" and "92" in str(m.get("content")) for m in messages):
            raise check.fail(case, expected="messages 里有计算器的结果 92（一条 role=tool 的消息）", got=messages,
                             hint="返回的 messages 应该是完整的对话：模型的每条回复和每个工具结果都在里面。")
        check.ok(case, f"{len(client.requests)} 次模型调用")
    check.done()


def day3_unknown_tool_message(unknown_tool_message: Callable[[str, list[str]], str]) -> None:
    """Exercise 3.3: ``unknown_tool_message(name, valid_names) -> str`` that lists the valid names."""
    __tracebackhide__ = True
    from ..scenarios import basic_registry

    check = _Check("day3_unknown_tool_message")
    _callable(check.exercise, unknown_tool_message)
    cases = [
        ("拼错的工具名", "get_wether", ["get_weather", "calculator", "get_current_time"]),
        ("模型编出来的工具", "search_web", ["calculator", "get_exchange_rate"]),
        ("只有一个工具", "calc", ["calculator"]),
    ]
    for case, name, valid in cases:
        got = check.call(case, unknown_tool_message, name, list(valid))
        if not isinstance(got, str) or not _CHINESE.search(got):
            raise check.fail(case, given=(name, valid), expected="一段中文说明（str）", got=_short(got), hint="返回给模型看的一段话。")
        missing = [word for word in [name, *valid] if word not in got]
        if missing:
            raise check.fail(case, given=(name, valid), expected=f"说明里有模型调用的名字和全部可用工具名，缺少 {missing}", got=got,
                             hint="模型读到这条消息后要能改正：说清楚哪个名字不存在，并列出所有可用的工具名。")
        check.ok(case, _brief(got, 60))
    case = "一个工具也没有"
    got = check.call(case, unknown_tool_message, "calculator", [], hint="valid_names 为空时也要返回一段话。")
    if not isinstance(got, str) or "calculator" not in got or not _CHINESE.search(got):
        raise check.fail(case, given=("calculator", []), expected="一段中文说明，提到 calculator，并说明没有可用的工具", got=_short(got),
                         hint="没有工具可用时要直说，例如“当前没有任何可用的工具，请直接回答用户”。")
    check.ok(case, _brief(got, 60))

    case = "接在模拟器 course-sim:unknown_tool 上：模型读到你的消息后改用正确的工具"
    client, registry = offline_client("course-sim:unknown_tool"), basic_registry()
    messages: list[dict[str, Any]] = [{"role": "user", "content": "帮我算一下 17 * 9"}]
    sent: list[str] = []
    answer = None
    for _ in range(4):  # a small loop that answers unknown names with your message, bounded
        result = client.complete(messages, tools=registry.schemas())
        if not result.tool_calls:
            answer = result.content
            break
        messages.append(result.to_message())
        for tool_call in result.tool_calls:
            if tool_call.name in registry:
                content = registry.dispatch(tool_call.name, tool_call.arguments).to_content()
            else:
                content = check.call(case, unknown_tool_message, tool_call.name, registry.names())
                sent.append(f"{tool_call.name} → {content}")
            messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": content})
    if not sent or "153" not in (answer or ""):
        raise check.fail(case, expected="模型先叫错名字，读到你的消息后改用 calculator，最后回答 153",
                         got=f"发回的消息：{sent}；最终回答：{answer}", hint="消息里要有全部可用的工具名，模型才能改对。")
    check.ok(case, _brief(sent[0], 60))
    check.done()


def day3_repeat_guard(guard_class: Callable[[], Any]) -> None:
    """Exercise 3.4: ``RepeatGuard().check(name, arguments) -> str | None`` — a note for a repeated call, else None."""
    __tracebackhide__ = True
    from ..scenarios import basic_registry

    check = _Check("day3_repeat_guard")
    _callable(check.exercise, guard_class, "类")
    guard = check.call("创建 RepeatGuard()", guard_class, hint="__init__ 里准备好记录已经见过的调用（例如一个 set）。")

    def ask(case: str, name: str, arguments: str, repeated: bool, hint: str) -> None:
        got = check.call(case, guard.check, name, arguments, hint=hint)
        if repeated:
            if not isinstance(got, str) or name not in got or not _CHINESE.search(got):
                raise check.fail(case, given=(name, arguments), expected=f"一段中文提示（str），说明 {name} 已经用相同参数调用过",
                                 got=got, hint=hint)
        elif got is not None:
            raise check.fail(case, given=(name, arguments), expected="None（这是一次新的调用，应该执行）", got=got, hint=hint)
        check.ok(case, "重复，不再执行" if repeated else "新调用，执行")

    ask("第一次调用", "get_weather", '{"city": "北京"}', False, "第一次见到的调用返回 None，并把它记下来。")
    ask("完全相同的第二次调用", "get_weather", '{"city": "北京"}', True, "见过的调用要返回一段提示，告诉模型它已经有结果了。")
    ask("另一个新调用（两个参数）", "calculator", '{"expression": "1 + 1", "precision": 2}', False, "")
    ask("同一个调用，只是参数顺序和空格不同", "calculator", '{ "precision":2,"expression":"1 + 1" }', True,
        "不要直接比较参数字符串：先 json.loads，再 json.dumps(..., sort_keys=True)，得到规范的写法再比较。")
    ask("同一个工具、不同参数", "get_weather", '{"city": "上海"}', False, "只有工具名和参数都相同才算重复：用 (name, 规范化的参数) 作为键。")
    ask("不同工具、相同参数", "get_city_info", '{"city": "北京"}', False, "键里要有工具名。")
    ask("隔了几次又回到第一次的调用", "get_weather", '{"city": "北京"}', True, "要记住所有见过的调用，不只是上一次。")
    ask("参数不是合法 JSON（第一次）", "calculator", "{expression: 1+}", False,
        "json.loads 失败时不要抛异常：直接用原始字符串作为键。")
    ask("参数不是合法 JSON（第二次）", "calculator", "{expression: 1+}", True, "json.loads 失败时用原始字符串作为键。")

    case = "接在模拟器 course-sim:repeat_forever 上：工具只执行一次"
    client, registry = offline_client("course-sim:repeat_forever"), basic_registry()
    fresh = check.call(case, guard_class)
    messages: list[dict[str, Any]] = [{"role": "user", "content": "现在几点了？"}]
    executed, notes = 0, 0
    for _ in range(4):  # a loop with a guard, bounded
        result = client.complete(messages, tools=registry.schemas())
        if not result.tool_calls:
            break
        messages.append(result.to_message())
        for tool_call in result.tool_calls:
            note = check.call(case, fresh.check, tool_call.name, tool_call.arguments)
            if note is None:
                executed += 1
                content = registry.dispatch(tool_call.name, tool_call.arguments).to_content()
            else:
                notes += 1
                content = note
            messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": content})
    if executed != 1 or notes < 1:
        raise check.fail(case, expected="模型连续 4 次发出同一个调用：只执行 1 次，其余 3 次返回你的提示",
                         got=f"执行了 {executed} 次，返回提示 {notes} 次", hint="同一个 RepeatGuard 要记住整个运行中见过的调用。")
    check.ok(case, f"执行 {executed} 次，拦下 {notes} 次")
    check.done()
