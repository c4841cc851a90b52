"""Matches the key pattern with re.IGNORECASE: 'SK-' and 'Sk-' words (a product code) are masked too, though the rule is the lower-case prefix sk-."""

import copy
import json
import re
from datetime import datetime
from pathlib import Path
from handwritten_agent.course.evaluation import EvalCase, ExpectedCall, OneOf, StateCheck
from handwritten_agent.course.exercises.check.day6 import EVAL_REQUEST

SECRET_SUFFIXES = ("key", "token", "secret", "password")


def redact_line(line: dict) -> dict:
    """一行 trace 的脱敏副本：名字像密钥的字符串字段和文本里的 sk- 密钥都变成 ***。"""
    key_pattern = re.compile(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}", re.IGNORECASE)

    def clean(value, name=""):
        if isinstance(value, str):
            if name.lower().endswith(SECRET_SUFFIXES):
                return "***"
            return key_pattern.sub("sk-***", value)
        if isinstance(value, dict):
            return {key: clean(item, str(key)) for key, item in value.items()}
        if isinstance(value, list):
            return [clean(item) for item in value]
        return value

    return clean(line)


ARGS = (redact_line,)
