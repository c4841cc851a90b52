"""Writes every tool name in lower case "to keep the prompt tidy": lookupHRPolicy becomes
lookuphrpolicy, a name no tool has."""

import json


def _render(tools):
    sections = []
    for spec in tools:
        parameters = spec.get("parameters") or {"type": "object", "properties": {}}
        sections.append(
            f"### {spec['name'].lower()}\n用途：{spec.get('description', '')}\n"
            f"参数（JSON Schema，required 列出必填参数）：\n"
            f"{json.dumps(parameters, ensure_ascii=False, indent=2)}"
        )
    return (
        "你是一个能调用工具的助手。\n\n## 可用工具\n\n" + "\n\n".join(sections) + "\n\n## 调用格式\n\n"
        "需要调用工具时，整条回复只能是一个 JSON 对象，不要有任何其他文字：\n"
        '{"name": "<工具名>", "arguments": {"<参数名>": <参数值>}}\n'
        "不需要工具时，直接用自然语言回答。"
    )


def render_tool_prompt(tools):
    return _render(tools)


FAILS_AT = "名字相近的三个工具"
ARGS = (render_tool_prompt,)
