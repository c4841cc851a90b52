"""Takes everything from the first { to the last } with a greedy regex."""

import json
import re


def extract_json(text):
    match = re.search(r"\{.*\}", text, re.DOTALL)
    if not match:
        raise ValueError("回复里没有 JSON")
    return json.loads(match.group())


ARGS = (extract_json,)
FAILS_AT = "后面还有别的花括号"
