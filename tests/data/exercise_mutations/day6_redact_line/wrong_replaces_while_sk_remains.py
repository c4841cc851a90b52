"""Replaces keys one at a time while 'sk-' is still in the text: the replacement sk-*** itself contains sk-, so the loop never ends."""

import copy
import json
import re
from datetime import datetime
from pathlib import Path
from handwritten_agent.course.evaluation import EvalCase, ExpectedCall, OneOf, StateCheck
from handwritten_agent.course.exercises.check.day6 import EVAL_REQUEST

FAILS_AT = "秒内没有结束"


SECRET_SUFFIXES = ("key", "token", "secret", "password")


def redact_line(line: dict) -> dict:
    """一行 trace 的脱敏副本：名字像密钥的字符串字段和文本里的 sk- 密钥都变成 ***。"""
    key_pattern = re.compile(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}")

    def clean(value, name=""):
        if isinstance(value, str):
            if name.lower().endswith(SECRET_SUFFIXES):
                return "***"
            while "sk-" in value:
                value = key_pattern.sub("sk-***", value, count=1)
            return value
        if isinstance(value, dict):
            return {key: clean(item, str(key)) for key, item in value.items()}
        if isinstance(value, list):
            return [clean(item) for item in value]
        return value

    return clean(line)


ARGS = (redact_line,)
