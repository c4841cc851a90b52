"""Correct, in another style: one pass from the first brace that rewrites to strict JSON while it counts depth."""

import json

OPEN_QUOTES = {'"': '"', "'": "'", "“": "”", "”": "”", "‘": "’"}
WIDE = {"｛": "{", "｝": "}", "［": "[", "］": "]", "：": ":", "，": ","}


def extract_json(text):
    start = next((i for i, ch in enumerate(text) if ch in "{｛"), -1)
    if start == -1:
        raise ValueError("这段回复里找不到 JSON 对象")
    out = []
    depth = 0
    closing = None
    i = start
    while i < len(text):
        ch = text[i]
        if closing is not None:  # inside a string: copy, escape what JSON needs, watch for the end
            if ch == "\\" and i + 1 < len(text):
                out.append(text[i:i + 2])
                i += 2
                continue
            if ch == closing:
                out.append('"')
                closing = None
            elif ch == '"':
                out.append('\\"')
            else:
                out.append(ch)
        else:
            ch = WIDE.get(ch, ch)
            if ch in OPEN_QUOTES:
                out.append('"')
                closing = OPEN_QUOTES[ch]
            elif ch in "}]":
                while out and out[-1].isspace():
                    out.pop()
                if out and out[-1] == ",":
                    out.pop()  # a trailing comma
                out.append(ch)
                if ch == "}":
                    depth -= 1
                    if depth == 0:
                        break
            else:
                if ch == "{":
                    depth += 1
                out.append(ch)
        i += 1
    else:
        raise ValueError("JSON 对象没有闭合，回复可能被截断了")
    value = json.loads("".join(out))
    if not isinstance(value, dict):
        raise ValueError("不是 JSON 对象")
    return value


ARGS = (extract_json,)
