"""``python -m handwritten_agent doctor``: the course's own server passes every check; a fake
OpenAI-compatible server (the stdlib ``http.server``, started here on a free port) that drops the
tools, fills arguments with format strings, mis-shapes its replies or cannot stream fails the check
it should, with the Chinese reason."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import openai
import pytest

from handwritten_agent.course.cli import main
from handwritten_agent.course.doctor import (
    HINT,
    TOOL,
    arguments_problems,
    diagnose,
    eval_hint,
)
from handwritten_agent.course.offline import serve

PARAMETERS = TOOL["function"]["parameters"]
GOOD_ARGUMENTS = '{"order_id": "XK2048", "quantity": 3}'


class FakeServer(ThreadingHTTPServer):
    mode = "good"


class Handler(BaseHTTPRequestHandler):
    """A minimal chat-completions endpoint whose faults are chosen by the server's ``mode``."""

    server: FakeServer

    def log_message(self, *args: Any) -> None:  # keep pytest's output clean
        pass

    def _send(self, status: int, body: bytes, kind: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:  # noqa: N802 (the stdlib's name)
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        mode = self.server.mode
        tools = request.get("tools")
        forced = isinstance(request.get("tool_choice"), dict)
        # a model calls the tool when it must, or when it may and has room to write the call
        calls = bool(tools) and (forced or request.get("max_tokens", 0) > 1)
        tokens = 29 if mode == "ignores_tools" else len(json.dumps(request)) // 4
        arguments = GOOD_ARGUMENTS
        if mode in ("ignores_tools", "placeholder"):
            arguments = '{"order_id": "{order_id}", "quantity": "{quantity}"}'
        call_id = "" if mode == "bad_shapes" else "call_1"
        finish = "stop" if mode == "bad_shapes" or not calls else "tool_calls"
        if request.get("stream"):
            if mode == "no_stream":
                self._send(500, b'{"error": {"message": "stream not supported"}}')
                return
            self._stream(arguments if tools and forced else None, call_id, finish)
            return
        message: dict[str, Any] = {"role": "assistant", "content": "好的。"}
        if calls and not forced and mode in ("text_calls", "no_call"):
            written = (
                f'<tool_call>{{"name": "{TOOL["function"]["name"]}", "arguments": {arguments}}}'
            )
            finish, message["content"] = "stop", written if mode == "text_calls" else "好的。"
        elif calls:
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": TOOL["function"]["name"], "arguments": arguments},
                    }
                ],
            }
        body = {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 0,
            "model": request["model"],
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": tokens, "completion_tokens": 3, "total_tokens": tokens + 3},
        }
        self._send(200, json.dumps(body).encode())

    def _stream(self, arguments: str | None, call_id: str, finish: str) -> None:
        def chunk(delta: dict[str, Any], reason: str | None = None) -> bytes:
            data = {
                "id": "chatcmpl-1",
                "object": "chat.completion.chunk",
                "created": 0,
                "model": "m",
                "choices": [{"index": 0, "delta": delta, "finish_reason": reason}],
            }
            return f"data: {json.dumps(data)}\n\n".encode()

        if arguments is None:
            parts = [chunk({"role": "assistant", "content": "好"}), chunk({"content": "的。"})]
        else:
            head = {"index": 0, "id": call_id, "type": "function"}
            name = {"name": TOOL["function"]["name"], "arguments": arguments[:5]}
            parts = [
                chunk({"role": "assistant", "tool_calls": [{**head, "function": name}]}),
                chunk({"tool_calls": [{"index": 0, "function": {"arguments": arguments[5:]}}]}),
            ]
        body = b"".join([*parts, chunk({}, finish), b"data: [DONE]\n\n"])
        self._send(200, body, "text/event-stream")


@pytest.fixture
def fake() -> Iterator[FakeServer]:
    server = FakeServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def url(server: FakeServer) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}/v1"


def verdicts(base_url: str, model: str = "m") -> dict[str, Any]:
    client = openai.OpenAI(base_url=base_url, api_key="x", timeout=30, max_retries=0)
    return {f.title: f for f in diagnose(client, model)}


def test_the_course_server_passes_every_check() -> None:
    with serve() as server:
        found = verdicts(server.base_url, "course-sim")
    assert [f.passed for f in found.values()] == [True] * 6, [f.line() for f in found.values()]


