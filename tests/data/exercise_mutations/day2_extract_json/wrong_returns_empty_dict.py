"""Finds and repairs properly, but returns {} instead of raising ValueError when there is no JSON."""

import json

from handwritten_agent.parsing import repair_json

QUOTES = {'"': '"', "'": "'", "“": "”"}


def extract_json(text):
    start = next((i for i, ch in enumerate(text) if ch in "{｛"), -1)
    if start < 0:
        return {}
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
                    try:
                        return json.loads(repair_json(block))
                    except ValueError:
                        return {}
        i += 1
    return {}


ARGS = (extract_json,)
FAILS_AT = "没有 JSON"
