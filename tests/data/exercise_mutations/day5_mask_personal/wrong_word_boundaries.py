"""Uses \\b for the number's edges: between a digit and a Chinese character there is no \\b (both are word characters
in Python 3), so a number written right next to Chinese text is left in clear."""

import re


def mask_personal(text):
    text = re.sub(r"\b(\d{17}[\dXx])\b", lambda m: m.group(1)[:3] + "*" * 11 + m.group(1)[-4:], text)
    return re.sub(r"\b(1[3-9]\d{9})\b", lambda m: m.group(1)[:3] + "****" + m.group(1)[-4:], text)


ARGS = (mask_personal,)
FAILS_AT = "紧挨着汉字"
