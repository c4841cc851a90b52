"""Native tool calling on top of Day 2's prompt mode, for a model that cannot take ``tools``.

Some servers refuse the ``tools`` parameter for some models (Ollama: "… does not support tools";
vLLM started without its tool parser). The model can still call tools the way Day 2 taught: the
tools described in the system prompt, one JSON object per call in the reply. ``PromptTools`` wraps
any ``ChatModel`` and does that translation both ways, so the Day 3 loop, its hooks and the registry
work unchanged:

- on the way out, the tool schemas become the system prompt (``prompting.render_tool_prompt``); an
  assistant message's ``tool_calls`` become the JSON text the model would have written; a ``tool``
  message becomes a user message starting with "工具结果：" (``prompting.format_observation``);
- on the way back, the reply is read with ``parsing.parse_tool_calls``: JSON calls become
  ``tool_calls`` with fresh, unique ids (never a made-up fixed one); plain words stay the answer; a
  broken attempt is sent back to the model with the parser's own message, at most ``max_repairs``
  times, and then raises ``PromptToolsError`` (the loop ends with that error: the broken text is
  never passed off as an answer).

``ChatClient`` switches to this by itself when the server says it cannot take tools, or when its
chat template leaves them out (``llm.template_check``), and says so. ``calls_written_as_text`` is
the other half of a server's template: one that shows the model the tools but does not read the
calls the model writes back (they arrive as text, in the model's own format; see that function).

A stream in prompt mode (``ChatClient.stream``) arrives in one piece: whether the text is an answer
or a call is known only once it is whole.

Left out: ``tool_choice`` (a prompt cannot force a call; it is dropped)
and structured outputs.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from .messages import ChatModel, ChatResult, parse_arguments
from .parsing import MAX_BLOCKS, ParseError, find_json_blocks, parse_tool_calls
from .prompting import format_observation, render_tool_prompt

DROPPED_OPTIONS = ("tool_choice", "parallel_tool_calls")
"""Options that only mean something with native ``tools``."""


class PromptToolsError(RuntimeError):
    """The model kept writing tool calls that could not be read."""


def _field(message: Any, name: str) -> Any:
    return message.get(name) if isinstance(message, dict) else getattr(message, name, None)


def _call_text(call: Any) -> str:
    function = _field(call, "function") or {}
    name = _field(function, "name") or ""
    raw = _field(function, "arguments") or "{}"
    try:
        arguments: Any = parse_arguments(raw)
    except ValueError:  # arguments that were never a JSON object: shown as they were
        arguments = {"_raw": raw}
    return json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)


def as_prompt_messages(
    messages: Sequence[Any], tools: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The conversation rewritten for a model that reads tools from the prompt (see the module)."""
    prompt = render_tool_prompt(tools)
    out: list[dict[str, Any]] = []
    names: dict[str, str] = {}  # tool_call_id -> tool name, to label each result
    for message in messages:
        role, content = _field(message, "role"), _field(message, "content")
        if role == "assistant" and _field(message, "tool_calls"):
            texts = [content] if content else []
            for call in _field(message, "tool_calls"):
                names[str(_field(call, "id"))] = _field(_field(call, "function") or {}, "name")
                texts.append(_call_text(call))
            out.append({"role": "assistant", "content": "\n".join(texts)})
        elif role == "tool":
            name = names.get(str(_field(message, "tool_call_id")), "工具")
            out.append({"role": "user", "content": format_observation(name, content or "")})
        else:
            out.append({"role": role, "content": content})
    if out and out[0]["role"] == "system":
        out[0] = {"role": "system", "content": f"{out[0]['content'] or ''}\n\n{prompt}".strip()}
    else:
        out.insert(0, {"role": "system", "content": prompt})
    return out


# Formats that put the tool's name in markup, outside the JSON: the opening that comes before the
# arguments' JSON object, with the name in group 1, 2 or 3.
_NAME_IN_MARKUP = re.compile(
    # Llama 3.1 / Functionary: <function=get_weather>{…}</function>
    r"<function=([\w.-]+)>"
    # Qwen2.5-Coder: <tools><function name="get_weather"><arguments>{…}</arguments></function>…
    r"|<function\s+name=[\"']([\w.-]+)[\"']\s*>\s*(?:<arguments>)?"
    # newer Mistral tokenizers: [TOOL_CALLS]get_weather[ARGS]{…} (or without [ARGS])
    r"|\[TOOL_CALLS\]\s*([\w.-]+)\s*(?:\[ARGS\])?"
)


