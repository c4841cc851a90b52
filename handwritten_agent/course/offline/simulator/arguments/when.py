"""Dates and times for one parameter: the strftime format its description or examples ask for.

The dates themselves are read in ``..dates``; this module only decides how a parameter wants them.

Left out: time zones and locale-specific formats.
"""

from __future__ import annotations

import re

from ..text import normalize
from .params import Param, examples_of


def date_format(param: Param) -> str:
    """The strftime format the parameter asks for."""
    source = normalize(param.description) + " " + " ".join(examples_of(param))
    match = re.search(r"YYYY([-/.年]?)MM([-/.月]?)DD(日?)(?:([ T])HH(:?)mm(:ss)?)?", source, re.I)
    if match:
        fmt = f"%Y{match[1]}%m{match[2]}%d{match[3]}"
        if match[4]:
            fmt += f"{match[4]}%H{match[5]}%M" + (f"{match[5]}%S" if match[6] else "")
        return fmt
    example = next(
        (
            e
            for e in examples_of(param)
            if re.fullmatch(r"\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?", e)
        ),
        None,
    )
    if example:
        fmt = "%Y-%m-%d"
        if len(example) > 10:
            fmt += example[10] + ("%H:%M:%S" if example.count(":") == 2 else "%H:%M")
        return fmt
    if re.search(r"\bHH:mm\b|\bHH:MM\b", source) or param.schema.get("format") == "time":
        return "%H:%M"
    if param.schema.get("format") == "date-time":
        return "%Y-%m-%dT%H:%M:%S"
    return "%Y-%m-%d"
