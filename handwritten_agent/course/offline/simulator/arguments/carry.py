"""An id the request does not give, taken from an earlier result of the same turn ("有的话帮我订下来
").

"看看明天下午有没有能坐 15 个人的会议室，有的话帮我订下来": the booking needs a ``room_id`` the user
never said; the lookup before it returned a list of free rooms. ``value_from_results`` reads the
earlier results as data, finds the objects in them (a list of objects anywhere inside, or the object
itself), and takes, from the first object that satisfies the constraints the earlier call stated,
the value that fits the parameter: under a key named like the parameter (``room_id``, or ``id`` — a
key whose words are all in the parameter's name), else any string value, and always one its pattern
(schema ``pattern`` or learnt from the examples, ``room_301`` → ``room_\\d{3}``) matches.

Constraints come from the earlier call's own arguments: ``min_capacity: 15`` keeps objects whose
``capacity`` is at least 15, ``max_price: 300`` those whose ``price`` is at most 300 (the number the
request stated, read into that argument); and from this call's numbers when the earlier tool has a
bound parameter on the same topic (``attendee_count`` "参会人数" 10 and ``min_capacity`` "至少要容纳
的人数": capacity ≥ 10), so a number the request states only for the later step still counts. When
the earlier results hold objects but none fits, the answer is ``NONE_FIT``, so the caller does not
fall back to the first id the text happens to contain.

Left out: constraints the earlier call did not carry (words of the request matched to fields by
meaning), ranking beyond "the first that fits", and values nested in lists of lists.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from ..text import split_identifier, stem, tokens
from .params import Param, params_of

NONE_FIT = (
    object()
)  # the results hold objects, but none satisfies the constraints or has a fitting value

_LOWER_BOUND = frozenset({"min", "minimum", "least", "from", "lowest"})
_UPPER_BOUND = frozenset({"max", "maximum", "most", "to", "highest", "upto"})
MAX_OBJECTS = 200


def objects_in(value: Any, depth: int = 0) -> Iterator[dict[str, Any]]:
    """Every object inside ``value``, in order, each after the objects nested in it."""
    if depth > 6:
        return
    if isinstance(value, dict):
        for inner in value.values():
            if isinstance(inner, (list, dict)):
                yield from objects_in(inner, depth + 1)
        yield value
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, (list, dict)):
                yield from objects_in(item, depth + 1)


def _words(name: str) -> list[str]:
    return [stem(word) for word in split_identifier(name)]


def _bound(name: str) -> tuple[list[str], str] | None:
    """``min_capacity`` → (["capacity"], ">="); ``max_price`` → (["price"], "<="); ``None`` for a
    name without a bound word.
    """
    words = _words(name)
    bounds = [w for w in words if w in _LOWER_BOUND or w in _UPPER_BOUND]
    rest = [w for w in words if w not in _LOWER_BOUND and w not in _UPPER_BOUND]
    if len(bounds) != 1 or not rest:
        return None
    return rest, ">=" if bounds[0] in _LOWER_BOUND else "<="


def _topic(param: Param) -> set[str]:
    return {tok for tok in tokens(param.description) if not any(ch.isdigit() for ch in tok)}


def constraints_of(
    spec: dict[str, Any], arguments: dict[str, Any], numbers: list[tuple[Param, Any]] = ()
) -> list[tuple[list[str], str, float]]:
    """Bounds on what an earlier call returned: its own ``min_capacity: 15`` → ``(["capacity"],
    ">=", 15)``, and a number of this call whose description shares a word with such a bound
    parameter's (参会人数 15 and 至少要容纳的人数 → capacity ≥ 15), the number the request stated
    for this step."""
    found: list[tuple[list[str], str, float]] = []
    for name, value in arguments.items():
        bound = _bound(name)
        if bound and not isinstance(value, bool) and isinstance(value, (int, float)):
            found.append((bound[0], bound[1], float(value)))
    for param in params_of(spec):
        bound = _bound(param.name)
        if not bound or param.type not in ("integer", "number"):
            continue
        for own, value in numbers:
            if (
                isinstance(value, (int, float))
                and not isinstance(value, bool)
                and _topic(param) & _topic(own)
            ):
                found.append((bound[0], bound[1], float(value)))
    return found


def bounds_from(spec: dict[str, Any], numbers: list[tuple[Param, Any]]) -> dict[str, Any]:
    """The bound parameters of a lookup (``min_capacity`` "至少要容纳的人数") that a number of the
    later call sets (``attendee_count`` "参会人数" 10 → ``min_capacity`` 10)."""
    found: dict[str, Any] = {}
    for param in params_of(spec):
        if not _bound(param.name) or param.type not in ("integer", "number"):
            continue
        values = {
            value
            for own, value in numbers
            if isinstance(value, (int, float))
            and not isinstance(value, bool)
            and _topic(param) & _topic(own)
        }
        if len(values) == 1:
            found[param.name] = values.pop()
    return found


def _satisfies(item: dict[str, Any], constraints: list[tuple[list[str], str, float]]) -> bool:
    for words, op, bound in constraints:
        field = next((key for key in item if _words(key) == words), None) or next(
            (key for key in item if set(words) <= set(_words(key))), None
        )
        value = item.get(field) if field else None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue  # the object does not say: the constraint cannot be checked on it
        if (op == ">=" and value < bound) or (op == "<=" and value > bound):
            return False
    return True


def _fitting_value(
    item: dict[str, Any], param: Param, patterns: list[re.Pattern[str]]
) -> str | None:
    own = _words(param.name)
    keys = [key for key in item if _words(key) == own]
    keys += [
        key for key in item if key not in keys and _words(key) and set(_words(key)) <= set(own)
    ]
    keys += [key for key in item if key not in keys]
    for key in keys:
        value = item[key]
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            continue
        text = str(value).strip()
        if any(regex.fullmatch(text) for regex in patterns):
            return text
    return None


def object_names(item: dict[str, Any]) -> set[str]:
    """What an object may be called: its text and integer values, and the number in each that has
    one ("room_301" → 301).
    """
    names = {
        str(value).strip().lower()
        for value in item.values()
        if isinstance(value, (str, int)) and not isinstance(value, bool)
    }
    for name in list(names):
        numbers = re.findall(r"\d+", name)
        if len(numbers) == 1 and len(numbers[0]) >= 3 and not name.isdigit():
            names.add(numbers[0])
    return names


def value_from_results(
    param: Param,
    patterns: list[re.Pattern[str]],
    results: list[tuple[dict[str, Any], dict[str, Any], str]],
    numbers: list[tuple[Param, Any]] = (),
    named: tuple[str, ...] = (),
    *,
    named_must_fit: bool = False,
) -> Any:
    """The value for ``param`` from the earlier ``results`` (``(spec, arguments, raw text)``, latest
    last) — ``NONE_FIT`` when they hold objects but none fits, ``None`` when they hold no objects to
    read (see the module docstring). ``numbers``: this call's numeric arguments already filled,
    which may bound the earlier results. ``named``: names the user wrote ("B502"); when given, only
    an object carrying one of them fits — the user chose it, so the constraints do not rule it out
    (the tool itself says whether it can be done) — unless ``named_must_fit``: a name the user wrote
    for a lookup ("A301 有没有空，再订一间 10 人的") chooses the thing only if it also fits this
    call.
    """
    if not patterns:
        return None
    seen_objects = False
    wanted = {name.strip().lower() for name in named}
    for spec, arguments, raw in reversed(results):
        try:
            data = json.loads(raw)
        except (TypeError, ValueError):
            continue
        constraints = constraints_of(spec, arguments, numbers)
        for count, item in enumerate(objects_in(data)):
            if count >= MAX_OBJECTS:
                break
            value = _fitting_value(item, param, patterns)
            if value is None:
                continue
            seen_objects = True
            if wanted:
                if wanted & object_names(item) and (
                    not named_must_fit or _satisfies(item, constraints)
                ):
                    return value
            elif _satisfies(item, constraints):
                return value
    return NONE_FIT if seen_objects else None


__all__ = [
    "MAX_OBJECTS",
    "NONE_FIT",
    "bounds_from",
    "constraints_of",
    "object_names",
    "objects_in",
    "value_from_results",
]
