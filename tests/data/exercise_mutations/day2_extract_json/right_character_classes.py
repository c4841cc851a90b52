"""Correct, another style: one scanner reads the text as a sequence of tokens (strings in any quote,
punctuation, the rest) with a regular expression; the first object is cut out by depth, then repaired
token by token (strings re-quoted, full-width punctuation made ASCII, trailing commas dropped)."""

import json
import re

TOKEN = re.compile(
    r'"(?:\\.|[^"\\])*"?'
    r"|'(?:\\.|[^'\\])*'?"
    r"|[“”](?:\\.|[^”\\])*”?"
    r"|[{}｛｝\[\]［］:：,，]"
    r"|[^\"'“”{}｛｝\[\]［］:：,，]+",
    re.S,
)
WIDE = {"｛": "{", "｝": "}", "［": "[", "］": "]", "：": ":", "，": ","}


def _tokens(text):
    return TOKEN.findall(text)


def _first_object(tokens):
    start = next((i for i, t in enumerate(tokens) if t in ("{", "｛")), None)
    if start is None:
        raise ValueError("回复里没有 JSON 对象")
    depth = 0
    for i in range(start, len(tokens)):
        if tokens[i] in ("{", "｛"):
            depth += 1
        elif tokens[i] in ("}", "｝"):
            depth -= 1
            if depth == 0:
                return tokens[start : i + 1]
    raise ValueError("JSON 对象没有结束")


def _requote(token):
    inner = token[1:-1]
    if token[0] == '"':
        return token
    out, i = [], 0
    while i < len(inner):
        if inner[i] == "\\" and i + 1 < len(inner):
            out.append(inner[i : i + 2])
            i += 2
            continue
        out.append('\\"' if inner[i] == '"' else inner[i])
        i += 1
    return '"' + "".join(out) + '"'


def extract_json(text):
    tokens = _first_object(_tokens(text))
    try:
        value = json.loads("".join(tokens))
    except json.JSONDecodeError:
        fixed = [_requote(t) if t[:1] in "'“”\"" else WIDE.get(t, t) for t in tokens]
        kept = [t for i, t in enumerate(fixed)
                if not (t == "," and next((u for u in fixed[i + 1 :] if u.strip()), "") in ("}", "]"))]
        value = json.loads("".join(kept))
    if not isinstance(value, dict):
        raise ValueError("不是 JSON 对象")
    return value


ARGS = (extract_json,)
