"""Correct, another style: one recursive function with a ``match`` statement on the value's type."""

import re

KEY = re.compile(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}")
ENDINGS = ("key", "token", "secret", "password")


def _redact(value, field=""):
    match value:
        case str() if field.lower().endswith(ENDINGS):
            return "***"
        case str():
            return KEY.sub("sk-***", value)
        case dict():
            return {name: _redact(item, str(name)) for name, item in value.items()}
        case list():
            return [_redact(item) for item in value]
        case _:
            return value


def redact_line(line):
    return _redact(line)


ARGS = (redact_line,)
