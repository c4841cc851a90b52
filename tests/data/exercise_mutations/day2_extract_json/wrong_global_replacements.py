"""Finds the object properly, but repairs it with replacements over the whole block, which also change text inside strings."""

import json
import re


def extract_json(text):
    start = min((i for i in (text.find("{"), text.find("｛")) if i >= 0), default=-1)
    if start < 0:
        raise ValueError("no JSON")
    depth, quote, i = 0, None, start
    block = None
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "\"'“”":
            quote = "”" if ch in "“”" else ch
        elif ch in "{｛":
            depth += 1
        elif ch in "}｝":
            depth -= 1
            if depth == 0:
                block = text[start:i + 1]
                break
        i += 1
    if block is None:
        raise ValueError("not closed")
    try:
        return json.loads(block)
    except ValueError:
        pass
    for wide, narrow in {"｛": "{", "｝": "}", "：": ":", "，": ",", "“": '"', "”": '"', "'": '"'}.items():
        block = block.replace(wide, narrow)
    return json.loads(re.sub(r",\s*([}\]])", r"\1", block))


ARGS = (extract_json,)
FAILS_AT = "字符串里的 ,} 是内容"
