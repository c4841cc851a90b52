"""Tests for handwritten_agent.prompting: tool specs, the prompt-JSON prompt, observations, the
ReAct prompt.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from handwritten_agent.messages import ToolCall
from handwritten_agent.parsing import ReActStep, parse_react, parse_tool_call
from handwritten_agent.prompting import (
    OBSERVATION_PREFIX,
    REACT_STOP,
    format_observation,
    format_react_observation,
    render_react_prompt,
    render_tool_prompt,
    schema_json,
    tool_specs,
)

CALCULATE = {
    "name": "calculate",
    "description": "执行一个数学计算，例如 (3 + 5) * 2。",
    "parameters": {
        "type": "object",
        "properties": {
            "expression": {"type": "string", "description": "数学表达式，例如 3 + 5 * 2"}
        },
        "required": ["expression"],
    },
}
WEATHER_OPENAI = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "查询城市天气（示例数据）。",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "城市名，例如 北京"},
                "date": {"type": "string", "enum": ["today", "tomorrow"]},
            },
            "required": ["city"],
        },
    },
}
CLOCK = {"name": "get_current_time", "description": "获取当前时间。"}
TOOLS = [CALCULATE, WEATHER_OPENAI, CLOCK]

JSON_BLOCK = re.compile(r"```json\n(.*?)\n```", re.DOTALL)


def test_tool_specs_normalizes_both_shapes_and_keeps_order():
    specs = tool_specs(TOOLS)
    assert [spec["name"] for spec in specs] == ["calculate", "get_weather", "get_current_time"]
    assert specs[0] == CALCULATE
    assert specs[1] == WEATHER_OPENAI["function"]
    assert specs[2] == {
        "name": "get_current_time",
        "description": "获取当前时间。",
        "parameters": {"type": "object", "properties": {}},
    }
    assert all(set(spec) == {"name", "description", "parameters"} for spec in specs)


@pytest.mark.parametrize(
    ("tools", "error", "match"),
    [
        ([{"description": "x"}], ValueError, "没有名字"),
        ([CALCULATE, CALCULATE], ValueError, "不能重复"),
        ([{"name": "f", "parameters": "string"}], TypeError, "JSON Schema"),
        (["calculate"], TypeError, "应该是一个 dict"),
        ([{"type": "function", "function": None}], TypeError, "'function' 应该是"),
    ],
)
def test_tool_specs_rejects_bad_tools_with_a_fix(tools, error, match):
    with pytest.raises(error, match=match):
        tool_specs(tools)


def test_tool_prompt_lists_every_tool_with_its_schema_as_json():
    prompt = render_tool_prompt(TOOLS)
    blocks = JSON_BLOCK.findall(prompt)
    assert len(blocks) == len(TOOLS)
    for spec, block in zip(tool_specs(TOOLS), blocks):
        assert f"### {spec['name']}" in prompt
        assert spec["description"] in prompt
        assert json.loads(block) == spec["parameters"]  # round-trips to the schema
    assert "例如 北京" in prompt  # Chinese kept readable, not \\u-escaped


def test_tool_prompt_states_the_protocol():
    prompt = render_tool_prompt(TOOLS)
    assert '{"name": "<工具名>", "arguments": {' in prompt
    assert "不能有任何其他文字" in prompt
    assert "直接用自然语言回答" in prompt
    assert f"“{OBSERVATION_PREFIX}”开头" in prompt
    assert "calculate、get_weather、get_current_time" in prompt


def test_tool_prompt_is_deterministic():
    reordered = dict(reversed(list(CALCULATE.items())))
    reordered["parameters"] = dict(reversed(list(CALCULATE["parameters"].items())))
    assert render_tool_prompt([reordered, WEATHER_OPENAI, CLOCK]) == render_tool_prompt(TOOLS)
    assert render_tool_prompt(TOOLS) == render_tool_prompt(TOOLS)


def test_tool_prompt_intro_and_empty_tools():
    assert render_tool_prompt([CLOCK], intro="你是办公助手。").startswith("你是办公助手。\n")
    with pytest.raises(ValueError, match="至少需要一个工具"):
        render_tool_prompt([])


def tools_from_prompt(prompt: str) -> list[dict[str, Any]]:
    """The inverse of ``render_tool_prompt`` / ``render_react_prompt``: the rendering loses
    nothing.
    """
    specs: list[dict[str, Any]] = []
    lines = prompt.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if not line.startswith("### "):
            continue
        name = line[4:].strip()
        description_lines: list[str] = []
        while index < len(lines) and not lines[index].startswith("参数（JSON Schema）："):
            description_lines.append(lines[index])
            index += 1
        if index + 1 >= len(lines) or lines[index + 1].strip() != "```json":
            continue
        index += 2
        block: list[str] = []
        while index < len(lines) and lines[index].strip() != "```":
            block.append(lines[index])
            index += 1
        index += 1
        try:
            parameters = json.loads("\n".join(block))
        except json.JSONDecodeError:
            continue
        description = "\n".join(description_lines).strip()
        description = description.removeprefix("用途：")
        if description == "（没有说明）":
            description = ""
        specs.append({"name": name, "description": description, "parameters": parameters})
    return specs


def test_tools_from_prompt_inverts_both_renderings():
    assert tools_from_prompt(render_tool_prompt(TOOLS)) == tool_specs(TOOLS)
    assert tools_from_prompt(render_react_prompt(TOOLS)) == tool_specs(TOOLS)
    assert tools_from_prompt("你是一个助手。") == []


def test_schema_json_sorts_keys():
    assert (
        schema_json({"b": 1, "a": {"d": 2, "c": "中"}})
        == '{\n  "a": {\n    "c": "中",\n    "d": 2\n  },\n  "b": 1\n}'
    )


def test_format_observation():
    assert format_observation("calculate", "8") == "工具结果：calculate 返回 8"
    message = format_observation(
        "get_weather", {"success": True, "data": {"city": "北京", "temp": 25}}
    )
    assert message.startswith(OBSERVATION_PREFIX)
    assert json.loads(message.split(" 返回 ", 1)[1]) == {
        "success": True,
        "data": {"city": "北京", "temp": 25},
    }
    assert "北京" in message


def test_a_reply_following_the_tool_prompt_parses():
    reply = '{"name": "get_weather", "arguments": {"city": "北京", "date": "tomorrow"}}'
    assert parse_tool_call(reply) == ToolCall.from_arguments(
        "get_weather", {"city": "北京", "date": "tomorrow"}
    )


def test_react_prompt_describes_the_format():
    prompt = render_react_prompt(TOOLS)
    for keyword in ("Thought:", "Action:", "Action Input:", "Observation:", "Final Answer:"):
        assert f"\n{keyword}" in prompt
    assert "[calculate, get_weather, get_current_time]" in prompt
    assert "不要自己编写 Observation" in prompt
    assert len(JSON_BLOCK.findall(prompt)) == len(TOOLS)


def test_react_stop_sequence_is_before_observation():
    assert REACT_STOP == ["Observation:"]
    invented = (
        'Thought: 算一下\nAction: calculate\nAction Input: {"expression": "6*7"}\nObservation:'
        " 42\nFinal Answer: 42"
    )
    cut = invented.split(REACT_STOP[0])[
        0
    ]  # what a server returns when it honours the stop sequence
    assert (
        parse_react(cut)
        == parse_react(invented)
        == ReActStep(thought="算一下", action="calculate", action_input={"expression": "6*7"})
    )


def test_format_react_observation():
    assert (
        format_react_observation({"data": 42, "success": True})
        == 'Observation: {"data": 42, "success": true}\n'
    )
    assert format_react_observation("晴") == "Observation: 晴\n"
