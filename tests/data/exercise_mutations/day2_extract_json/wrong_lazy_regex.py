"""Uses a non-greedy regex, which stops at the first } and cuts nested objects in half."""

import json
import re


def extract_json(text):
    match = re.search(r"\{.*?\}", text, re.DOTALL)
    if not match:
        raise ValueError("回复里没有 JSON")
    return json.loads(match.group())


ARGS = (extract_json,)
FAILS_AT = "只有 JSON"
