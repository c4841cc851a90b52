"""Sorts each enum list in place to print it tidily: the caller's tools change."""

import json
from handwritten_agent.parsing import ParseError, parse_tool_call

def render_tool_prompt(tools: list[dict]) -> str:
    """一段 system 提示词：描述工具（JSON Schema），并要求每次调用只写一个 JSON 对象。"""
    sections = []
    for spec in tools:
        parameters = spec.get("parameters") or {"type": "object", "properties": {}}
        for prop in (parameters.get("properties") or {}).values():
            if isinstance(prop.get("enum"), list):
                prop["enum"].sort(key=str)
        sections.append(f"### {spec['name']}\n"
                        f"用途：{spec.get('description', '')}\n"
                        f"参数（JSON Schema，required 列出必填参数）：\n"
                        f"{json.dumps(parameters, ensure_ascii=False, indent=2)}")
    names = "、".join(spec["name"] for spec in tools)
    return ("你是一个能调用工具的助手。需要实时信息、计算或执行操作时，请调用下面的工具，不要编造结果。\n\n"
            "## 可用工具\n\n" + "\n\n".join(sections) + "\n\n"
            "## 调用格式\n\n"
            "需要调用工具时，整条回复只能是一个 JSON 对象，不要有任何其他文字：\n"
            '{"name": "<工具名>", "arguments": {"<参数名>": <参数值>}}\n'
            f"name 必须是这些工具之一：{names}；arguments 要符合该工具的 JSON Schema，必填参数都要给出。\n"
            "不需要工具时，直接用自然语言回答。")


ARGS = (render_tool_prompt,)
