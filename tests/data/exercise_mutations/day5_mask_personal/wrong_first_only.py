"""Masks only the first match of each kind (count=1)."""

FAILS_AT = '开头和结尾、挨在一起的两个号码'

import re


def mask_personal(text):
    text = re.sub(r"(?<!\d)(\d{17}[\dXx])(?![\dXx])", lambda m: m.group(1)[:3] + "*" * 11 + m.group(1)[-4:], text, count=1)
    return re.sub(r"(?<!\d)(1[3-9]\d{9})(?!\d)", lambda m: m.group(1)[:3] + "****" + m.group(1)[-4:], text, count=1)


ARGS = (mask_personal,)
