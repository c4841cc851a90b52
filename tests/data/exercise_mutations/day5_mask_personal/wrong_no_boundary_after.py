"""Checks that no digit comes before a phone number, but not that none comes after: the first 11 digits of a longer
number starting 13x are masked as if they were a phone number."""

import re


def mask_personal(text):
    text = re.sub(r"(?<!\d)(\d{17}[\dXx])(?![\dXx])", lambda m: m.group(1)[:3] + "*" * 11 + m.group(1)[-4:], text)
    return re.sub(r"(?<!\d)(1[3-9]\d{9})", lambda m: m.group(1)[:3] + "****" + m.group(1)[-4:], text)


ARGS = (mask_personal,)
FAILS_AT = "比 11 位更长"
