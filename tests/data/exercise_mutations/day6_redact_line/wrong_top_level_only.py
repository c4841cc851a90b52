"""Only looks at the top level of the line: nested messages and headers keep their secrets."""

FAILS_AT = '嵌套在 dict 和 list 里的字段'

import re


def redact_line(line):
    out = {}
    for key, value in line.items():
        if isinstance(value, str):
            if key.lower().endswith(("key", "token", "secret", "password")):
                out[key] = "***"
            else:
                out[key] = re.sub(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}", "sk-***", value)
        else:
            out[key] = value
    return out


ARGS = (redact_line,)
