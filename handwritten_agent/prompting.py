"""Tools rendered into a system prompt, for models called without the native ``tools`` parameter.

Day 2 makes a model call tools with nothing but words: the system prompt lists each tool (name,
description, parameters as JSON Schema) and asks for exactly one JSON object per call. This module
writes that prompt, and the prompt for the text ReAct format (Thought / Action / Action Input /
Observation / Final Answer). The prompts are in Chinese because they are read by a model talking to
a Chinese-speaking user; everything else here is plain Python.

Output is deterministic: the same tools always give the same prompt, byte for byte (schemas are
dumped with sorted keys), so a prompt can be compared in a test, diffed, and cached by providers
that cache prompt prefixes.

Left out: reading the model's reply (that is ``parsing``), checking arguments against the schema
(``tools``), and native tool calling (Day 3).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

OBSERVATION_PREFIX = "工具结果："
"""Every tool result sent back in prompt-JSON mode starts with this, so the model can tell it from
the user.
"""

REACT_STOP = ["Observation:"]
# The stop sequence goes before "Observation:" because the observation is the tool's result, and
# only running the tool can produce it. Left to itself, a model writes "Observation:" next and then
# invents a plausible result -- and often a Final Answer built on that invention. With this stop
# sequence the server cuts generation right there (the stop text itself is not returned); our code
# runs the tool and appends the real "Observation: ..." before asking the model to continue.

_EMPTY_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {}}


def tool_specs(tools: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Normalize tools to ``{"name", "description", "parameters"}`` dicts, keeping their order.

    Accepts both shapes in use: the OpenAI ``{"type": "function", "function": {...}}`` wrapper and
    the bare ``{"name", "description", "parameters"}`` form. A missing description becomes ``""``
    and missing parameters an empty object schema.
    """
    specs: list[dict[str, Any]] = []
    seen: set[str] = set()
    for index, tool in enumerate(tools):
        if not isinstance(tool, Mapping):
            raise TypeError(
                f"第 {index} 个工具是 {type(tool).__name__}，应该是一个 dict，例如 "
                '{"name": ..., "description": ..., "parameters": {...}}，或者 OpenAI 的写法 '
                '{"type": "function", "function": {...}}'
            )
        spec = tool["function"] if "function" in tool else tool
        if not isinstance(spec, Mapping):
            raise TypeError(
                f"第 {index} 个工具：'function' 应该是一个含 name/description/parameters 的 dict，"
                f"收到的是 {type(spec).__name__}"
            )
        name = spec.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"第 {index} 个工具没有名字：请给它一个 'name'，例如 \"get_weather\"")
        if name in seen:
            raise ValueError(f"有两个工具都叫 {name!r}：工具名不能重复")
        seen.add(name)
        description = spec.get("description") or ""
        if not isinstance(description, str):
            raise TypeError(
                f"工具 {name!r}：'description' 应该是字符串，收到的是 {type(description).__name__}"
            )
        parameters = spec.get("parameters")
        if parameters is None:
            parameters = dict(_EMPTY_PARAMETERS)
        if not isinstance(parameters, Mapping):
            raise TypeError(
                f"工具 {name!r}：'parameters' 应该是一个 JSON Schema 对象（dict），"
                f"收到的是 {type(parameters).__name__}"
            )
        specs.append(
            {"name": name, "description": description.strip(), "parameters": dict(parameters)}
        )
    return specs


def schema_json(parameters: Mapping[str, Any]) -> str:
    """A parameters schema as pretty JSON with sorted keys (Chinese kept readable, not
    \\u-escaped).
    """
    return json.dumps(parameters, ensure_ascii=False, indent=2, sort_keys=True)


def _render_tool_list(specs: list[dict[str, Any]]) -> str:
    sections = []
    for spec in specs:
        sections.append(
            f"### {spec['name']}\n"
            f"用途：{spec['description'] or '（没有说明）'}\n"
            "参数（JSON Schema）：\n"
            f"```json\n{schema_json(spec['parameters'])}\n```"
        )
    return "\n\n".join(sections)


DEFAULT_INTRO = (
    "你是一个能调用工具的助手。需要实时信息、计算或执行操作时，请调用下面的工具，不要凭空编造结果。"
)


