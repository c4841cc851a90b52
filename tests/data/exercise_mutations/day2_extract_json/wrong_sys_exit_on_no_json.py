"""Ends the whole program with sys.exit() when there is no JSON, instead of raising ValueError."""

import json
import re
import sys

from handwritten_agent.parsing import extract_json as course_extract


def extract_json(text):
    if not re.search(r"[{｛]", text):
        sys.exit("没有 JSON")
    return course_extract(text)


ARGS = (extract_json,)
FAILS_AT = "sys.exit"
