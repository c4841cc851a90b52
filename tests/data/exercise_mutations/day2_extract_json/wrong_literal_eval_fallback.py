"""Repairs nothing and falls back to ast.literal_eval: single quotes and trailing commas work, full-width marks and true/false/null do not."""

import ast
import json


def extract_json(text):
    start = text.find("{")
    if start < 0:
        raise ValueError("没有 JSON")
    depth, quote, escaped = 0, None, False
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                block = text[start:i + 1]
                try:
                    return json.loads(block)
                except ValueError:
                    return ast.literal_eval(block)
    raise ValueError("JSON 没有结束")


ARGS = (extract_json,)
FAILS_AT = "全角标点和引号"
