"""Normalises every string with NFKC first (so a full-width ``ｓｋ－`` key is found too): all other
full-width text in the line — Chinese punctuation, full-width digits — is changed as well, though
the line must stay as it was apart from the secrets."""

import re
import unicodedata

SECRET_SUFFIXES = ("key", "token", "secret", "password")
KEY = re.compile(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}")


def redact_line(line):
    def clean(value, name=""):
        if isinstance(value, str):
            if name.lower().endswith(SECRET_SUFFIXES):
                return "***"
            return KEY.sub("sk-***", unicodedata.normalize("NFKC", value))
        if isinstance(value, dict):
            return {key: clean(item, str(key)) for key, item in value.items()}
        if isinstance(value, list):
            return [clean(item) for item in value]
        return value

    return clean(line)


ARGS = (redact_line,)
