"""One language for learners: what the model reads in a tool message, and every exception message
the package raises, is Simplified Chinese; so is what the notebooks say, in their outputs and in the
comments, docstrings and assert/raise messages of their code cells. English identifiers and values
inside are fine.

Rather than pinning a list of sentences, these tests *generate* failures — bad arguments against
tools of several schema shapes, broken replies cut at every position, runs that fail in every way
the loop knows, half-set configurations, every fault of the real offline server — and measure each
text with ``assert_chinese``: after removing what is allowed to be English (identifiers, values,
URLs, code, and the words a server or a Python exception contributed), the text must have at least
two Chinese characters per remaining English word and no run of three English words (prose).
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

import pytest

from handwritten_agent import parsing, prompting
from handwritten_agent.agent import REPEATED_CALL_NOTE, Agent
from handwritten_agent.config import ConfigError, load_settings
from handwritten_agent.course.offline import BackendError, model_fetch, serve
from handwritten_agent.course.offline.faults import FAULTS, MESSINESS
from handwritten_agent.llm import BadRequest, ChatClient, LLMError, connect
from handwritten_agent.run import StopRun
from handwritten_agent.scenarios import basic_registry, make_clock_tool
from handwritten_agent.scenarios.calculator import evaluate
from handwritten_agent.scripted import ScriptedClient, call, calls, reply
from handwritten_agent.tools import ToolError, ToolRegistry, tool

NOW = datetime(2026, 3, 12, 14, 30)
QUESTION = (  # its own text: the rate_limit fault remembers requests across tests
    "（语言检查）17 乘以 9 等于多少？"
)

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
ALLOWED_ENGLISH = [
    re.compile(r"https?://\S+"),  # URLs
    re.compile(r"`[^`]*`"),  # code
    re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|“[^”\n]*”"),  # quoted values, identifiers and excerpts
    re.compile(
        r"\b\w*[_./\d=<>\\:-]\w*\b", re.ASCII
    ),  # identifiers, paths, numbers, key=value, versions
    re.compile(
        r"\b[A-Z][A-Za-z]*[A-Z]\w*\b", re.ASCII
    ),  # CamelCase and ALL-CAPS names (ToolError, JSON, HTTP)
    re.compile(
        r"[A-Za-z]\w*(?:\s*[、,，]\s*[A-Za-z]\w*)+", re.ASCII
    ),  # a list of names: sqrt、abs、round
]
ENGLISH_PROSE = re.compile(
    r"\b[A-Za-z]{2,}(?: +[A-Za-z]{2,}){2,}\b"
)  # three English words in a row
# a decision or a run's status written as the API's English word in a Chinese sentence (决定：
# approve); a value in quotes, after = or inside brackets is data and stays
STATUS_WORD = re.compile(
    r"(?<![\w'\"`=/.\-"
    r"])(allow(?:ed)?|ask(?:ed)?|deny|denied|approved?|reject(?:ed)?|pending|running|"
    r"succeeded|failed|cancell?ed|paused|waiting)(?![\w'\"`=/.\-(])",
    re.I,
)


def assert_chinese(text: str, *, foreign: Iterable[str] = (), what: str = "") -> None:
    """``text`` is Chinese once the ``foreign`` parts (server words, exception text, raw values) are
    removed.
    """
    assert isinstance(text, str) and text.strip(), f"{what}: empty text"
    cleaned = text
    for part in sorted((p for p in foreign if p), key=len, reverse=True):
        cleaned = cleaned.replace(part, " ").replace(part.rstrip(". "), " ")
    for pattern in ALLOWED_ENGLISH:
        cleaned = pattern.sub(" ", cleaned)
    cjk = len(CJK.findall(cleaned))
    words = len(re.findall(r"[A-Za-z]+", cleaned))
    assert cjk >= 4, f"{what}: no Chinese sentence in {text!r}"
    assert cjk >= 2 * words, (
        f"{what}: mostly English ({cjk} CJK characters, {words} English words) in {text!r}"
    )
    prose = ENGLISH_PROSE.search(cleaned)
    assert prose is None, f"{what}: English prose {prose.group()!r} in {text!r}"


def test_the_check_itself_rejects_english_and_accepts_chinese_with_identifiers():
    assert_chinese("工具 calculator 的参数不符合要求：参数 expression 应该是字符串（string）。")
    assert_chinese(
        "没有设置 LLM_API_KEY，请在 .env 里写 LLM_API_KEY=<你的密钥>（https://example.com/keys）。"
    )
    for english in (
        "The server had an error while processing your request.",
        "LLM_API_KEY is not set.",
        "ZeroDivisionError: division by zero",
        "请检查。Check LLM_BASE_URL in .env and that the server is running",
    ):
        with pytest.raises(AssertionError):
            assert_chinese(english)
    assert_chinese(
        "服务器返回 HTTP 500（The server had an error）。请稍后再试。",
        foreign=["The server had an error"],
    )


# --------------------------------------------------------------------------------------------
# What the model reads: dispatch errors
# --------------------------------------------------------------------------------------------


@tool
def book_room(
    room: Literal["A301", "B202"], people: int, topic: str, tags: list[str] | None = None
) -> dict:
    """预订会议室，例如“明天下午在 A301 开会”。

    Args:
        room: 会议室编号，例如：A301
        people: 参会人数，例如：6
        topic: 会议主题，例如：周会
        tags: 标签，例如：["内部"]
    """
    return {"room": room}


@tool
def refuse(reason: str) -> str:
    """总是拒绝。

    Args:
        reason: 拒绝的原因，例如：没有权限
    """
    raise ToolError(f"拒绝执行：{reason}")


@tool
def crash(code: int) -> int:
    """总是出 bug。

    Args:
        code: 一个数字，例如：1
    """
    raise {1: RuntimeError("disk on fire"), 2: KeyError("missing"), 3: ValueError("bad value")}.get(
        code, ZeroDivisionError()
    )


@tool(timeout=0.05)
def sleepy(seconds: float) -> str:
    """睡一会儿。

    Args:
        seconds: 秒数，例如：1
    """
    import time

    time.sleep(seconds)
    return "醒了"


def _registry() -> ToolRegistry:
    reg = basic_registry(NOW)
    for item in (book_room, refuse, crash, sleepy):
        reg.register(item)
    return reg


def bad_arguments(schema: dict[str, Any]) -> Iterable[Any]:
    """A family of wrong arguments for any object schema: missing, wrong-typed, extra, broken
    text.
    """
    properties, required = schema.get("properties", {}), schema.get("required", [])
    good = {name: _sample(spec) for name, spec in properties.items()}
    for name in required:
        yield {k: v for k, v in good.items() if k != name}
    for name, spec in properties.items():
        for wrong in (12345, "文字", True, None, [1], {"x": 1}):
            if _json_type(wrong) not in _types_of(spec):
                yield {**good, name: wrong}
    yield {**good, "colour": "red"}
    text = json.dumps(good, ensure_ascii=False)
    for cut in range(1, len(text), max(1, len(text) // 6)):
        yield text[:cut]
    yield text.replace(":", "：", 1)
    yield text.replace('"', "'")
    yield json.dumps(text)  # the object double-encoded as a string
    yield "[1, 2]"


def _sample(spec: dict[str, Any]) -> Any:
    if "enum" in spec:
        return spec["enum"][0]
    kind = spec.get("type") or (spec.get("anyOf") or [{}])[0].get("type")
    return {"integer": 3, "number": 2.5, "boolean": True, "array": [], "object": {}}.get(
        kind, "文本"
    )


def _types_of(spec: dict[str, Any]) -> set[str]:
    kinds = {spec.get("type")} | {option.get("type") for option in spec.get("anyOf", [])}
    if "number" in kinds:
        kinds.add("integer")
    return {k for k in kinds if k}


def _json_type(value: Any) -> str:
    return {
        bool: "boolean",
        int: "integer",
        float: "number",
        str: "string",
        list: "array",
        dict: "object",
        type(None): "null",
    }[type(value)]


def test_dispatch_errors_are_chinese_for_every_tool_and_every_kind_of_bad_call():
    reg = _registry()
    checked = 0
    for schema in reg.schemas():
        name = schema["function"]["name"]
        for arguments in bad_arguments(schema["function"]["parameters"]):
            result = reg.dispatch(name, arguments)
            if result.success:
                continue
            raw = (
                arguments
                if isinstance(arguments, str)
                else json.dumps(arguments, ensure_ascii=False)
            )
            assert_chinese(result.error, foreign=[raw], what=f"{name}({raw})")
            checked += 1
    for name in ("get_wether", "Calculator", "", "book room"):
        assert_chinese(reg.dispatch(name, {}).error, what=f"unknown tool {name!r}")
        checked += 1
    for code in (1, 2, 3, 4):
        result = reg.dispatch("crash", {"code": code})
        assert_chinese(result.error, foreign=[str(result.exception)], what=f"crash({code})")
        checked += 1
    assert_chinese(reg.dispatch("refuse", {"reason": "没有权限"}).error)
    assert_chinese(reg.dispatch("sleepy", {"seconds": 0.3}).error, what="timeout")
    assert checked > 60, checked


@pytest.mark.parametrize(
    "expression",
    [
        "",
        "1/0",
        "0 ** -1",
        "sqrt(-1)",
        "log(0)",
        "(-8) ** 0.5",
        "9 ** 9 ** 9",
        "x + 1",
        "__import__('os')",
        "1 +",
        "'a' * 3",
        "round(1.5, 99)",
        "max()",
        "1" * 600,
        "10.0 ** 300 * 10.0 ** 300",
        "().__class__",
    ],
)
def test_calculator_errors_are_chinese(expression):
    with pytest.raises(ToolError) as info:
        evaluate(expression)
    assert_chinese(str(info.value), foreign=[expression], what=expression)


# --------------------------------------------------------------------------------------------
# What the model reads: the repeat note, parse errors, the Agent's stop reasons
# --------------------------------------------------------------------------------------------


def test_the_repeat_note_and_the_repeated_tool_message_are_chinese():
    assert_chinese(REPEATED_CALL_NOTE)
    again = call("calculator", {"expression": "17 * 9"}, id="b")
    client = ScriptedClient(
        [calls(call("calculator", {"expression": "17 * 9"}, id="a")), calls(again), reply("153")]
    )
    run = Agent(client, basic_registry(NOW)).run("17 乘以 9")
    repeated = json.loads(run.messages[-2]["content"])
    assert repeated["repeated"] is True
    assert_chinese(repeated["note"])


def broken_replies() -> Iterable[str]:
    """Replies that try to call a tool and fail: every cut of several valid calls, and known shapes
    of breakage.
    """
    valid = [
        '{"name": "calculator", "arguments": {"expression": "17 * 9"}}',
        '```json\n{"name": "get_weather", "arguments": {"city": "北京", "date": "tomorrow"}}\n```',
        'Thought: 要算一下\nAction: calculator\nAction Input: {"expression": "1 + 2"}',
    ]
    for text in valid:
        for cut in range(len(text) // 3, len(text) - 1, 3):
            yield text[:cut]
    yield '{"arguments": {"a": 1}}'
    yield '{"name": "  ", "arguments": {}}'
    yield '{"name": "f", "arguments": [1, 2]}'
    yield '{"name": "f", "arguments": "not json at all"}'
    yield '{"name": "f", "arguments": "[1]"}'
    yield '{"name": "f", "arguments": {"x": NaN}}'
    yield '{"name": "calc" "arguments": {}}'
    yield '{"name": "f", "arguments": {"type": "object", "properties": {"x": {"type": "string"}}}}'
    yield "Thought: 想一想\nAction:\nAction Input: {}"
    yield "Thought: 想一想\nAction: calculator\nAction Input: [1, 2]"
    yield 'Thought: 想一想\nAction: calculator\nAction Input: "17 * 9"'


def test_parse_errors_are_chinese_in_message_and_detail():
    errors = []
    for text in broken_replies():
        for parsed in (
            parsing.parse_tool_call(text),
            parsing.parse_tool_calls(text),
            parsing.parse_react(text),
        ):
            if isinstance(parsed, parsing.ParseError):
                errors.append(parsed)
    assert len(errors) > 40, len(errors)
    for error in errors:
        assert_chinese(error.message, foreign=[error.raw], what=f"message for {error.raw!r}")
        assert_chinese(error.detail, foreign=[error.raw], what=f"detail for {error.raw!r}")


def test_extract_json_errors_are_chinese():
    for text in (
        "你好，世界",
        '{"a": [1, 2',
        '{"a" "b"}',
        "no json here at all",
        '{"a": NaN}',
        "[" * 5000 + "]" * 5000,
    ):
        with pytest.raises(ValueError) as info:
            parsing.extract_json(text)
        assert_chinese(str(info.value), foreign=[text[:200]], what=text[:40])


def failing_runs(sim_url: str) -> Iterable[tuple[str, Agent, list[str]]]:
    """(label, agent, what the server said): runs that end in every unhappy way the loop knows."""
    reg = basic_registry(NOW)

    def agent(model_client: Any, **options: Any) -> tuple[Agent, list[str]]:
        return Agent(model_client, reg, **options), _server_said(model_client)

    def client(model: str, **options: Any) -> ChatClient:
        return ChatClient(
            sim_url, "k", model, label="离线课程模拟器", max_retries=0, backoff=0, **options
        )

    for label, model in (
        ("server_error", "course-sim:server_error"),
        ("rate_limit", "course-sim:rate_limit"),
        ("unknown model", "course-sm"),
        ("bad option", "course-sim:nonsense"),
        ("empty_reply", "course-sim:empty_reply"),
    ):
        yield (label, *agent(client(model)))
    yield ("repeat_forever", *agent(client("course-sim:repeat_forever"), max_steps=3))
    yield ("timeout", *agent(client("course-sim:slow", timeout=0.3)))
    yield ("budget", *agent(client("course-sim:slow"), max_seconds=0.01))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        nobody = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    yield ("refused", *agent(ChatClient(nobody, "k", "m", max_retries=0)))
    yield "script ran dry", Agent(ScriptedClient([]), reg), []

    def broken_memory(messages: list[dict]) -> list[dict]:
        raise OverflowError("context too long")

    yield (
        "memory",
        Agent(ScriptedClient([reply("好")]), reg, memory=broken_memory),
        ["context too long"],
    )


def _server_said(model_client: ChatClient) -> list[str]:
    """The server's own words for this client's failure, which our messages quote (and may stay
    English).
    """
    try:
        model_client.complete([{"role": "user", "content": "（语言检查）服务器会怎么说？"}])
    except LLMError as exc:
        return [exc.server_message or ""]
    return []


def test_every_unhappy_run_ends_with_a_chinese_error(offline_server):
    seen = set()
    for label, agent, server_said in failing_runs(offline_server.base_url):
        run = agent.run(QUESTION)
        assert run.stop_reason != "final" and run.error, f"{label}: {run.stop_reason}"
        assert_chinese(run.error, foreign=server_said, what=label)
        seen.add(run.stop_reason)
    assert seen == {"error", "max_steps", "timeout"}


def test_a_stop_run_from_a_hook_keeps_its_own_message():
    def on_event(event):
        if event.kind == "model_call":
            raise StopRun("budget", "预算用完了：这次运行最多花 0.01 元。")

    run = Agent(
        ScriptedClient([calls(call("calculator", {"expression": "1+1"}))]),
        basic_registry(NOW),
        on_event=on_event,
    ).run("1+1")
    assert run.stop_reason == "budget"
    assert_chinese(run.error)


# --------------------------------------------------------------------------------------------
# Exceptions the package raises
# --------------------------------------------------------------------------------------------

BAD_SETTINGS = [
    {"LLM_BASE_URL": "https://api.deepseek.com/v1"},
    {"LLM_BASE_URL": "http://127.0.0.1:8000/v1"},
    {"LLM_API_KEY": "sk-x"},
    {"LLM_MODEL": "m"},
    {"LLM_API_KEY": "sk-x", "LLM_MODEL": "m"},
    {"LLM_PROVIDER": "deepsek"},
    {"LLM_PROVIDER": "vllm"},
    {"LLM_PROVIDER": "local", "LLM_MODEL": "/nope.gguf"},
    *(
        {"LLM_PROVIDER": name}
        for name in ("openai", "deepseek", "qwen", "moonshot", "zhipu", "siliconflow")
    ),
    *(
        {"LLM_BASE_URL": url, "LLM_MODEL": "m"}
        for url in ("ftp://x/v1", "api.deepseek.com", "http://", "http://h/v1/chat/completions")
    ),
    *({"LLM_TIMEOUT": value} for value in ("abc", "0", "-1", "nan", "inf")),
    *({"LLM_MAX_RETRIES": value} for value in ("x", "-1", "2.5", "99")),
]


@pytest.mark.parametrize(
    "values", BAD_SETTINGS, ids=lambda values: ",".join(f"{k}={v}" for k, v in values.items())
)
def test_config_errors_are_chinese_and_name_the_variable(values):
    with pytest.raises(ConfigError) as info:
        load_settings(values, dotenv=False)
    assert info.value.variable in str(info.value)
    assert_chinese(str(info.value), what=str(values))


def test_the_banner_is_chinese():
    for values in (
        {},
        {"LLM_PROVIDER": "local"},
        {"LLM_PROVIDER": "deepseek", "LLM_API_KEY": "sk-x"},
        {"LLM_BASE_URL": "http://127.0.0.1:11434/v1", "LLM_MODEL": "qwen2.5:7b"},
    ):
        assert_chinese(load_settings(values, dotenv=False).banner(), what=str(values))


class _RejectsKeys:
    name = "a provider that rejects every key"

    def list_models(self) -> list[str]:
        return ["m"]

    def complete(self, request: Any) -> Any:
        raise BackendError(
            401 if request.model == "m" else 403,
            "Incorrect API key provided.",
            code="invalid_api_key",
        )


def llm_failures(sim_url: str) -> Iterable[tuple[str, Any]]:
    def client(model: str, **options: Any) -> ChatClient:
        return ChatClient(
            sim_url, "k", model, label="离线课程模拟器", backoff=0, **{"max_retries": 0, **options}
        )

    hello = [{"role": "user", "content": QUESTION}]
    yield "404 model", lambda: client("course-sim-typo").complete(hello)
    yield (
        "404 url",
        lambda: ChatClient(sim_url.removesuffix("/v1"), "k", "course-sim").complete(hello),
    )
    yield "404 stream", lambda: list(client("course-sim-typo").stream(hello))
    yield "timeout", lambda: client("course-sim:slow", timeout=0.3).complete(hello)
    yield "429", lambda: client("course-sim:rate_limit").complete(hello)
    yield "500", lambda: client("course-sim:server_error", max_retries=1).complete(hello)
    yield (
        "400",
        lambda: client("course-sim").complete(
            [{"role": "tool", "tool_call_id": "x", "content": "1"}]
        ),
    )
    yield "unknown option", lambda: client("course-sim:slw").complete(hello)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        nobody = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    yield "refused", lambda: ChatClient(nobody, "k", "m", max_retries=0).complete(hello)
    yield (
        "no such host",
        lambda: ChatClient(
            "http://no-such-host.invalid/v1", "k", "m", max_retries=0, timeout=5
        ).complete(hello),
    )


def test_llm_errors_are_chinese_whatever_the_server_said(offline_server):
    kinds = set()
    for label, failing in llm_failures(offline_server.base_url):
        with pytest.raises(LLMError) as info:
            failing()
        error = info.value
        assert_chinese(str(error), foreign=[error.server_message or ""], what=label)
        if not isinstance(
            error, BadRequest
        ):  # a bad request is fixed in the code, not in the configuration
            assert any(name in str(error) for name in ("LLM_", ".env", "model=")), (
                f"{label}: names nothing to fix: {error}"
            )
        kinds.add(type(error).__name__)
    with serve(backend=_RejectsKeys()) as provider:
        for model in ("m", "other"):
            with pytest.raises(LLMError) as info:
                ChatClient(provider.base_url, "sk-wrong-key-123", model, max_retries=0).complete(
                    [{"role": "user", "content": "hi"}]
                )
            assert "LLM_API_KEY" in str(info.value)
            assert_chinese(
                str(info.value), foreign=[info.value.server_message or ""], what=f"auth {model}"
            )
            kinds.add(type(info.value).__name__)
    assert kinds == {
        "ModelNotFound",
        "RequestTimeout",
        "RateLimited",
        "ServerError",
        "BadRequest",
        "ConnectionFailed",
        "AuthenticationFailed",
    }


def programming_errors(tmp_path: Path) -> Iterable[tuple[str, Any]]:
    """Package functions called wrongly: each must say in Chinese what to change."""
    yield "tool_specs dict", lambda: prompting.tool_specs(["calculator"])
    yield (
        "tool_specs function",
        lambda: prompting.tool_specs([{"type": "function", "function": None}]),
    )
    yield "tool_specs name", lambda: prompting.tool_specs([{"description": "x"}])
    yield "tool_specs twice", lambda: prompting.tool_specs([{"name": "a"}, {"name": "a"}])
    yield "tool_specs description", lambda: prompting.tool_specs([{"name": "a", "description": 3}])
    yield "tool_specs parameters", lambda: prompting.tool_specs([{"name": "a", "parameters": "x"}])
    yield "render_tool_prompt", lambda: prompting.render_tool_prompt([])
    yield "render_react_prompt", lambda: prompting.render_react_prompt([])
    yield "parse_tool_call", lambda: parsing.parse_tool_call(None)  # type: ignore[arg-type]
    yield "parse_tool_calls", lambda: parsing.parse_tool_calls(b"x")  # type: ignore[arg-type]
    yield "make_clock_tool", lambda: make_clock_tool("now")  # type: ignore[arg-type]
    yield "ChatClient", lambda: ChatClient("http://127.0.0.1:1/v1", "k", "m", max_retries=-1)
    yield "from_settings", lambda: ChatClient.from_settings(load_settings({}, dotenv=False))
    yield "connect backend", lambda: connect("cloud")
    yield "Agent max_steps", lambda: Agent(ScriptedClient([]), ToolRegistry([]), max_steps=0)
    yield "model file", lambda: model_fetch.fetch(str(tmp_path / "missing.gguf"), progress=False)
    not_gguf = tmp_path / "model.bin"
    not_gguf.write_bytes(b"<html>")
    yield "not gguf", lambda: model_fetch.fetch(str(not_gguf), progress=False)
    spec = model_fetch.ModelSpec(filename="x.gguf", size=1, sha256="0" * 64, part_count=30)
    yield "weight packages", lambda: model_fetch.course_parts(spec)

    def untyped(city):  # noqa: ANN001 - the missing hint is the point
        """查天气。

        Args:
            city: 城市，例如：北京
        """

    yield "tool without a hint", lambda: tool(untyped)
    yield (
        "two tools, one name",
        lambda: ToolRegistry([book_room, tool(name="book_room")(refuse.fn)]),
    )


def test_package_exceptions_say_in_chinese_what_to_fix(tmp_path, monkeypatch):
    monkeypatch.setenv("HANDWRITTEN_AGENT_CACHE", str(tmp_path / "cache"))
    for label, failing in programming_errors(tmp_path):
        with pytest.raises(Exception) as info:
            failing()
        assert not isinstance(info.value, (AssertionError, NameError, AttributeError)), (
            f"{label}: {info.value!r}"
        )
        assert_chinese(str(info.value), foreign=[str(tmp_path)], what=label)


def test_fault_and_messiness_descriptions_are_chinese():
    for name, description in {**FAULTS, **MESSINESS}.items():
        assert_chinese(description, what=name)


# --------------------------------------------------------------------------------------------
# The command line: argparse's own words, every option's help, and its error messages
# --------------------------------------------------------------------------------------------

ARGPARSE_ENGLISH = re.compile(
    r"usage:|positional arguments|optional arguments|^options:|show this help message|"
    r"the following arguments are required|invalid choice|unrecognized arguments|error:",
    re.M | re.I,
)


def _parsers() -> Iterable[tuple[str, Any]]:
    """(command, parser) for ``python -m handwritten_agent`` and every sub-command, at any depth,
    and the exercises tool.
    """
    import argparse

    from handwritten_agent.course.cli import build_parser
    from handwritten_agent.course.exercises import __main__ as exercises_main

    pending = [("python -m handwritten_agent", build_parser())]
    while pending:
        name, parser = pending.pop(0)
        yield name, parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                pending.extend((f"{name} {sub}", child) for sub, child in action.choices.items())
    captured: dict[str, Any] = {}

    class Capture(Exception):
        pass

    original = exercises_main.ChineseParser.parse_args

    def grab(self: Any, *args: Any, **kwargs: Any) -> Any:
        captured["parser"] = self
        raise Capture

    exercises_main.ChineseParser.parse_args = grab  # type: ignore[method-assign]
    try:
        exercises_main.main([])
    except Capture:
        pass
    finally:
        exercises_main.ChineseParser.parse_args = original  # type: ignore[method-assign]
    yield "python -m handwritten_agent.course.exercises", captured["parser"]


def test_every_help_text_of_the_command_line_is_chinese():
    import argparse

    seen = 0
    for name, parser in _parsers():
        text = parser.format_help()
        english = ARGPARSE_ENGLISH.search(text)
        assert english is None, (
            f"{name} -h still has argparse's English {english.group()!r}:\n{text}"
        )
        assert text.startswith("用法："), f"{name} -h: {text[:80]!r}"
        assert parser.description, f"{name} has no description"
        assert_chinese(parser.description, what=f"{name} description")
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for (
                    choice
                ) in action._choices_actions:  # each sub-command's one-line help in the listing
                    assert choice.help, f"{name} {choice.dest}: no help text"
                    assert_chinese(choice.help, what=f"{name} {choice.dest}")
            label = "/".join(action.option_strings) or action.dest
            assert action.help and action.help != argparse.SUPPRESS, (
                f"{name} {label}: an option without help text"
            )
            assert_chinese(action.help, what=f"{name} {label}")
            seen += 1
    assert seen > 40, seen  # every command was walked


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["nope"],
        ["serve", "--port", "abc"],
        ["serve", "--bogus"],
        ["model", "fetchh"],
        ["users", "add"],
        ["trace", "show"],
        ["eval", "--repeat"],
        ["bench", "--n", "1.5"],
    ],
)
def test_command_line_errors_are_chinese(argv, capsys):
    from handwritten_agent.course.cli import main

    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("用法："), err
    message = err.splitlines()[-1]
    assert "错误：" in message and ARGPARSE_ENGLISH.search(err.replace("错误：", "")) is None, err
    assert_chinese(message.split("错误：", 1)[1], foreign=argv, what=" ".join(argv) or "(nothing)")


def test_the_chinese_parser_translates_argparse_messages_it_does_not_know_by_pattern():
    from handwritten_agent.cli_parser import chinese_error

    assert chinese_error(
        "argument --level: invalid choice: 'x' (choose from 'cpu', 'portable')"
    ).startswith("参数 --level：")
    assert (
        chinese_error("the following arguments are required: name, --role")
        == "缺少必填的参数：name, --role"
    )
    assert (
        chinese_error("something argparse says one day") == "something argparse says one day"
    )  # unknown: unchanged


# --------------------------------------------------------------------------------------------
# What the notebooks print: every output of every notebook and solution
# --------------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted(
    (ROOT / "solutions").glob("*.ipynb")
)

# Sentences that imitate a real provider's words on purpose (the simulator and the stand-in servers
# answer the way OpenAI answers): a learner meets exactly these from real services, so they stay
# English, as the providers write them.
PROVIDER_WORDING = [
    re.compile(p)
    for p in (
        r"The server had an error while processing your request\.?(?: Sorry about that!)?",
        (
            r"Rate limit reached for \S+ on requests per min \(RPM\): Limit \d+, Used \d+,"
            r" Requested \d+\. Please try again in \w+\.?"
        ),
        r"Rate limit reached for requests",
        r"The model `[^`]*` does not exist(?: or you do not have access to it)?\.?",
        r"Incorrect API key provided\.?(?: You can find your API key at \S+)?",
        (
            r"Invalid parameter: messages with role 'tool' must be a response to a preceeding"
            r" message with 'tool_calls'\.?"
        ),
        r"An assistant message with 'tool_calls' must be followed by tool messages responding to"
        r" each 'tool_call_id'\.(?: "
        r"The following tool_call_ids did not have response messages:)?",
        r"Invalid parameter: 'tool_call_id' of '[^']*' not found in 'tool_calls' of previous"
        r" message\.?",
        r"This model's maximum context length is \d+ tokens\. However, (?:you requested|your"
        r" messages resulted in) .*?"
        r"Please reduce the length of the messages(?: or completion)?\.?",
        r"We could not parse the JSON body of your request\..*?not valid JSON\.\)",
        r"Invalid URL \(\w+ [^)]*\)",
        r"Invalid type for '[^']*': expected [^,]+, but got [^.]+ instead\.?",
        r"Missing required parameter: '[^']*'\.?",
    )
]
PROVIDER_SENTENCES = (
    "The server had an error while processing your request. Sorry about that!",
    (
        "Incorrect API key provided. You can find your API key at"
        " https://platform.openai.com/account/api-keys."
    ),
    (
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message"
        " with 'tool_calls'."
    ),
    (
        "An assistant message with 'tool_calls' must be followed by tool messages responding to"
        " each 'tool_call_id'."
    ),
    "Invalid parameter: 'tool_call_id' of 'call_x' not found in 'tool_calls' of previous message.",
)
CUT_SHORT = re.compile(
    r"[A-Za-z][^\u3000-\u303f\u4e00-\u9fff\uff08\uff09…]*…"
)  # English shortened to fit a line


def _without_provider_words(line: str) -> str:
    for pattern in PROVIDER_WORDING:
        line = pattern.sub(" ", line)
    return CUT_SHORT.sub(
        lambda m: (
            " "
            if len(m.group()) > 16
            and any(s.startswith(m.group()[:-1].rstrip()) for s in PROVIDER_SENTENCES)
            else m.group()
        ),
        line,
    )


ROLES = re.compile(
    r"\b(?:system|developer|user|assistant|tool)\b"
)  # the protocol's role values, e.g. [user assistant tool]
BARE_BOOLEAN = re.compile(r"(?<![\w'\"=.])(True|False)(?![\w'\"])")


def _output_texts(notebook: dict[str, Any]) -> Iterable[tuple[int, str]]:
    """(cell number, text) of every output a learner reads; printed source code
    (``inspect.getsource``) is code.
    """
    import html

    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code" or "getsource(" in "".join(cell["source"]):
            continue
        for output in cell.get("outputs", []):
            texts = [output.get("text")]
            data = output.get("data", {})
            rich = any(kind.startswith("image/") or kind == "text/html" for kind in data)
            texts.append(
                None if rich else data.get("text/plain")
            )  # "<Figure size 800x420 with 1 Axes>" stands for a picture
            if "text/html" in data:
                page = "".join(data["text/html"])
                page = re.sub(r"(?is)<(style|script)\b.*?</\1>", " ", page)
                texts.append(html.unescape(re.sub(r"<[^>]+>", "\n", page)))
            for text in texts:
                if text:
                    yield index, "".join(text) if isinstance(text, list) else text


def english_in_outputs(path: Path) -> list[str]:
    """Every English sentence, and every bare True/False in a Chinese sentence, in a notebook's
    outputs.
    """
    notebook = json.loads(path.read_text(encoding="utf-8"))
    found = []
    for index, text in _output_texts(notebook):
        for line in text.splitlines():
            cleaned = _without_provider_words(line)
            for pattern in (*ALLOWED_ENGLISH, ROLES):
                cleaned = pattern.sub(" ", cleaned)
            prose = ENGLISH_PROSE.search(cleaned)
            if prose:
                found.append(
                    f"{path.name} 第 {index} 格：英文 {prose.group()!r}：{line.strip()[:160]}"
                )
            if CJK.search(line):
                for match in BARE_BOOLEAN.finditer(line):
                    if not re.search(r"[{\[(=]", line[: match.start()]):
                        found.append(
                            f"{path.name} 第 {index} 格：{match.group()} 出现在中文句子里（写成"
                            f" 是/否）：{line.strip()[:160]}"
                        )
                for match in STATUS_WORD.finditer(line):
                    if not re.search(r"[{\[(=]", line[: match.start()]):
                        found.append(
                            f"{path.name} 第 {index} 格：英文的决定或状态 {match.group()!r}"
                            f" 出现在中文句子里：{line.strip()[:160]}"
                        )
    return found


def test_the_output_check_finds_english_and_booleans_and_spares_data_and_provider_words(tmp_path):
    def notebook(*lines: str) -> Path:
        cells = [
            {
                "cell_type": "code",
                "source": ["print(x)"],
                "metadata": {},
                "outputs": [
                    {
                        "output_type": "stream",
                        "name": "stdout",
                        "text": [line + "\n" for line in lines],
                    }
                ],
            }
        ]
        path = tmp_path / "planted.ipynb"
        path.write_text(json.dumps({"cells": cells}), encoding="utf-8")
        return path

    bad = [
        "消息里没有出现密钥：True",
        (
            "Rate limit reached for course-sim (injected by the `rate_limit` fault): retry after"
            " the time"
        ),
        (
            "失败了（The server had an error while processing your request. Sorry about that!"
            " (injected by the `server_error` fault of course-sim, which fails every attempt)）"
        ),
        "The offline simulator serves `course-sim` (optionally a fault)",
        "检查通过了吗？ False",
        "Hello, how can I help you today?",
        "HTTP 200 | 决定： approve | 决定人： 张明",
        "运行的状态：running",
    ]
    for line in bad:
        assert english_in_outputs(notebook(line)), line
    good = [
        "消息里出现了密钥吗？没有",
        '{"success": false, "data": null, "error": "除数不能为零"}',
        "ToolCall(id='', name='calculator')",
        (
            "第 1 次请求失败，HTTP 500，服务器原话：The server had an error while processing your"
            " request. Sorry about that!"
        ),
        (
            "服务器原话：Rate limit reached for course-sim on requests per min (RPM): Limit 1, Used"
            " 1, Requested 1. Please try again in 200ms."
        ),
        'data: {"choices": [], "usage": null}',
        "usage:         Usage(prompt_tokens=23, completion_tokens=8)",
        "{'success': False, 'data': None, 'error': '工具 calculator 的参数不是合法的 JSON'}",
        "失败了（The server had an error while processing your request. Sorry about…",
        "✅ 两个并行调用：[user assistant(调用) tool tool assistant]",
        '决定：批准（请求里写 "decision": "approve"）',
        "状态 {'status': 'running'}",
        "运行 run_7 的状态：succeeded_count=3",
    ]
    for line in good:
        assert english_in_outputs(notebook(line)) == [], line


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_notebook_outputs_are_chinese(path):
    found = english_in_outputs(path)
    assert not found, "\n".join(found)


# --------------------------------------------------------------------------------------------
# What the notebooks' code says: comments, docstrings and the messages of assert and raise
# --------------------------------------------------------------------------------------------

# comments that instruct a tool, not a learner: solution markers, nbval and linter directives
TOOL_COMMENT = re.compile(
    r"#+\s*(?:(?:BEGIN|END) SOLUTION|YOUR CODE HERE|NBVAL_\w+|noqa\b|type:\s*ignore|fmt:)"
)


def _message_text(node: Any) -> str | None:
    """The words of a string literal or f-string (each ``{…}`` counts as a value), else None."""
    import ast

    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            part.value if isinstance(part, ast.Constant) else " 0 " for part in node.values
        )
    return None


def code_texts(source: str) -> Iterable[tuple[int, str, str]]:
    """(line, kind, text) of every comment, docstring, assert and raise message in a cell."""
    import ast
    import io
    import tokenize

    # IPython lines (%magic, !shell) are blanked, so line numbers stay
    source = "\n".join(
        "" if line.lstrip().startswith(("%", "!")) else line for line in source.split("\n")
    )
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT and not TOOL_COMMENT.match(token.string):
            yield token.start[0], "注释", token.string.lstrip("#").strip()
    tree = compile(
        source, "<cell>", "exec", flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    )
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            doc = ast.get_docstring(node)
            if doc:
                yield node.lineno, "文档字符串", doc
        elif isinstance(node, ast.Assert) and node.msg is not None:
            text = _message_text(node.msg)
            if text is not None:
                yield node.lineno, "assert 消息", text
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            for argument in node.exc.args:
                text = _message_text(argument)
                if text is not None:
                    yield node.lineno, "raise 消息", text


def english_in_code(path: Path) -> list[str]:
    """Every comment, docstring or assert/raise message in a notebook's code that is not Chinese."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    found = []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code":
            continue
        for line, kind, text in code_texts("".join(cell["source"])):
            # a stand-in server speaks as the provider does
            cleaned = _without_provider_words(" ".join(text.split()))
            for pattern in (*ALLOWED_ENGLISH, ROLES):
                cleaned = pattern.sub(" ", cleaned)
            words = len(re.findall(r"[A-Za-z]+", cleaned))
            if not words:
                continue
            cjk = len(CJK.findall(cleaned))
            if cjk < 2 * words or ENGLISH_PROSE.search(cleaned):
                found.append(
                    f"{path.name} 第 {index} 格第 {line} 行的{kind}不是中文：{text.strip()[:160]!r}"
                )
    return found


