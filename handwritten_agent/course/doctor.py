"""Can this server really do tool calling? A few cheap requests, a Chinese verdict per check.

    python -m handwritten_agent doctor                       # the server .env names
    python -m handwritten_agent doctor --base-url http://127.0.0.1:8000/v1 --model qwen

A server can speak the OpenAI wire format and still give the model no view of the tools: the
generic function-calling templates of some servers (llama-cpp-python's ``llama_cpp.server
--chat_format chatml-function-calling``, for one) leave the schemas out of the prompt, and the model
then answers with format strings as arguments. The course "runs" against such a server, and the
agent cannot work. Each check sends one small request through the official ``openai`` SDK:

==============  ==================================================================================
服务端应答      a plain request is answered (the error says what is wrong when it is not)
工具定义送达    ``usage.prompt_tokens`` grows by a share of the schema's size when a tool is added
自动调用        the same request (``tool_choice`` left to the model) comes back as ``tool_calls``,
                not as a call written in the text that the server did not parse (⚠️ either way:
                the course's client reads such text, and a model may choose not to call)
强制调用参数    a forced call's arguments: JSON valid against the schema, no placeholders
返回格式        ``finish_reason`` and tool-call ids/types as the API defines them
流式输出        a stream delivers text and ends with a ``finish_reason``; a streamed call's
                arguments put together are JSON
==============  ==================================================================================

``diagnose(client, model)`` returns the ``Finding``s; ``conclusion(findings)`` says what an agent on
this server will actually do (a server whose only failures the course's client gets around, by
going to Day 2's prompt mode, still runs the agent); ``main(args)`` is the command.
``eval_hint(report)`` is the one line ``python -m handwritten_agent eval`` prints after a very
low score of a real model.

Left out: judging the model's answers (the evaluation does that), servers that need extra headers,
and the Responses API.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jsonschema

from ..llm import template_check
from ..llm.client import tools_unsupported_hint
from ..prompt_tools import calls_written_as_text  # Day 2's reader of calls written as text

HINT = (
    "提示：分数很低时，先运行 python -m handwritten_agent doctor，检查这个服务端能不能真正做"
    "工具调用（有的服务端模板根本没把工具定义交给模型）。"
)

TOOL_NAME = "lookup_order"
TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": TOOL_NAME,
        "description": (
            "按订单编号查询一张订单的状态、金额、收货地址和预计送达时间。订单编号由两个大写字母"
            "加四位数字组成，例如 AB1234；数量是这张订单里同一种商品的件数，必须是正整数。"
            "Look up one order by its id and return its status, amount, shipping address and "
            "estimated delivery time."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "order_id": {
                    "type": "string",
                    "pattern": "^[A-Z]{2}[0-9]{4}$",
                    "description": "订单编号，两个大写字母加四位数字，例如 AB1234",
                },
                "quantity": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "这张订单里商品的件数，正整数，例如 3",
                },
            },
            "required": ["order_id", "quantity"],
            "additionalProperties": False,
        },
    },
}
REQUEST = "帮我查一下订单 XK2048 的状态，里面有 3 件商品。"
FORCED = {"type": "function", "function": {"name": TOOL_NAME}}

_PLACEHOLDER = re.compile(
    r"^\s*(?:\{\{?\s*\w*\s*\}?\}|<\s*\w*\s*>|\[\s*\w*\s*\]|%[sd]|\$\{?\w+\}?|\.\.\.|…|xxx+|"
    r"string|integer|number|value|example|placeholder|none|null|todo)\s*$",
    re.IGNORECASE,
)

TEMPLATE_FIX = (
    f"服务端模板没有把工具定义交给模型。{template_check.TEMPLATE_FIX}"
    "课程的客户端（ChatClient）发现这种情况时会自动改用第 2 天的提示词 JSON 模式，"
    "把工具写进系统提示词，智能体照样能用，只是不再是原生工具调用。"
)


@dataclass
class Finding:
    """One check: its title, the verdict (True/False, or None when it could not be judged), why,
    what to do, and whether the client goes on in prompt mode."""

    title: str
    passed: bool | None
    detail: str
    fix: str = ""
    prompt_mode: bool = False
    """True when the course's ``ChatClient`` gets around this failure with Day 2's prompt mode."""

    def line(self) -> str:
        mark = {True: "✅", False: "❌", None: "⚠️"}[self.passed]
        text = f"{mark} {self.title}：{self.detail}"
        return f"{text}\n   怎么办：{self.fix}" if self.fix and self.passed is not True else text


def _placeholders(value: Any) -> list[str]:
    """Every string inside ``value`` that is a format string or a placeholder, not a value."""
    if isinstance(value, dict):
        return [p for item in value.values() for p in _placeholders(item)]
    if isinstance(value, list):
        return [p for item in value for p in _placeholders(item)]
    if isinstance(value, str) and (_PLACEHOLDER.match(value) or re.search(r"\{\w+\}", value)):
        return [value]
    return []


def arguments_problems(arguments: str, schema: dict[str, Any]) -> list[str]:
    """Why a call's raw argument text is not a real call of a tool with ``schema`` (empty: fine)."""
    try:
        value = json.loads(arguments)
    except (TypeError, ValueError):
        return [f"参数不是 JSON：{str(arguments)[:80]!r}"]
    if not isinstance(value, dict):
        return [f"参数不是 JSON 对象：{str(arguments)[:80]!r}"]
    problems = [
        f"参数 {'.'.join(map(str, e.path)) or '（整体）'} 不符合定义：{e.message}"
        for e in jsonschema.Draft202012Validator(schema).iter_errors(value)
    ]
    problems += [f"参数是占位符或格式字符串：{p!r}" for p in _placeholders(value)]
    return problems


