"""Replaces only the first sk- key of a text (re.sub with count=1)."""

FAILS_AT = '一段文本里有两个密钥'

import re


def redact_line(line):
    def clean(value, name=""):
        if isinstance(value, str):
            if name.lower().endswith(("key", "token", "secret", "password")):
                return "***"
            return re.sub(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}", "sk-***", value, count=1)
        if isinstance(value, dict):
            return {k: clean(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value
    return clean(line)


ARGS = (redact_line,)