def test_a_well_behaved_fake_passes_so_the_failures_below_are_the_faults(fake) -> None:
    found = verdicts(url(fake))
    assert all(f.passed for f in found.values()), [f.line() for f in found.values()]


def test_a_server_whose_template_drops_the_tools_is_named_with_the_cause_and_fix(
    fake, capsys
) -> None:
    fake.mode = "ignores_tools"
    assert main(["doctor", "--base-url", url(fake), "--model", "m", "--api-key", "x"]) == 1
    out = capsys.readouterr().out
    assert "❌ 工具定义送达" in out and "服务端模板没有把工具定义交给模型" in out
    assert "prompt_tokens 从 29 变成 29" in out and "--chat_format" in out
    assert "llama_cpp.server" in out and "❌ 强制调用参数" in out and "占位符" in out
    assert "✅ 服务端应答" in out and "✅ 流式输出" in out


def test_placeholder_arguments_fail_even_when_the_schema_reaches_the_model(fake) -> None:
    fake.mode = "placeholder"
    found = verdicts(url(fake))
    assert found["工具定义送达"].passed is True
    forced = found["强制调用参数"]
    assert forced.passed is False and "'{order_id}'" in forced.detail, forced.detail


def test_bad_finish_reason_and_missing_ids_fail_the_shape_check(fake) -> None:
    fake.mode = "bad_shapes"
    shapes = verdicts(url(fake))["返回格式"]
    assert shapes.passed is False and "finish_reason" in shapes.detail and "id" in shapes.detail


def test_a_server_that_cannot_stream_fails_only_the_stream_check(fake) -> None:
    fake.mode = "no_stream"
    found = verdicts(url(fake))
    assert found["流式输出"].passed is False and "HTTP 500" in found["流式输出"].detail
    assert [f.passed for t, f in found.items() if t != "流式输出"] == [True] * 5


def test_a_server_that_does_not_answer_stops_the_checks(fake) -> None:
    port = fake.server_address[1]
    fake.shutdown()
    fake.server_close()
    found = verdicts(f"http://127.0.0.1:{port}/v1")
    assert list(found) == ["服务端应答"] and found["服务端应答"].passed is False
    assert "LLM_BASE_URL" in found["服务端应答"].fix


@pytest.mark.parametrize(
    "arguments, needle",
    [
        ('{"order_id": "{order_id}", "quantity": 3}', "占位符"),
        ('{"order_id": "<order_id>", "quantity": 3}', "占位符"),
        ('{"order_id": "string", "quantity": 3}', "占位符"),
        ('{"order_id": "%s", "quantity": 3}', "占位符"),
        ('{"order_id": "XK2048"}', "quantity"),
        ('{"order_id": "XK2048", "quantity": "3"}', "quantity"),
        ("order_id=XK2048", "不是 JSON"),
        ("[1, 2]", "不是 JSON 对象"),
    ],
)
def test_arguments_that_are_not_a_real_call_are_named(arguments: str, needle: str) -> None:
    problems = arguments_problems(arguments, PARAMETERS)
    assert problems and needle in "；".join(problems), problems


def test_real_arguments_have_no_problems() -> None:
    assert arguments_problems(GOOD_ARGUMENTS, PARAMETERS) == []


def test_the_eval_hint_is_only_for_a_very_low_score_of_a_real_model() -> None:
    assert eval_hint({"model": "qwen2.5", "pass_1": 0.1}) == HINT
    assert eval_hint({"model": "qwen2.5", "pass_1": 0.8}) is None
    assert eval_hint({"model": "course-sim:gullible", "pass_1": 0.0}) is None
    assert eval_hint({"model": "qwen2.5"}) is None
    assert "doctor" in HINT


def test_without_flags_the_doctor_checks_the_backend_the_settings_name(monkeypatch, capsys) -> None:
    monkeypatch.setenv("LLM_PROVIDER", "offline")
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "course-sim" in out and out.count("✅") == 6 and "没有发现问题" in out


