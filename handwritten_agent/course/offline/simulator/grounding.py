"""Grounding: an id the user did not give, found by looking it up first (query, then act).

A person asks for "B502" or "一间能坐 10 人的会议室"; the booking tool wants ``room_id`` like
``room_301`` (the pattern of its schema's example). A careful assistant does not ask the user for an
internal id it can look up. When a call lacks a required id (a ``pattern`` parameter) the request
does not contain, ``lookup_tool`` picks an offered tool that

- only reads (``actions.is_read_only``) — a lookup never changes anything;
- can be called with what the request says (no required argument missing);
- is about the same thing: words of the id's description ("会议室编号") or name (``room``) appear in
  the lookup tool's name, description or parameters ("查询…空闲的会议室，返回会议室编号…").

The planner calls it first; once its result is back, the id is taken from the object that carries a
display name the user wrote (``display_names``: "B502", "A-12" — letters and digits that match no id
pattern) or, without one, from the first object that satisfies the constraints
(``arguments.carry``). A name the results do not contain is not replaced by another thing: the step
is not taken, and the answer says so.

A Chinese name ("春晖厅") is recognised once a lookup's result shows it belongs to one object (the
planner's ``_result_names``); a bare number ("订 301") names the object whose id or name has that
number.

Left out: lookups that need a value the request does not give, chains of more than one lookup, and a
Chinese name that no result contains (it is not told apart from other words, so it is not refused by
name).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from .actions import is_read_only
from .arguments import Param, classify, params_of, patterns_of
from .text import normalize, split_identifier, stem, tokens

_GENERIC = frozenset(
    {"编号", "号码", "代码", "标识", "唯一", "例如", "id", "code", "number", "identifier"}
)
_NAME_LIKE = re.compile(r"(?<![A-Za-z0-9_@.\-])[A-Za-z]{1,4}-?\d{1,5}[A-Za-z]?(?![A-Za-z0-9_@.])")
# a number people use as a thing's name ("订 301", "302 会议室"): three to five digits that are no
# date, time, amount or count — nothing before that makes it part of a date or a decimal, no unit or
# measure word after it
NUMBER_NAME = re.compile(
    r"(?<![\dA-Za-z_@.:/\-])\d{3,5}(?![\dA-Za-z_@.:/\-]|\s*(?:[年月日号点时分秒个位名人间台张把支件"
    r"份套箱次天周元块万千百岁楼层米%％]|小时|分钟))"
)


def id_params(spec: dict[str, Any]) -> list[Param]:
    return [param for param in params_of(spec) if classify(param) == "pattern"]


def display_names(text: str, specs: Iterable[dict[str, Any]]) -> list[str]:
    """Names in the request that look like a thing's own name ("A302", "B-12", a bare "301") but
    match none of the tools' id patterns; a bare number names the thing whose id or name has it as
    its whole number ("301" → room_301).
    """
    patterns = [
        regex for spec in specs for param in id_params(spec) for regex in patterns_of(param)
    ]
    found = []
    for match in _NAME_LIKE.finditer(normalize(text)):
        name = match.group(0)
        if any(regex.fullmatch(name) for regex in patterns) or re.fullmatch(
            r"(?i)[ap]m\d*|\d+[ap]m", name
        ):
            continue
        found.append(name)
    for match in NUMBER_NAME.finditer(normalize(text)):
        if not any(regex.fullmatch(match.group(0)) for regex in patterns):
            found.append(match.group(0))
    return list(dict.fromkeys(found))


def _topic(param: Param) -> set[str]:
    """What an id is an id of: its description's words and its name's words, without the generic
    ones (编号, id).
    """
    words = {
        tok
        for tok in tokens(param.description)
        if tok not in _GENERIC and not any(ch.isdigit() for ch in tok)
    }
    words |= {stem(w) for w in split_identifier(param.name) if w not in _GENERIC}
    return words


def relevance(params: list[Param], candidate: Any) -> int:
    """How many of the ids' topic words the candidate tool's own text has (``candidate`` is a
    ``ToolProfile``).
    """
    topic = set().union(*(_topic(p) for p in params)) if params else set()
    return len(topic & candidate.text_tokens) + len(topic & candidate.name_tokens)


def lookup_tool(tool: Any, missing: list[Param], candidates: list[Any], fillable) -> Any | None:
    """The read-only tool to call before ``tool`` to find the ``missing`` ids (see the module
    docstring), or None.

    ``candidates`` are ``ToolProfile``s; ``fillable(profile)`` says whether the request gives every
    required argument.
    """
    best: tuple[int, int, Any] | None = None
    for index, candidate in enumerate(candidates):
        if candidate.name == tool.name or not is_read_only(candidate.action):
            continue
        score = relevance(missing, candidate)
        if score <= 0 or not fillable(candidate):
            continue
        if best is None or score > best[0]:
            best = (score, -index, candidate)
    return best[2] if best else None


__all__ = ["NUMBER_NAME", "display_names", "id_params", "lookup_tool", "relevance"]
