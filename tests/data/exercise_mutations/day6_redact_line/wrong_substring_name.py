"""Looks for 'token' anywhere in the field name, so input_tokens and tokens are hidden too."""

FAILS_AT = '数字和以 tokens 结尾的字段不动'

import re


def redact_line(line):
    def clean(value, name=""):
        if isinstance(value, str):
            if any(word in name.lower() for word in ("key", "token", "secret", "password")):
                return "***"
            return re.sub(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}", "sk-***", value)
        if isinstance(value, dict):
            return {k: clean(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value
    return clean(line)


ARGS = (redact_line,)
