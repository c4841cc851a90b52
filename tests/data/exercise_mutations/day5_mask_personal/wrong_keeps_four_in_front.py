"""Keeps the first 4 digits of a phone number (1381****5678 style), not the first 3."""

FAILS_AT = '手机号'

import re


def mask_personal(text):
    text = re.sub(r"(?<!\d)(\d{17}[\dXx])(?![\dXx])", lambda m: m.group(1)[:3] + "*" * 11 + m.group(1)[-4:], text)
    return re.sub(r"(?<!\d)(1[3-9]\d{9})(?!\d)", lambda m: m.group(1)[:4] + "***" + m.group(1)[-4:], text)


ARGS = (mask_personal,)
