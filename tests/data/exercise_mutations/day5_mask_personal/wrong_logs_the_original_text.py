"""Masks correctly, but prints the original text first (a debugging line left in): the phone
numbers and ID numbers it was meant to hide are in the notebook's output."""

FAILS_AT = "秘密"

import re


def mask_personal(text):
    print("脱敏前：", text)
    text = re.sub(r"(?<!\d)(\d{17}[\dXx])(?![\dXx])", lambda m: m.group(1)[:3] + "*" * 11 + m.group(1)[-4:], text)
    return re.sub(r"(?<!\d)(1[3-9]\d{9})(?!\d)", lambda m: m.group(1)[:3] + "****" + m.group(1)[-4:], text)


ARGS = (mask_personal,)
