"""Correct, another way: a deep copy via JSON, then an explicit stack instead of recursion."""

import json
import re

KEY = re.compile(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}")


def redact_line(line):
    copy = json.loads(json.dumps(line))
    stack = [copy]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in list(items):
            if isinstance(value, str):
                secret = isinstance(key, str) and key.lower().endswith(("key", "token", "secret", "password"))
                node[key] = "***" if secret else KEY.sub("sk-***", value)
            elif isinstance(value, (dict, list)):
                stack.append(value)
    return copy


ARGS = (redact_line,)
