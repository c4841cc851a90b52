"""Roles of paired parameters: which one takes the first value and which the second.

Left out: roles other than from/to and start/end.
"""

from __future__ import annotations

import re

from .params import Param


def role_of(param: Param) -> int:
    """0 for a start/from/source value, 1 for an end/to/target value, -1 when neither."""
    words = param.words
    if re.search(r"\b(?:end|to|until|target|dest\w*|quote)\b|结束|截止|目标|到|兑换成|换成", words):
        return 1
    if re.search(r"\b(?:start|begin\w*|from|source|base)\b|开始|起始|源|原", words):
        return 0
    return -1
