"""Correct, as a YAML-like block: each tool's parameters with type, required, enum and description."""


def render_tool_prompt(tools):
    lines = ["你可以使用的工具（YAML）：", "tools:"]
    for spec in tools:
        lines += [f"  - name: {spec['name']}", f"    description: {spec['description']}"]
        properties = (spec.get("parameters") or {}).get("properties") or {}
        required = (spec.get("parameters") or {}).get("required") or []
        lines.append("    parameters:" + ("" if properties else " {}"))
        for name, p in properties.items():
            lines += [f"      {name}:", f"        type: {p.get('type', 'string')}",
                      f"        required: {'true' if name in required else 'false'}", f"        description: {p.get('description', '')}"]
            if "enum" in p:
                lines.append(f"        enum: [{', '.join(map(str, p['enum']))}]")
    lines.append('调用工具时只回复一个 JSON 对象：{"name": "工具名", "arguments": {"参数": "值"}}。如果不需要工具，直接回答。')
    return "\n".join(lines)


ARGS = (render_tool_prompt,)
