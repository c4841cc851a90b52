"""Pops "name" out of each tool to print the rest as JSON: the caller's tools lose their names."""

import json


def render_tool_prompt(tools):
    sections = []
    for spec in tools:
        name = spec.pop("name")
        sections.append(f"### {name}\n{json.dumps(spec, ensure_ascii=False)}")
    return ("## 工具\n" + "\n".join(sections) +
            '\n需要调用工具时只输出 {"name": "工具名", "arguments": {…}}，required 里的参数必填；不需要工具时直接回答。')


ARGS = (render_tool_prompt,)
FAILS_AT = "渲染三个工具"