def _usage_tokens(response: Any) -> int | None:
    usage = getattr(response, "usage", None)
    return getattr(usage, "prompt_tokens", None) if usage is not None else None


def _error(exc: Exception) -> str:
    status = getattr(exc, "status_code", None)
    return f"{type(exc).__name__}{f'（HTTP {status}）' if status else ''}：{str(exc)[:200]}"


def check_answers(client: Any, model: str, state: dict[str, Any]) -> Finding:
    title = "服务端应答"
    try:
        response = client.chat.completions.create(
            model=model, messages=[{"role": "user", "content": REQUEST}], max_tokens=32
        )
    except Exception as exc:  # any failure is the verdict, said in words
        return Finding(
            title,
            False,
            f"普通请求失败：{_error(exc)}",
            "检查 LLM_BASE_URL（要以 /v1 之类的 API 根结尾）、LLM_MODEL 和 LLM_API_KEY，"
            "以及服务端是否已经启动。",
        )
    if not getattr(response, "choices", None):
        return Finding(title, False, "回复里没有 choices", "这个服务端不是 OpenAI 兼容的格式。")
    state["plain_tokens"] = _usage_tokens(response)
    return Finding(title, True, f"模型 {model} 回答了一个普通请求")


def check_schema_seen(client: Any, model: str, state: dict[str, Any]) -> Finding:
    title = "工具定义送达"
    plain = state.get("plain_tokens")
    try:
        response = client.chat.completions.create(
            model=model,
            messages=[{"role": "user", "content": REQUEST}],
            tools=[TOOL],
            max_tokens=128,  # room for a call the model writes as text (see check_auto_call)
        )
    except Exception as exc:
        return Finding(
            title,
            False,
            f"带工具的请求被拒绝：{_error(exc)}",
            "这个模型或服务端不接受 tools：换一个支持工具调用的模型，"
            "或用第 2 天的提示词 JSON 模式。",
            # the refusals the client recognizes (Ollama's, vLLM's) make it go on in prompt mode
            prompt_mode=tools_unsupported_hint(str(exc), model) is not None,
        )
    state["auto"] = response
    with_tool = _usage_tokens(response)
    if plain is None or with_tool is None:
        return Finding(title, None, "服务端没有返回 usage.prompt_tokens，无法判断工具定义是否送达")
    size = len(json.dumps(TOOL, ensure_ascii=False))
    need = int(size * template_check.MIN_GROWTH_PER_CHAR)
    numbers = f"prompt_tokens 从 {plain} 变成 {with_tool}（工具定义有 {size} 个字符）"
    if not template_check.judge(plain, with_tool, TOOL):
        detail = f"加上工具定义后 {numbers}，至少应多 {need} 个"
        return Finding(title, False, detail, TEMPLATE_FIX, prompt_mode=True)
    return Finding(title, True, f"加上工具定义后 {numbers}：模型看得到工具")