def test_the_eval_command_prints_the_hint_after_a_very_low_score(
    monkeypatch, capsys, tmp_path
) -> None:
    import handwritten_agent.course.evaluation.cli as eval_cli

    def fake_eval(score: float):
        def run(args: Any) -> int:
            report = {"model": "qwen2.5", "pass_1": score}
            (tmp_path / "eval.json").write_text(json.dumps(report), encoding="utf-8")
            return 0

        return run

    arguments = ["eval", "--json", str(tmp_path / "eval.json"), "--no-progress"]
    monkeypatch.setattr(eval_cli, "main", fake_eval(0.1))
    assert main(arguments) == 0 and HINT in capsys.readouterr().out
    monkeypatch.setattr(eval_cli, "main", fake_eval(0.9))
    assert main(arguments) == 0 and HINT not in capsys.readouterr().out


def test_the_course_servers_drops_tools_fault_fails_only_where_that_server_does() -> None:
    with serve() as server:
        found = verdicts(server.base_url, "course-sim:drops_tools")
    assert found["工具定义送达"].passed is False, found["工具定义送达"].line()
    assert "服务端模板没有把工具定义交给模型" in found["工具定义送达"].fix
    assert found["强制调用参数"].passed is True  # a call forced by name still reaches the model


# -- the conclusion says what an agent on the server will actually do ---------------------------


def test_when_only_the_template_fails_the_conclusion_says_the_agent_runs_in_prompt_mode(
    fake, capsys
) -> None:
    fake.mode = "ignores_tools"  # fails 工具定义送达 and 强制调用参数, both the template's doing
    assert main(["doctor", "--base-url", url(fake), "--model", "m", "--api-key", "x"]) == 1
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("结论：2 项没通过（工具定义送达、强制调用参数）"), last
    assert "Agent 仍然能运行" in last and "第 2 天的提示词 JSON 模式" in last, last
    assert "更慢" in last and "不如原生工具调用可靠" in last and "怎么办" in last, last
    assert "不可靠。" not in last and "另外" not in last, last


def test_a_server_refusing_tools_in_a_way_the_client_knows_also_goes_to_prompt_mode() -> None:
    from handwritten_agent.course.doctor import conclusion

    with serve() as server:
        found = verdicts(server.base_url, "course-sim:no_tool_parser")  # vLLM without its parser
    schema = found["工具定义送达"]
    assert schema.passed is False and schema.prompt_mode, schema.line()
    assert "Agent 仍然能运行" in conclusion(list(found.values()))


def test_failures_prompt_mode_cannot_fix_are_still_called_unreliable(fake) -> None:
    from handwritten_agent.course.doctor import Finding, conclusion

    fake.mode = "placeholder"  # the schema reaches the model, and its arguments are placeholders
    said = conclusion(list(verdicts(url(fake)).values()))
    assert said.endswith("这个服务端上的 Agent 不可靠。") and "提示词" not in said, said
    template = Finding("工具定义送达", False, "没送达", "换服务端", prompt_mode=True)
    stream = Finding("流式输出", False, "流式请求失败", "关掉流式")
    both = conclusion([Finding("服务端应答", True, "好"), template, stream])
    assert "Agent 仍然能运行" in both and "另外，流式输出的问题提示词模式也绕不过去" in both
    assert conclusion([Finding("服务端应答", True, "好")]).startswith("结论：没有发现问题")


# -- a call the model chose to make: as tool_calls, as text the server did not parse, or none ----


@pytest.mark.parametrize(
    "mode, said",
    [
        ("text_calls", "模型把调用写成了文字，服务端没有解析成 tool_calls"),
        ("no_call", "模型没有调用工具"),
    ],
)
def test_a_call_written_as_text_or_not_made_is_a_warning_with_what_happens(
    fake, capsys, mode: str, said: str
) -> None:
    fake.mode = mode
    assert main(["doctor", "--base-url", url(fake), "--model", "m", "--api-key", "x"]) == 0
    out = capsys.readouterr().out
    assert f"⚠️ 自动调用：{said}" in out, out
    assert "✅ 强制调用参数" in out  # a call forced by name still comes back as tool_calls
    last = out.strip().splitlines()[-1]
    assert last.startswith("结论：没有不通过的项") and "自动调用有提醒" in last, last


def test_the_course_servers_text_calls_fault_is_caught_by_the_auto_call_check() -> None:
    with serve() as server:
        found = verdicts(server.base_url, "course-sim:text_tool_calls")
    auto = found["自动调用"]
    assert auto.passed is None and "写成了文字" in auto.detail, auto.line()
    assert "第 2 天的解析器" in auto.fix and "--jinja" in auto.fix, auto.fix
    assert found["强制调用参数"].passed is True