def _names_into_json(text: str) -> str:
    """``text`` with every call whose name sits in markup rewritten as the JSON object Day 2's
    parser reads: ``<function=get_weather>{"city": "北京"}</function>`` becomes
    ``{"name": "get_weather", "arguments": {"city": "北京"}}</function>``. The arguments are copied
    as they were written (a broken object stays broken); an opening not followed by a complete
    JSON object is left alone. Leftover closing tags are text, which the parser skips.
    """
    out: list[str] = []
    position = 0
    for match in list(_NAME_IN_MARKUP.finditer(text))[:MAX_BLOCKS]:
        if match.start() < position:  # inside the arguments of the call before
            continue
        rest = text[match.end() :]
        blocks = find_json_blocks(rest)
        first = blocks[0] if blocks else None
        if first is None or not first.closed or rest[: first.start].strip():
            continue
        name = next(group for group in match.groups() if group)
        out += [text[position : match.start()], '{"name": ', json.dumps(name), ', "arguments": ']
        out += [first.text, "}"]
        position = match.end() + first.end
    return "".join(out) + text[position:]


def calls_written_as_text(text: str | None, tools: Sequence[dict[str, Any]]) -> list[Any]:
    """The tool calls a reply wrote as text although native tools were offered, with fresh ids;
    ``[]`` when the reply holds no call, a broken one, or one naming a tool that was not offered
    (then the whole reply stays text: an answer).

    Local models write their calls in their own formats, and a server without the matching parser
    hands them back as text. Read here (tests/test_prompt_tools.py says who writes each):

    - JSON with the name inside, which Day 2's parser already reads, whatever is around it:
      Qwen/Hermes ``<tool_call>{"name": …, "arguments": …}</tool_call>``; Qwen2.5-Coder
      ``<tools>{…}</tools>`` or a bare object; Llama 3.x ``{"name": …, "parameters": …}`` (also
      after ``<|python_tag|>``); Mistral ``[TOOL_CALLS] [{…}, …]``; a ```json fence;
    - markup with the name outside the JSON, rewritten first (``_names_into_json``): Llama 3.1 /
      Functionary ``<function=NAME>{…}</function>``; Qwen2.5-Coder
      ``<tools><function name="NAME"><arguments>{…}</arguments></function></tools>``; newer
      Mistral ``[TOOL_CALLS]NAME[ARGS]{…}``.

    Each call must name an offered tool, and its arguments must be a JSON object (Day 2's repairs
    apply: a fence, a trailing comma…). The arguments are not checked against the schema here:
    the registry does that when it runs the call, as for a native call, and tells the model.
    Prose around the calls is not part of any call (and is dropped with the text).

    Left out: formats whose arguments are not JSON — Qwen3-Coder's
    ``<parameter=city>北京</parameter>``, pythonic ``get_weather(city="北京")``, Llama's built-in
    ``<|python_tag|>brave_search.call(…)`` — and models' own special tokens (DeepSeek's
    ``<｜tool▁call▁begin｜>``, Gemma's ``<|tool_call>``); nothing read is ever run as code.
    """
    if not text:
        return []
    parsed = parse_tool_calls(_names_into_json(text))
    offered = {(_field(tool, "function") or {}).get("name") for tool in tools}
    if isinstance(parsed, ParseError) or not parsed:
        return []
    if any(call.name not in offered for call in parsed):
        return []
    return [call.with_id(f"call_{uuid.uuid4().hex[:24]}") for call in parsed]


class PromptTools:
    """A ``ChatModel`` that gives ``model`` its tools through the prompt (see the module)."""

    def __init__(self, model: ChatModel, *, max_repairs: int = 2):
        if max_repairs < 0:
            raise ValueError(f"max_repairs 必须是 0 或更大的整数，收到的是 {max_repairs}。")
        self.model = model
        self.max_repairs = max_repairs

    def complete(
        self,
        messages: Sequence[Any],
        tools: Sequence[dict[str, Any]] | None = None,
        **options: Any,
    ) -> ChatResult:
        if not tools:
            return self.model.complete(messages, None, **options)
        options = {k: v for k, v in options.items() if k not in DROPPED_OPTIONS}
        sent = as_prompt_messages(messages, tools)
        for _ in range(self.max_repairs + 1):  # bounded: the first try and max_repairs more
            reply = self.model.complete(sent, None, **options)
            text = reply.content or ""
            parsed = parse_tool_calls(text)
            if isinstance(parsed, ParseError):
                sent = [
                    *sent,
                    {"role": "assistant", "content": text},
                    {"role": "user", "content": parsed.message},
                ]
                continue
            if not parsed:
                return reply  # words: the answer
            calls = [call.with_id(f"call_{uuid.uuid4().hex[:24]}") for call in parsed]
            return replace(reply, content=None, tool_calls=calls, finish_reason="tool_calls")
        raise PromptToolsError(
            f"模型连续 {self.max_repairs + 1} 次用文字写的工具调用都读不出来，"
            f"最后一次的问题：{parsed.message}"
        )


__all__ = ["PromptTools", "PromptToolsError", "as_prompt_messages", "calls_written_as_text"]
