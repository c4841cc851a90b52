"""Marks a parameter required when its name appears in the joined required list: the optional `day`
is a part of "city, days", so it is marked 必填 too."""


def render_tool_prompt(tools):
    lines = ["你可以调用下面的工具。"]
    for spec in tools:
        schema = spec.get("parameters") or {}
        required = ", ".join(schema.get("required") or [])
        lines.append(f"\n## {spec['name']}\n{spec.get('description', '')}")
        if not schema.get("properties"):
            lines.append("参数：无")
        for name, p in (schema.get("properties") or {}).items():
            flag = "必填" if name in required else "可选"
            line = f"- {name}（{p.get('type', 'string')}，{flag}）：{p.get('description', '')}"
            if p.get("enum"):
                line += "，可选值：" + "、".join(str(v) for v in p["enum"])
            lines.append(line)
    lines.append(
        '\n需要调用工具时只输出一个 JSON 对象，例如 {"name": "工具名", "arguments": {"参数": "值"}}；'
        "不需要工具时直接用文字回答。"
    )
    return "\n".join(lines)


FAILS_AT = "同名的 get_weather"
ARGS = (render_tool_prompt,)