def check_auto_call(client: Any, model: str, state: dict[str, Any]) -> Finding:
    """The reply to ``check_schema_seen``'s request, where the model chose whether to call."""
    title = "自动调用"
    response = state.get("auto")
    if response is None:
        return Finding(title, None, "带工具的请求没有回复，无法检查模型会不会自己调用工具")
    message = response.choices[0].message
    if message.tool_calls:
        return Finding(title, True, f"模型自己决定调用了 {message.tool_calls[0].function.name}")
    text = message.content or ""
    if calls_written_as_text(text, [TOOL]):
        return Finding(
            title,
            None,
            f"模型把调用写成了文字，服务端没有解析成 tool_calls：{text.strip()[:80]!r}",
            "课程的客户端（ChatClient）会用第 2 天的解析器把这样的文字读成工具调用，Agent 照样"
            f"运行（流式回复等到流结束才读出来）。{template_check.TEXT_CALLS_FIX}",
        )
    return Finding(
        title,
        None,
        f"模型没有调用工具，只回了文字：{text.strip()[:80]!r}",
        "小模型常常这样：Agent 照样运行，但要用工具才能办的事办不成。换一个更擅长工具调用的"
        "模型，用 python -m handwritten_agent eval 看它的分数。",
    )


def check_forced_call(client: Any, model: str, state: dict[str, Any]) -> Finding:
    title = "强制调用参数"
    try:
        response = client.chat.completions.create(
            model=model,
            messages=[{"role": "user", "content": REQUEST}],
            tools=[TOOL],
            tool_choice=FORCED,
            max_tokens=128,
        )
    except Exception as exc:
        return Finding(
            title,
            False,
            f"指定工具的 tool_choice 被拒绝：{_error(exc)}",
            "服务端不支持按名字强制调用（vLLM 需要 --enable-auto-tool-choice 和 "
            "--tool-call-parser）；课程的 Agent 只用 tool_choice=auto，也可以继续，"
            "但先确认工具定义送达。",
        )
    state["forced"] = response
    message = response.choices[0].message
    calls = message.tool_calls or []
    if not calls:
        return Finding(
            title,
            False,
            f"要求必须调用 {TOOL_NAME}，模型却只回了文字：{(message.content or '')[:80]!r}",
            TEMPLATE_FIX,
        )
    problems = arguments_problems(calls[0].function.arguments, TOOL["function"]["parameters"])
    if calls[0].function.name != TOOL_NAME:
        problems.insert(0, f"调用的是 {calls[0].function.name!r}，不是 {TOOL_NAME}")
    if problems:
        return Finding(title, False, "；".join(problems[:3]), TEMPLATE_FIX)
    return Finding(title, True, f"参数 {calls[0].function.arguments} 符合工具定义")


