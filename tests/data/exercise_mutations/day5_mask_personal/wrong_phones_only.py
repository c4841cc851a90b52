"""Masks phone numbers only and forgets ID numbers."""

FAILS_AT = '身份证号，末位是数字'

import re


def mask_personal(text):
    return re.sub(r"(?<!\d)(1[3-9]\d{9})(?!\d)", lambda m: m.group(1)[:3] + "****" + m.group(1)[-4:], text)


ARGS = (mask_personal,)
