"""Counts braces properly, but falls back to eval() when json.loads fails — the task forbids eval on model output."""

import json


def extract_json(text):
    start = text.find("{")
    if start < 0:
        raise ValueError("没有 JSON")
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                block = text[start:i + 1]
                try:
                    return json.loads(block)
                except json.JSONDecodeError:
                    return eval(block, {"true": True, "false": False, "null": None})
    raise ValueError("JSON 没有结束")


ARGS = (extract_json,)
FAILS_AT = "eval"
