"""Wrong: keeps the last redacted line in a module global and returns it when the new line has the
same field names — another line's data leaks into this one."""

import re

KEY = re.compile(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}")
SUFFIXES = ("key", "token", "secret", "password")
_last = {}


def redact_line(line):
    names = tuple(sorted(map(str, line)))
    if _last.get("names") == names:
        return _last["line"]

    def clean(value, name=""):
        if isinstance(value, str):
            return "***" if name.lower().endswith(SUFFIXES) else KEY.sub("sk-***", value)
        if isinstance(value, dict):
            return {key: clean(item, str(key)) for key, item in value.items()}
        if isinstance(value, list):
            return [clean(item) for item in value]
        return value

    result = clean(line)
    _last.update(names=names, line=result)
    return result


ARGS = (redact_line,)
