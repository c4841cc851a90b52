"""Correct, another way: functools.singledispatch on the value's type, the secret-name rule applied where a dict hands out its values."""

import copy
import json
import re
from datetime import datetime
from pathlib import Path
from handwritten_agent.course.evaluation import EvalCase, ExpectedCall, OneOf, StateCheck
from handwritten_agent.course.exercises.check.day6 import EVAL_REQUEST

from functools import singledispatch

KEY = re.compile(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}")


@singledispatch
def _clean(value):
    return value


@_clean.register
def _(value: str):
    return KEY.sub("sk-***", value)


@_clean.register
def _(value: list):
    return [_clean(item) for item in value]


@_clean.register
def _(value: dict):
    return {
        name: "***" if isinstance(item, str) and str(name).lower().endswith(("key", "token", "secret", "password")) else _clean(item)
        for name, item in value.items()
    }


def redact_line(line):
    return _clean(line)


ARGS = (redact_line,)
