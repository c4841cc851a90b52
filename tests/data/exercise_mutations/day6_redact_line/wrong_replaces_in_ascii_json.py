"""Wrong: replaces keys in the whole line dumped as JSON text with the default ensure_ascii=True:
Chinese becomes \\uXXXX, so a key right after a Chinese character follows a hex digit and stays."""

import json
import re

KEY = re.compile(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}")
SUFFIXES = ("key", "token", "secret", "password")


def redact_line(line):
    line = json.loads(KEY.sub("sk-***", json.dumps(line)))

    def clean(value, name=""):
        if isinstance(value, str):
            return "***" if name.lower().endswith(SUFFIXES) else value
        if isinstance(value, dict):
            return {key: clean(item, str(key)) for key, item in value.items()}
        if isinstance(value, list):
            return [clean(item) for item in value]
        return value

    return clean(line)


ARGS = (redact_line,)
FAILS_AT = "中文的字段名和文本"