def check_shapes(client: Any, model: str, state: dict[str, Any]) -> Finding:
    title = "返回格式"
    response = state.get("forced")
    if response is None:
        return Finding(title, None, "没有拿到工具调用的回复，无法检查 finish_reason 和调用 id")
    choice = response.choices[0]
    calls = choice.message.tool_calls or []
    problems = []
    if calls and choice.finish_reason != "tool_calls":
        problems.append(
            f"有工具调用时 finish_reason 是 {choice.finish_reason!r}，应为 'tool_calls'"
        )
    ids = [getattr(c, "id", None) for c in calls]
    if any(not isinstance(i, str) or not i.strip() for i in ids):
        problems.append(f"工具调用缺少 id：{ids}")
    elif len(set(ids)) != len(ids):
        problems.append(f"工具调用的 id 重复：{ids}")
    if any(getattr(c, "type", None) != "function" for c in calls):
        problems.append("工具调用的 type 不是 'function'")
    if problems:
        return Finding(
            title,
            False,
            "；".join(problems),
            "课程的客户端按 finish_reason 和 id 配对工具结果：换服务端或升级它的版本。",
        )
    return Finding(title, True, f"finish_reason={choice.finish_reason!r}，调用 id {ids}")


def check_streaming(client: Any, model: str, state: dict[str, Any]) -> Finding:
    title = "流式输出"
    try:
        text, finish = "", None
        for chunk in client.chat.completions.create(
            model=model,
            messages=[{"role": "user", "content": REQUEST}],
            max_tokens=32,
            stream=True,
        ):
            for choice in chunk.choices:
                text += choice.delta.content or ""
                finish = choice.finish_reason or finish
        arguments: dict[int, str] = {}
        for chunk in client.chat.completions.create(
            model=model,
            messages=[{"role": "user", "content": REQUEST}],
            tools=[TOOL],
            tool_choice=FORCED,
            max_tokens=128,
            stream=True,
        ):
            for choice in chunk.choices:
                for delta in choice.delta.tool_calls or []:
                    piece = delta.function.arguments if delta.function else None
                    arguments[delta.index] = arguments.get(delta.index, "") + (piece or "")
    except Exception as exc:
        return Finding(
            title,
            False,
            f"流式请求失败：{_error(exc)}",
            "第 1 天的流式输出和第 6 天会受影响；换服务端，或在这些地方用非流式请求。",
        )
    problems = []
    if not text.strip():
        problems.append("流式回复没有文字")
    if finish is None:
        problems.append("流式回复没有以 finish_reason 结束")
    streamed = [arguments_problems(a, TOOL["function"]["parameters"]) for a in arguments.values()]
    if arguments and any(p and p[0].startswith("参数不是 JSON") for p in streamed):
        problems.append(f"流式工具调用拼起来不是 JSON：{list(arguments.values())[:1]}")
    if problems:
        return Finding(title, False, "；".join(problems), "换服务端，或关掉流式（stream=False）。")
    return Finding(title, True, f"流式文字 {len(text)} 个字符，finish_reason={finish!r}")


CHECKS: tuple[Callable[[Any, str, dict[str, Any]], Finding], ...] = (
    check_answers,
    check_schema_seen,
    check_auto_call,
    check_forced_call,
    check_shapes,
    check_streaming,
)


def diagnose(client: Any, model: str) -> list[Finding]:
    """Every check against ``client`` (an ``openai.OpenAI``) and ``model``, in order; after a server
    that does not answer, the rest are not run."""
    state: dict[str, Any] = {}
    findings = [check_answers(client, model, state)]
    if findings[0].passed:
        findings += [check(client, model, state) for check in CHECKS[1:]]
    return findings


NATIVE_CHECKS = ("工具定义送达", "自动调用", "强制调用参数", "返回格式")
"""The checks of native tool calling: in prompt mode the client uses none of what they check."""


