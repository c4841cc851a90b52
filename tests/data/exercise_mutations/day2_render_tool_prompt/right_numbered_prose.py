"""Correct, as numbered prose lines: each parameter with its type in Chinese, 必填/可选 and its 可选值 inline."""

ZH = {"string": "字符串", "integer": "整数", "number": "数字", "boolean": "布尔值", "array": "数组", "object": "对象"}


def render_tool_prompt(tools):
    lines = ["你可以使用以下工具（没有列出的工具不存在）："]
    for number, spec in enumerate(tools, 1):
        schema = spec.get("parameters") or {}
        required = set(schema.get("required") or [])
        params = []
        for name, p in (schema.get("properties") or {}).items():
            values = f"，可选值：{'、'.join(p['enum'])}" if p.get("enum") else ""
            params.append(f"{name}（{ZH.get(p.get('type'), p.get('type'))}，{'必填' if name in required else '可选'}）：{p.get('description', '')}{values}")
        tail = "参数：" + "；".join(params) + "。" if params else "没有参数。"
        lines.append(f"{number}. {spec['name']}：{spec['description']}{tail}")
    lines.append('调用工具时只输出一个 JSON 对象，形如 {"name": "工具名", "arguments": {…}}，不要有其他文字；'
                 "不需要调用工具时，直接用文字回答。")
    return "\n".join(lines)


ARGS = (render_tool_prompt,)
