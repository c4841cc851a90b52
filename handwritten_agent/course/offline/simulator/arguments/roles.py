"""Paired parameters: two arguments drawn from the same kind of value, told apart by role.

``from_currency``/``to_currency``, ``source_lang``/``target_lang``, ``origin``/``destination``: the
parameters share one list of values, and the request names the values in some order with words
that give each its role. A parameter's role comes from its name and description (``role_of``: from,
source, base, start → 0; to, target, destination, end → 1). A mention's role comes from the words
around it (``mention_role``):

- before it: 从/把/由/将/from → source; 换成/兑换成/转成/翻译成/到/至/兑/对/to/into/in/for → target;
- after it: 换/兑/转/翻译/到/对/to/into → source ("美元兑人民币", "USD to CNY");
- no such word: the order of mention, first to the source.

``assign_roles`` gives each parameter one value and never the same value to two of them, unless the
request itself names that value twice ("USD to USD").

Left out: roles beyond source/target, and more than two parameters of one kind with roles.
"""

from __future__ import annotations

import re
from typing import Any

from .params import Param

Span = tuple[int, int]

SOURCE, TARGET, NEITHER = 0, 1, -1

_AMOUNT = r"(?:[-+]?\d[\d,]*(?:\.\d+)?\s*(?:万|千|百|亿)?\s*(?:个|块)?\s*)?"
_SOURCE_BEFORE = re.compile(
    r"(?:从|把|由|将|拿|用|以|\bfrom|\bconvert(?:ing)?|\bchange|\bexchange|\bswap|\btranslate)\s*"
    + _AMOUNT
    + r"$",
    re.I,
)
_TARGET_BEFORE = re.compile(
    r"(?:换成|换为|换到|兑换成|兑换为|兑换|兑成|兑|换算成|换算为|折合成|折合|折算成|转换成|转换为|"
    r"转换到|转成|转为|"
    r"翻译成|翻译为|翻成|译成|译为|改成|改为|变成|成|到|至|去|往|飞|对|给|→|->|=>|"
    r"\bto|\binto|\bin|\bfor)\s*" + _AMOUNT + r"$",
    re.I,
)
_SOURCE_AFTER = re.compile(
    r"^\s*(?:换|兑|转|翻译|译|到|至|飞|对|→|->|=>|/|\bto\b|\binto\b|\bagainst\b)", re.I
)


_NAME_SOURCE = {
    "from",
    "source",
    "src",
    "base",
    "origin",
    "original",
    "start",
    "begin",
    "departure",
    "depart",
    "input",
    "sell",
}
_NAME_TARGET = {
    "to",
    "target",
    "tgt",
    "dest",
    "destination",
    "end",
    "until",
    "quote",
    "arrival",
    "arrive",
    "output",
    "into",
    "buy",
}
_PHRASE_SOURCE = re.compile(
    r"convert(?:ed)?\s+from|\bfrom"
    r" which\b|\bsource\b|\boriginal\b|\bbase\b|换出|兑出|原始|原来|源|起始|开始|出发"
)
_PHRASE_TARGET = re.compile(
    r"convert(?:ed)?\s+(?:to|into)\b|\btarget\b|\bdestination\b|换成|换为|兑换成|转换成|转成|译成|"
    r"目标|目的|结束|截止|到达"
)


def role_of(param: Param) -> int:
    """``SOURCE`` (0) for a start/from/source value, ``TARGET`` (1) for an end/to/target value,
    ``NEITHER`` (-1).

    The parameter's name decides first (``from_currency``, ``target_lang``), then phrases of its
    description ("the currency to convert from", "要换成的货币"), then a bare from/to in it.
    """
    name_words = set(
        re.findall(
            r"[a-z]+",
            " ".join(re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", param.name).lower().split("_")),
        )
    )
    if name_words & _NAME_SOURCE and not name_words & _NAME_TARGET:
        return SOURCE
    if name_words & _NAME_TARGET and not name_words & _NAME_SOURCE:
        return TARGET
    description = param.description.lower()
    source, target = _PHRASE_SOURCE.search(description), _PHRASE_TARGET.search(description)
    if source and not target:
        return SOURCE
    if target and not source:
        return TARGET
    if source and target:
        return (
            SOURCE if source.start() > target.start() else TARGET
        )  # "to convert from": the last phrase says it
    if re.search(r"\bfrom\b|从", description):
        return SOURCE
    if re.search(r"\b(?:to|into|until)\b|到", description):
        return TARGET
    return NEITHER


def mention_role(text: str, span: Span) -> int:
    """The role the words around one mention give it (see the module docstring)."""
    start, stop = span
    before = text[max(0, start - 14) : start]
    after = text[stop : stop + 8]
    if _TARGET_BEFORE.search(before):
        return TARGET
    if _SOURCE_BEFORE.search(before) or _SOURCE_AFTER.search(after):
        return SOURCE
    return NEITHER


def assign_roles(
    params: list[Param], mentions: list[tuple[Any, Span]], text: str
) -> dict[str, Any]:
    """Values for paired ``params`` from every mention (in order, repeats kept) in ``text``.

    Each parameter gets at most one value; two parameters get the same value only when it was
    named twice. A parameter nothing fits is left out (the caller reports it missing or uses its
    default).
    """
    marked = [(value, mention_role(text, span)) for value, span in mentions]
    times_named: dict[str, int] = {}
    for value, _ in marked:
        times_named[repr(value)] = times_named.get(repr(value), 0) + 1
    by_role = {
        SOURCE: [v for v, r in marked if r == SOURCE],
        TARGET: [v for v, r in marked if r == TARGET],
    }
    free = [v for v, r in marked if r == NEITHER]
    used: dict[str, int] = {}

    def usable(value: Any) -> bool:
        return used.get(repr(value), 0) < times_named[repr(value)]

    def take(value: Any) -> Any:
        used[repr(value)] = used.get(repr(value), 0) + 1
        return value

    ordered = sorted(params, key=lambda p: {SOURCE: 0, TARGET: 1}.get(role_of(p), 2))
    values: dict[str, Any] = {}
    for param in ordered:  # first the values the words mark for this role
        role = role_of(param)
        for value in by_role.get(role, []):
            if usable(value):
                values[param.name] = take(value)
                break
    for param in ordered:  # then the unmarked mentions, in order (and marked ones nobody took)
        if param.name in values:
            continue
        for value in free + [v for v, _ in marked]:
            if usable(value):
                values[param.name] = take(value)
                break
    return values


__all__ = ["SOURCE", "TARGET", "NEITHER", "role_of", "mention_role", "assign_roles"]
