"""Correct, another style: one pattern for both kinds (an 18-character ID or an 11-digit mobile
number, longest first), the replacement chosen by the length of the match."""

import re

PATTERN = re.compile(r"(?<![\dXx])(?:\d{17}[\dXx](?![\dXx])|1[3-9]\d{9}(?!\d))")


def mask_personal(text):
    def hide(match):
        found = match.group()
        return found[:3] + "*" * (len(found) - 7) + found[-4:]

    return PATTERN.sub(hide, text)


ARGS = (mask_personal,)
