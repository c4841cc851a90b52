"""Correct, as XML-like tags: <tool name=…> with a <description> and one <param> per parameter (type, required, enum as attributes)."""


def render_tool_prompt(tools):
    lines = ["<tools>"]
    for spec in tools:
        schema = spec.get("parameters") or {}
        required = schema.get("required") or []
        lines += [f'<tool name="{spec["name"]}">', f"<description>{spec['description']}</description>"]
        for name, p in (schema.get("properties") or {}).items():
            enum = f' enum="{",".join(p["enum"])}"' if p.get("enum") else ""
            lines.append(f'<param name="{name}" type="{p.get("type", "string")}" required="{"true" if name in required else "false"}"{enum}>'
                         f"{p.get('description', '')}</param>")
        lines.append("</tool>")
    lines.append("</tools>")
    lines.append('调用工具时只输出 JSON：{"name": "工具名", "arguments": {…}}。不需要工具时直接用文字回答。')
    return "\n".join(lines)


ARGS = (render_tool_prompt,)
