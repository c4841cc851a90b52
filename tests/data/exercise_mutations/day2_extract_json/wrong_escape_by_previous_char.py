"""Decides whether a quote is escaped by looking only at the character before it: "C:\\temp\\" never ends."""

import json
import re


def extract_json(text):
    text = re.sub(r"```(?:json)?", "", text)
    start = text.find("{")
    if start < 0:
        raise ValueError("没有 JSON")
    depth, in_string = 0, False
    for i in range(start, len(text)):
        ch = text[i]
        if ch == '"' and text[i - 1] != "\\":
            in_string = not in_string
        elif not in_string and ch == "{":
            depth += 1
        elif not in_string and ch == "}":
            depth -= 1
            if depth == 0:
                block = re.sub(r",\s*([}\]])", r"\1", text[start:i + 1])
                return json.loads(block)
    raise ValueError("JSON 没有结束")


ARGS = (extract_json,)
FAILS_AT = "转义的反斜杠"
