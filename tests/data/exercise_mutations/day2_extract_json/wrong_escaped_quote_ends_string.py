"""Skips braces inside strings, but every " toggles "inside a string": an escaped \" ends the string early,
so a brace between two escaped quotes ("a \"{\" b") is counted and the object never closes where it should."""

import json

from handwritten_agent.parsing import repair_json


def extract_json(text):
    start = next((i for i, ch in enumerate(text) if ch in "{｛"), -1)
    if start < 0:
        raise ValueError("没有 JSON")
    depth, inside = 0, False
    for i in range(start, len(text)):
        ch = text[i]
        if ch in "\"“”'":
            inside = not inside
        elif inside:
            continue
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
    last = text.rfind("}")
    return json.loads(repair_json(text[start:last + 1]))


ARGS = (extract_json,)
FAILS_AT = "转义的引号中间"
