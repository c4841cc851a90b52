"""Treats every 11-digit number as a phone number (an employee number 10012345678 gets masked)."""

FAILS_AT = '不是个人信息的数字保持不变'

import re


def mask_personal(text):
    text = re.sub(r"(?<!\d)(\d{17}[\dXx])(?![\dXx])", lambda m: m.group(1)[:3] + "*" * 11 + m.group(1)[-4:], text)
    return re.sub(r"(?<!\d)(\d{11})(?!\d)", lambda m: m.group(1)[:3] + "****" + m.group(1)[-4:], text)


ARGS = (mask_personal,)
