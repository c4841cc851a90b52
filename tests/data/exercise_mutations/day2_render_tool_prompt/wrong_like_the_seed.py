"""Names, descriptions and typed parameter lines, as the seed article writes them — but no enum values and no required marks."""


def render_tool_prompt(tools):
    lines = ["你是一个智能助手，可以调用下面的工具："]
    for spec in tools:
        lines += [f"工具名称：{spec['name']}", f"描述：{spec['description']}", "参数说明："]
        for name, schema in spec["parameters"]["properties"].items():
            lines.append(f"  - {name} ({schema['type']}): {schema.get('description', '')}")
    lines.append('需要调用工具时只输出 JSON：{"name": "工具名", "arguments": {...}}；不需要工具时直接用文字回答。')
    return "\n".join(lines)


ARGS = (render_tool_prompt,)
FAILS_AT = "可选值"
