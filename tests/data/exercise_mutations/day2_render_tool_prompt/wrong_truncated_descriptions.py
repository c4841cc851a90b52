"""Cuts every description to 12 characters to save tokens."""

import json


def render_tool_prompt(tools):
    parts = [f"- {spec['name']}：{spec['description'][:12]}\n  参数：{json.dumps(spec['parameters'], ensure_ascii=False)}" for spec in tools]
    return ("可用工具：\n" + "\n".join(parts) +
            '\n需要调用工具时只输出 {"name": "工具名", "arguments": {…}}；不需要工具时直接回答。')


ARGS = (render_tool_prompt,)
FAILS_AT = "的描述"
