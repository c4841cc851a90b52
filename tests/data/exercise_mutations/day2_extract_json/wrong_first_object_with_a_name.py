"""Returns the first object that has a "name" key (it looks like a tool call) and falls back to the
first object only when none has one: the task asks for the first JSON object, whatever its keys."""

import json

OPEN_QUOTES = {'"': '"', "'": "'", "“": "”", "”": "”", "‘": "’"}
WIDE = {"｛": "{", "｝": "}", "［": "[", "］": "]", "：": ":", "，": ","}


def _first_object(text):
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


def extract_json(text):
    first = None
    for i, ch in enumerate(text):
        if ch not in "{｛":
            continue
        try:
            value = _first_object(text[i:])
        except ValueError:
            continue
        if "name" in value:
            return value  # the tool call is the one we want
        if first is None:
            first = value
    if first is None:
        raise ValueError("这段回复里找不到 JSON 对象")
    return first


FAILS_AT = "第一个对象里没有 name"
ARGS = (extract_json,)
