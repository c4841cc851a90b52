"""A scan whose index never advances past a character that is not a brace: the loop never ends (a hang)."""

import json


def extract_json(text):
    start = 0
    while start < len(text):
        if text[start] == "{":
            end = text.rfind("}")
            return json.loads(text[start:end + 1])
        # forgot start += 1: loops forever on the first character that is not "{"
    raise ValueError("没有 JSON")


ARGS = (extract_json,)
FAILS_AT = "秒内没有结束"
