"""Finds sk- keys without checking what comes before, so 'task-…' is cut in the middle of a word."""

FAILS_AT = '太短的 sk- 和单词中间的 sk- 不是密钥'

import re


def redact_line(line):
    def clean(value, name=""):
        if isinstance(value, str):
            if name.lower().endswith(("key", "token", "secret", "password")):
                return "***"
            return re.sub(r"sk-[A-Za-z0-9_-]{16,}", "sk-***", value)
        if isinstance(value, dict):
            return {k: clean(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value
    return clean(line)


ARGS = (redact_line,)
