"""Returns the list of lines instead of joining them into one string."""

import json


def render_tool_prompt(tools):
    lines = ["可用工具："]
    for spec in tools:
        lines.append(f"{spec['name']}：{spec['description']} 参数：{json.dumps(spec['parameters'], ensure_ascii=False)}")
    lines.append('需要调用时只输出 {"name": "工具名", "arguments": {…}}；不需要工具时直接回答。')
    return lines


ARGS = (render_tool_prompt,)
FAILS_AT = "渲染三个工具"
