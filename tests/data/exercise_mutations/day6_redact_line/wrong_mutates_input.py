"""Right rules, but writes the redacted values back into the dict it was given."""

FAILS_AT = '字段名是 api_key'

import re


def redact_line(line):
    for key, value in line.items():
        if isinstance(value, str):
            line[key] = "***" if key.lower().endswith(("key", "token", "secret", "password")) else \
                re.sub(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}", "sk-***", value)
        elif isinstance(value, dict):
            line[key] = redact_line(value)
        elif isinstance(value, list):
            line[key] = [redact_line(v) if isinstance(v, dict) else
                         re.sub(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}", "sk-***", v) if isinstance(v, str) else v for v in value]
    return line


ARGS = (redact_line,)
