"""Counts the 16 characters with "sk-" in them ({13,} after sk-): a 15-character tail is hidden although it is not a key."""

import re

KEY = re.compile(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{13,}")


def redact_line(line):
    def clean(value, name=""):
        if isinstance(value, str):
            return "***" if name.lower().endswith(("key", "token", "secret", "password")) else KEY.sub("sk-***", value)
        if isinstance(value, dict):
            return {k: clean(v, str(k)) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value

    return clean(line)


ARGS = (redact_line,)
FAILS_AT = "正好 16 个字符"
