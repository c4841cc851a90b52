"""Prints the masked text instead of returning it."""

FAILS_AT = '手机号'

import re


def mask_personal(text):
    print(re.sub(r"(?<!\d)(1[3-9]\d{9})(?!\d)", lambda m: m.group(1)[:3] + "****" + m.group(1)[-4:], text))


ARGS = (mask_personal,)
