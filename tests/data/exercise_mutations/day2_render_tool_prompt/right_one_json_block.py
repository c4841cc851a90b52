"""Correct, another style: the whole tool list as one JSON block (name, description, parameters as
given), then the reply format and the rule for a plain answer."""

import json


def render_tool_prompt(tools):
    listed = [
        {"name": spec["name"], "description": spec.get("description", ""),
         "parameters": spec.get("parameters") or {"type": "object", "properties": {}}}
        for spec in tools
    ]
    return (
        "你可以使用下面这些工具（JSON 列表，每项是工具名、用途和参数的 JSON Schema；required 里的参数必须给出）：\n"
        + json.dumps(listed, ensure_ascii=False, indent=2)
        + "\n\n要调用工具时，只回复一个 JSON 对象，前后不要有任何别的文字：\n"
        '{"name": "工具名", "arguments": {"参数名": 参数值}}\n'
        "不需要工具时，直接用自然语言回答，不要输出 JSON。"
    )


ARGS = (render_tool_prompt,)
