"""Hides eval() in a helper function it calls: the check follows the helpers written in the same notebook."""

import json


def python_literal(block):
    return eval(block)


def extract_json(text):
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        raise ValueError("没有 JSON")
    block = text[start:end + 1]
    try:
        return json.loads(block)
    except ValueError:
        return python_literal(block)


ARGS = (extract_json,)
FAILS_AT = "eval"
