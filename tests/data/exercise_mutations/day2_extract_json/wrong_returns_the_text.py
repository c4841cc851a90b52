"""Finds the JSON block but returns its text instead of the parsed dict."""


def extract_json(text):
    start = text.find("{")
    if start < 0:
        raise ValueError("没有 JSON")
    depth = 0
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start:i + 1]
    raise ValueError("没有结束")


ARGS = (extract_json,)
FAILS_AT = "只有 JSON"
