"""No digit boundaries: masks 11 digits inside a longer number (a serial number) too."""

FAILS_AT = '不是个人信息的数字保持不变'

import re


def mask_personal(text):
    text = re.sub(r"(\d{17}[\dXx])", lambda m: m.group(1)[:3] + "*" * 11 + m.group(1)[-4:], text)
    return re.sub(r"(1[3-9]\d{9})", lambda m: m.group(1)[:3] + "****" + m.group(1)[-4:], text)


ARGS = (mask_personal,)
