"""Correct, as a nested bullet list: the bare tool name, then one fact per item one level down (类型/必填/说明/可选值)."""


def render_tool_prompt(tools):
    lines = ["可用工具："]
    for spec in tools:
        schema = spec.get("parameters") or {}
        required = schema.get("required") or []
        properties = schema.get("properties") or {}
        lines += [f"- {spec['name']}", f"  - 描述：{spec['description']}", "  - 参数：" + ("" if properties else "无")]
        for name, p in properties.items():
            lines += [f"    - {name}", f"      - 类型：{p.get('type', 'string')}", f"      - 必填：{'是' if name in required else '否'}",
                      f"      - 说明：{p.get('description', '')}"]
            if p.get("enum"):
                lines.append(f"      - 可选值：{', '.join(p['enum'])}")
    lines.append('调用工具时只回复一个 JSON 对象：{"name": "工具名", "arguments": {…}}；用不到工具就直接回答。')
    return "\n".join(lines)


ARGS = (render_tool_prompt,)
