"""Reads spec["parameters"]["required"] directly: a tool without a required list raises KeyError."""

import json


def render_tool_prompt(tools):
    parts = []
    for spec in tools:
        required = "、".join(spec["parameters"]["required"])
        parts.append(f"- {spec['name']}：{spec['description']}（必填参数：{required}）\n  {json.dumps(spec['parameters'], ensure_ascii=False)}")
    return "工具：\n" + "\n".join(parts) + '\n需要调用时只输出 {"name": "工具名", "arguments": {…}}；不需要工具时直接回答。'


ARGS = (render_tool_prompt,)
FAILS_AT = "渲染三个工具"
