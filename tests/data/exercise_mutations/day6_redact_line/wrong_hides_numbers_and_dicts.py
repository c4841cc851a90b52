"""Hides every value of a secret-named field, numbers and whole dicts included."""

FAILS_AT = '数字和以 tokens 结尾的字段不动'

import re


def redact_line(line):
    def clean(value, name=""):
        if name.lower().endswith(("key", "token", "secret", "password")):
            return "***"
        if isinstance(value, str):
            return re.sub(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}", "sk-***", value)
        if isinstance(value, dict):
            return {k: clean(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value
    return clean(line)


ARGS = (redact_line,)
