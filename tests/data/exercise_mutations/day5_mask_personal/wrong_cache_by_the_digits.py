"""Memoises the result under the digits of the text ("only the numbers matter"): the same phone
number in another sentence comes back in the sentence it was first seen in."""

import re

_seen = {}


def _mask(text):
    text = re.sub(
        r"(?<!\d)(\d{17}[\dXx])(?![\dXx])",
        lambda m: m.group(1)[:3] + "*" * 11 + m.group(1)[-4:],
        text,
    )
    return re.sub(
        r"(?<!\d)(1[3-9]\d{9})(?!\d)", lambda m: m.group(1)[:3] + "****" + m.group(1)[-4:], text
    )


def mask_personal(text):
    key = "".join(ch for ch in text if ch.isdigit())
    if key not in _seen:
        _seen[key] = _mask(text)
    return _seen[key]


FAILS_AT = "同一个号码放进不同的文字"
ARGS = (mask_personal,)
