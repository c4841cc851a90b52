"""Correct, as one Markdown table with a row per tool: each parameter written in the row's 参数 cell, joined by <br>."""


def render_tool_prompt(tools):
    rows = ["| 工具名 | 功能描述 | 参数 |", "| --- | --- | --- |"]
    for spec in tools:
        schema = spec.get("parameters") or {}
        required = schema.get("required") or []
        params = []
        for name, p in (schema.get("properties") or {}).items():
            values = f"，可选值：{', '.join(p['enum'])}" if p.get("enum") else ""
            params.append(f"`{name}` ({p.get('type', 'string')}, {'必填' if name in required else '可选'}): {p.get('description', '')}{values}")
        rows.append(f"| {spec['name']} | {spec['description']} | {'<br>'.join(params) or '无'} |")
    return ("## 可用工具\n\n" + "\n".join(rows) +
            '\n\n需要调用工具时，只输出一个 JSON 对象，例如：{"name": "工具名", "arguments": {"参数名": "值"}}。'
            "不需要工具时，直接用自然语言回答。")


ARGS = (render_tool_prompt,)
