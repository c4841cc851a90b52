"""Calls json.loads on the whole reply: any text or fence around the JSON breaks it."""

import json


def extract_json(text):
    return json.loads(text)


ARGS = (extract_json,)
FAILS_AT = "代码块"