def conclusion(findings: list[Finding]) -> str:
    """The doctor's last line: what an agent on this server will actually do."""
    failed = [finding for finding in findings if finding.passed is False]
    if not failed:
        warned = [finding.title for finding in findings if finding.passed is None]
        if warned:
            return (
                f"结论：没有不通过的项，这个服务端可以用来做工具调用；{'、'.join(warned)}"
                "有提醒，见上面的“怎么办”。"
            )
        return "结论：没有发现问题，这个服务端可以用来做工具调用。"
    said = f"结论：{len(failed)} 项没通过（{'、'.join(f.title for f in failed)}）："
    if not any(finding.prompt_mode for finding in failed):
        return said + "这个服务端上的 Agent 不可靠。"
    said += (
        "这个服务端上用不了原生工具调用，但 Agent 仍然能运行：课程的客户端（ChatClient）会发现"
        "这一点，自动改用第 2 天的提示词 JSON 模式，把工具写进系统提示词（流式调用也一样，只是"
        "整段回复一次给出）。代价是每次请求更长、更慢，模型偶尔写坏 JSON 要重试，"
        "不如原生工具调用可靠。要用回原生工具调用，按上面“工具定义送达”一项的“怎么办”去做。"
    )
    rest = [finding.title for finding in failed if finding.title not in NATIVE_CHECKS]
    if rest:
        said += f"另外，{'、'.join(rest)}的问题提示词模式也绕不过去，请先按上面的“怎么办”解决。"
    return said


LOW_SCORE = 0.3


def eval_hint(report: dict[str, Any]) -> str | None:
    """``HINT`` when an evaluation report (its JSON) scores a real model at ``LOW_SCORE`` or less;
    None for the simulator (its fault models fail on purpose) and for fair scores."""
    score = report.get("pass_1")
    model = str(report.get("model") or "")
    if not isinstance(score, (int, float)) or model.startswith("course-sim"):
        return None
    return HINT if score <= LOW_SCORE else None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--base-url",
        default=None,
        help="服务端的 API 根，例如 http://127.0.0.1:8000/v1（默认 .env）",
    )
    parser.add_argument("--model", default=None, help="模型名（默认：.env 里的 LLM_MODEL）")
    parser.add_argument(
        "--api-key", default=None, help="API key（默认：.env 里的 LLM_API_KEY；本地服务随便填）"
    )
    parser.add_argument("--timeout", type=float, default=None, help="每个请求最多等几秒")


def _target(args: argparse.Namespace) -> tuple[str, str, str, float]:
    """base_url, model, key and timeout from the flags, else from the settings (offline and local
    start the shared in-process server)."""
    from ..config import SIMULATOR_MODEL, load_settings

    settings = load_settings()
    base_url, model = args.base_url, args.model
    key = args.api_key or settings.api_key or "not-needed"
    timeout = args.timeout or settings.timeout
    if base_url is None:
        if settings.backend == "remote":
            base_url = settings.base_url
        else:
            from ..llm import shared_server

            server = shared_server(settings.backend, settings.model)
            base_url = server.base_url
            if settings.backend == "local":  # the name the server serves the GGUF under
                served = server.backend.list_models()
                model = model or (served[0] if served else "local")
            model = model or settings.model or SIMULATOR_MODEL
    return str(base_url), str(model or settings.model or SIMULATOR_MODEL), key, timeout


def main(args: argparse.Namespace) -> int:
    """The command: a verdict per check, exit code 1 when one fails."""
    import openai

    base_url, model, key, timeout = _target(args)
    client = openai.OpenAI(base_url=base_url, api_key=key, timeout=timeout, max_retries=0)
    print(f"检查服务端 {base_url} 上的模型 {model} 能不能真正做工具调用：")
    findings = diagnose(client, model)
    for finding in findings:
        print(finding.line())
    print(conclusion(findings))
    return 1 if any(f.passed is False for f in findings) else 0


__all__ = [
    "CHECKS",
    "Finding",
    "HINT",
    "TOOL",
    "add_arguments",
    "arguments_problems",
    "check_auto_call",
    "conclusion",
    "diagnose",
    "eval_hint",
]
