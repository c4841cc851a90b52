"""Handles every messy case, but signals "no JSON" with LookupError instead of ValueError."""

import json

from handwritten_agent.parsing import repair_json

QUOTES = {'"': '"', "'": "'", "“": "”"}


def extract_json(text):
    start = next((i for i, ch in enumerate(text) if ch in "{｛"), None)
    if start is None:
        raise LookupError("没有 JSON")
    depth, closing, i = 0, None, start
    while i < len(text):
        ch = text[i]
        if closing:
            if ch == "\\":
                i += 1
            elif ch == closing:
                closing = None
        elif ch in QUOTES:
            closing = QUOTES[ch]
        elif ch in "{｛":
            depth += 1
        elif ch in "}｝":
            depth -= 1
            if depth == 0:
                block = text[start:i + 1]
                try:
                    return json.loads(block)
                except ValueError:
                    return json.loads(repair_json(block))
        i += 1
    raise LookupError("JSON 没有结束")


ARGS = (extract_json,)
FAILS_AT = "没有 JSON"
