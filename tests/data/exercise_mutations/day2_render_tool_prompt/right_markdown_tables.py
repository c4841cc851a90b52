"""Correct, as Markdown: a heading and a parameter table per tool (类型、必填、可选值 in their own columns)."""


def render_tool_prompt(tools):
    parts = ["你可以调用下列工具。"]
    for spec in tools:
        parts.append(f"## {spec['name']}\n{spec['description']}\n")
        properties = spec.get("parameters", {}).get("properties", {})
        required = spec.get("parameters", {}).get("required", [])
        if not properties:
            parts.append("参数：无\n")
            continue
        rows = ["| 参数 | 类型 | 必填 | 可选值 | 说明 |", "|---|---|---|---|---|"]
        for name, schema in properties.items():
            values = " / ".join(map(str, schema.get("enum", []))) or "-"
            rows.append(f"| {name} | {schema.get('type', 'string')} | {'是' if name in required else '否'} | {values} | {schema.get('description', '')} |")
        parts.append("\n".join(rows) + "\n")
    parts.append('需要调用工具时，整条回复只输出一个 JSON 对象：{"name": "工具名", "arguments": {"参数名": "参数值"}}。'
                 "不需要工具时，直接用自然语言回答。")
    return "\n".join(parts)


ARGS = (render_tool_prompt,)