def test_the_code_check_finds_english_comments_docstrings_and_messages(tmp_path):
    def notebook(source: str) -> Path:
        path = tmp_path / "planted.ipynb"
        cells = [
            {
                "cell_type": "code",
                "source": source.splitlines(keepends=True),
                "metadata": {},
                "outputs": [],
            }
        ]
        path.write_text(json.dumps({"cells": cells}), encoding="utf-8")
        return path

    bad = [
        "x = 1  # the simulator, for cells that need it\n",
        "def f():\n    '''Return the answer, or None.'''\n    return 1\n",
        'class C:\n    """A run that waits."""\n',
        'assert x, f"the response has no {field!r} field"\n',
        'raise AssertionError(f"expected {name}, but the call succeeded")\n',
        "%time x = 1\n# notice.message is the server's own words\n",
        'USERS = {"李丽": "行政主管"}  # 李丽 approves L3 operations\n',
    ]
    for source in bad:
        assert english_in_code(notebook(source)), source
    good = [
        "### BEGIN SOLUTION\nx = 1  # 没有重试等待，免得这一格变慢\n### END SOLUTION\n",
        "# YOUR CODE HERE\nraise NotImplementedError()\n",
        "# NBVAL_IGNORE_OUTPUT\nx = 1\n",
        "def f():\n    '''返回 run_id 和 stop_reason（一个 ToolCall）。'''\n",
        'assert x == 1, f"应该是 {expected.__name__}，实际是 {type(exc).__name__}：{exc}"\n',
        "assert x, '响应里没有 usage 字段'\n",
        "assert x == 1\n",
        'assert ok, f"{key}={value!r}"\n',
        "# 遇到 400 会抛出 BadRequest\n",
        (
            'raise BackendError(401, "Incorrect API key provided. You can find your API key at "\n'
            '    "https://platform.openai.com/account/api-keys.")\n'
        ),
    ]
    for source in good:
        assert english_in_code(notebook(source)) == [], source


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_notebook_code_speaks_chinese(path):
    found = english_in_code(path)
    assert not found, "\n".join(found)
