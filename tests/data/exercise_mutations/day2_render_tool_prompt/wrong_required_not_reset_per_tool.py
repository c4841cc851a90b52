"""Marks parameters as required from a set that is never reset between tools: a later tool's
optional parameter that shares a name with an earlier tool's required one is shown as required
(a loop variable that leaks from one item to the next)."""

import json


def render_tool_prompt(tools):
    required = set()
    sections = []
    for spec in tools:
        parameters = spec.get("parameters") or {"type": "object", "properties": {}}
        required.update(parameters.get("required", []))
        lines = [f"### {spec['name']}", f"用途：{spec.get('description', '')}", "参数："]
        for name, schema in parameters.get("properties", {}).items():
            mark = "必填" if name in required else "可选"
            extra = json.dumps({k: v for k, v in schema.items() if k != "description"}, ensure_ascii=False)
            lines.append(f"- {name}（{mark}）：{schema.get('description', '')} {extra}")
        if not parameters.get("properties"):
            lines.append("- 无参数")
        sections.append("\n".join(lines))
    names = "、".join(spec["name"] for spec in tools)
    return ("你是一个能调用工具的助手。需要实时信息、计算或执行操作时，请调用下面的工具，不要编造结果。\n\n"
            "## 可用工具\n\n" + "\n\n".join(sections) + "\n\n"
            "## 调用格式\n\n"
            "需要调用工具时，整条回复只能是一个 JSON 对象，不要有任何其他文字：\n"
            '{"name": "<工具名>", "arguments": {"<参数名>": <参数值>}}\n'
            f"name 必须是这些工具之一：{names}；必填参数都要给出。\n"
            "不需要工具时，直接用自然语言回答。")


ARGS = (render_tool_prompt,)
