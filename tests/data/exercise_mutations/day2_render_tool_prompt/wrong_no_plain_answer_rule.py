"""Complete tool descriptions and call format, but it never says what to do when no tool is needed."""

import json


def render_tool_prompt(tools):
    parts = [f"### {spec['name']}\n{spec['description']}\n参数（JSON Schema，required 为必填）：{json.dumps(spec['parameters'], ensure_ascii=False)}"
             for spec in tools]
    return "\n\n".join(parts) + '\n\n每次回复都只输出一个 JSON 对象：{"name": "工具名", "arguments": {…}}。'


ARGS = (render_tool_prompt,)
FAILS_AT = "不需要工具时"
