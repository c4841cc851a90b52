"""Puts every tool's JSON in the prompt but never says how to answer with a call."""

import json


def render_tool_prompt(tools):
    return "你可以使用这些工具：\n" + "\n".join(json.dumps(spec, ensure_ascii=False) for spec in tools)


ARGS = (render_tool_prompt,)
FAILS_AT = "回复格式"
