"""Renders tools[0] only (a loop that returns inside its first turn)."""

import json


def render_tool_prompt(tools):
    for spec in tools:
        return (f"你可以调用工具 {spec['name']}：{spec['description']}\n参数：{json.dumps(spec['parameters'], ensure_ascii=False)}\n"
                '需要调用时只输出 {"name": "工具名", "arguments": {…}}；不需要工具时直接回答。')
    return "没有可用的工具，请直接回答。"


ARGS = (render_tool_prompt,)
FAILS_AT = "写出工具 translate_text"
