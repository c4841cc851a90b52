"""Writes each parameter's name and description, enum and required — but never its type."""


def render_tool_prompt(tools):
    lines = ["可用工具："]
    for spec in tools:
        lines.append(f"- {spec['name']}：{spec['description']}")
        required = spec["parameters"].get("required", [])
        for name, schema in spec["parameters"]["properties"].items():
            enum = f"，可选值：{'、'.join(schema['enum'])}" if "enum" in schema else ""
            lines.append(f"  - {name}（{'必填' if name in required else '可选'}）：{schema.get('description', '')}{enum}")
    lines.append('需要调用工具时只输出 {"name": "工具名", "arguments": {…}}；不需要工具时直接回答。')
    return "\n".join(lines)


ARGS = (render_tool_prompt,)
FAILS_AT = "的类型"
