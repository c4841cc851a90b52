"""Joins the names with "" — "get_stock_pricetranslate_text…" — and describes the tools after that."""

import json


def render_tool_prompt(tools):
    names = "".join(spec["name"] for spec in tools)
    details = "\n".join(f"{spec['description']} 参数：{json.dumps(spec['parameters'], ensure_ascii=False)}" for spec in tools)
    return (f"工具：{names}\n{details}\n"
            '需要调用工具时只输出 {"name": "工具名", "arguments": {…}}；不需要工具时直接回答。')


ARGS = (render_tool_prompt,)
FAILS_AT = "写出工具"
