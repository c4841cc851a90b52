"""Counts every brace, including the ones inside strings (the repair is the course package's, and fine)."""

import json

from handwritten_agent.parsing import repair_json


def extract_json(text):
    start = next((i for i, ch in enumerate(text) if ch in "{｛"), -1)
    if start < 0:
        raise ValueError("没有 JSON")
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "{｛":
            depth += 1
        elif text[i] in "}｝":
            depth -= 1
            if depth == 0:
                block = text[start:i + 1]
                try:
                    return json.loads(block)
                except ValueError:
                    return json.loads(repair_json(block))
    raise ValueError("JSON 没有结束")


ARGS = (extract_json,)
FAILS_AT = "字符串里有不成对的括号"
