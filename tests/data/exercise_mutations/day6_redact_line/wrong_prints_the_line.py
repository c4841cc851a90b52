"""Redacts correctly, but prints each line before redacting it (a debugging line left in): the keys
it was meant to hide are in the notebook's output."""

FAILS_AT = "秘密"

import re

SECRET_SUFFIXES = ("key", "token", "secret", "password")
KEY = re.compile(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}")


def redact_line(line):
    print("原始行：", line)

    def clean(value, name=""):
        if isinstance(value, str):
            if name.lower().endswith(SECRET_SUFFIXES):
                return "***"
            return KEY.sub("sk-***", value)
        if isinstance(value, dict):
            return {key: clean(item, str(key)) for key, item in value.items()}
        if isinstance(value, list):
            return [clean(item) for item in value]
        return value

    return clean(line)


ARGS = (redact_line,)
