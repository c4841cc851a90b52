"""ID numbers made only of digits: an ID ending in X is not recognised."""

FAILS_AT = '身份证号，末位是 X'

import re


def mask_personal(text):
    text = re.sub(r"(?<!\d)(\d{18})(?!\d)", lambda m: m.group(1)[:3] + "*" * 11 + m.group(1)[-4:], text)
    return re.sub(r"(?<!\d)(1[3-9]\d{9})(?!\d)", lambda m: m.group(1)[:3] + "****" + m.group(1)[-4:], text)


ARGS = (mask_personal,)
