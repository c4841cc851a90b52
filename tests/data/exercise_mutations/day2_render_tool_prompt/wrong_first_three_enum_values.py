"""Keeps only the first three enum values of each parameter to keep the prompt short: the task says
all of them, and the model never learns that 加班 or 出差 exist."""

import copy
import json


def render_tool_prompt(tools):
    sections = []
    for spec in tools:
        parameters = copy.deepcopy(spec.get("parameters") or {"type": "object", "properties": {}})
        for schema in parameters.get("properties", {}).values():
            if len(schema.get("enum", [])) > 3:
                schema["enum"] = schema["enum"][:3]
        sections.append(
            f"### {spec['name']}\n用途：{spec.get('description', '')}\n"
            f"参数（JSON Schema，required 列出必填参数）：\n"
            f"{json.dumps(parameters, ensure_ascii=False, indent=2)}"
        )
    return (
        "你是一个能调用工具的助手。\n\n## 可用工具\n\n" + "\n\n".join(sections) + "\n\n## 调用格式\n\n"
        "需要调用工具时，整条回复只能是一个 JSON 对象，不要有任何其他文字：\n"
        '{"name": "<工具名>", "arguments": {"<参数名>": <参数值>}}\n'
        "不需要工具时，直接用自然语言回答。"
    )


FAILS_AT = "名字相近的三个工具"
ARGS = (render_tool_prompt,)
