"""Compares field names without lower-casing them: LLM_API_KEY and DB_PASSWORD stay in clear."""

FAILS_AT = '字段名大小写不同、以 TOKEN/Secret/Password 结尾'

import re


def redact_line(line):
    def clean(value, name=""):
        if isinstance(value, str):
            if name.endswith(("key", "token", "secret", "password")):
                return "***"
            return re.sub(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}", "sk-***", value)
        if isinstance(value, dict):
            return {k: clean(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value
    return clean(line)


ARGS = (redact_line,)
