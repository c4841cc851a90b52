"""Masks phones before IDs with a loose phone pattern: part of an ID number is masked as a phone first."""

FAILS_AT = '身份证号，末位是 X'

import re


def mask_personal(text):
    text = re.sub(r"(1[3-9]\d{9})(?!\d)", lambda m: m.group(1)[:3] + "****" + m.group(1)[-4:], text)
    return re.sub(r"(?<!\d)(\d{17}[\dXx])(?![\dXx])", lambda m: m.group(1)[:3] + "*" * 11 + m.group(1)[-4:], text)


ARGS = (mask_personal,)