def render_tool_prompt(tools: Iterable[Mapping[str, Any]], *, intro: str | None = None) -> str:
    """The system prompt for prompt-JSON tool calling: the tools, then the reply format.

    When a tool is needed the model must answer with exactly one JSON object
    ``{"name": ..., "arguments": {...}}`` and nothing else; otherwise in plain words. Tool results
    come back as user messages made by ``format_observation`` (they start with "工具结果：").
    """
    specs = tool_specs(tools)
    if not specs:
        raise ValueError(
            "render_tool_prompt 至少需要一个工具；没有工具时，直接写一段普通的 system prompt"
        )
    names = "、".join(spec["name"] for spec in specs)
    return (
        f"{(intro or DEFAULT_INTRO).strip()}\n"
        "\n"
        "## 可用工具\n"
        "\n"
        f"{_render_tool_list(specs)}\n"
        "\n"
        "## 调用工具的格式\n"
        "\n"
        "需要调用工具时，你的整条回复必须是一个 JSON 对象，不能有任何其他文字（不要解释，不要加"
        " Markdown 代码块）：\n"
        '{"name": "<工具名>", "arguments": {<参数名>: <参数值>, …}}\n'
        "\n"
        f"- name 必须是这些工具名之一：{names}。\n"
        "- arguments 必须符合该工具的参数 JSON Schema，必填（required）的参数都要给出；没有参数时写"
        " {}。\n"
        "- 使用标准 JSON：双引号、英文标点，不要有多余的逗号。\n"
        "- 一次只调用一个工具。\n"
        "\n"
        f"工具的执行结果会以一条用“{OBSERVATION_PREFIX}”开头的消息发给你。拿到结果后，可以继续调用"
        "工具，也可以根据结果回答用户。\n"
        "\n"
        "如果不需要调用工具（例如闲聊，或者你已经掌握了回答所需的全部信息），请直接用自然语言回答，"
        "不要输出 JSON。"
    )


def _result_text(result: Any) -> str:
    if isinstance(result, str):
        return result
    return json.dumps(result, ensure_ascii=False, sort_keys=True, default=str)


def format_observation(name: str, result: Any) -> str:
    """The message that hands a tool's result back in prompt-JSON mode.

    ``result`` may be text or anything JSON-serializable (dicts are dumped with sorted keys), e.g.
    ``format_observation("calculate", {"success": True, "data": 8})`` gives
    ``'工具结果：calculate 返回 {"data": 8, "success": true}'``. Send it with role "user": in this
    mode the conversation has no "tool" role.
    """
    return f"{OBSERVATION_PREFIX}{name} 返回 {_result_text(result)}"


def render_react_prompt(tools: Iterable[Mapping[str, Any]], *, intro: str | None = None) -> str:
    """The system prompt for the text ReAct format, to be used with ``stop=REACT_STOP``.

    The keywords stay in English (Thought, Action, Action Input, Observation, Final Answer) because
    the parser and the stop sequence look for them; the instructions around them are Chinese.
    """
    specs = tool_specs(tools)
    if not specs:
        raise ValueError("render_react_prompt 至少需要一个工具；没有工具，就没有可以执行的 Action")
    names = ", ".join(spec["name"] for spec in specs)
    return (
        f"{(intro or '你是一个能调用工具的助手，请一步一步思考并借助工具解决用户的问题。').strip()}"
        f"\n"
        "\n"
        "## 可用工具\n"
        "\n"
        f"{_render_tool_list(specs)}\n"
        "\n"
        "## 回答格式\n"
        "\n"
        "严格按照下面的格式输出。关键字（Thought、Action、Action Input、Observation、Final"
        " Answer）保持英文，"
        "每个关键字单独起一行，后面跟英文冒号：\n"
        "\n"
        "Thought: 思考现在该做什么\n"
        f"Action: 要调用的工具名，必须是 [{names}] 之一\n"
        'Action Input: 工具的参数，一个 JSON 对象，例如 {"参数名": "参数值"}\n'
        "Observation: 工具的执行结果\n"
        "……（Thought / Action / Action Input / Observation 可以重复多次）\n"
        "Thought: 我已经知道最终答案了\n"
        "Final Answer: 给用户的最终回答\n"
        "\n"
        "注意：\n"
        "- Observation 由系统在执行工具后填写。写完 Action Input 就立即停止，绝对不要自己编写"
        " Observation。\n"
        "- 不需要工具时，直接写 Thought 和 Final Answer。\n"
        "- Final Answer 用用户使用的语言回答。"
    )


def format_react_observation(result: Any) -> str:
    """The text appended after the model's Action Input: ``"Observation: <result>\\n"``."""
    return f"Observation: {_result_text(result)}\n"
