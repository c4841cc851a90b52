"""A person the request names by a title ("王教练", "李医生", "陈静大夫", "赵师傅"), matched to the
people a lookup returned.

An action that takes a person's id (``coach_id`` "教练编号") is grounded by a lookup that lists
people with their names; the user says "约刘强教练" or "约王教练". ``references`` finds what the
user calls the person: a surname (``lexicon.SURNAMES``) and up to two more characters before a
title word. ``resolve`` matches each reference to the name-like values (a key with "name", 姓名,
名字) of the looked-up objects: the full name, or — for a surname alone — every name starting with
it. One match is the person; none or several is no person at all: the step is not taken, and the
answer names the reference and, for several, the candidates (``ambiguous``), so the user can say
which.

Left out: names without a title that no result contains ("派给钱多多" is not told apart from other
words), nicknames ("小王", "老李"), and English titles ("Dr. Wang").
"""

from __future__ import annotations

import json
import re
from typing import Any

from .arguments.carry import MAX_OBJECTS, objects_in
from .lexicon import SURNAMES, TITLES

_REFERENCE = re.compile(
    rf"([{''.join(sorted(SURNAMES))}][\u4e00-\u9fff]{{0,2}}?)(?:{'|'.join(TITLES)})"
)
_NAME_KEY = re.compile(r"name|姓名|名字|名称", re.I)
_PERSON_NAME = re.compile(rf"[{''.join(sorted(SURNAMES))}][\u4e00-\u9fff]{{1,2}}")
# "随便哪位", "谁都行": the user leaves the choice of person to the assistant
ANYONE = re.compile(r"随便|任意|任何一?位|谁都|哪位都|哪个都|都行|都可以|any(?:one|body)?\b", re.I)


def references(text: str) -> list[str]:
    """What the user calls people by title: "约王建国医生" → ["王建国"], "王教练" → ["王"]."""
    found = []
    for match in _REFERENCE.finditer(text):
        found.append(match.group(1))
    return list(dict.fromkeys(found))


def people_in(calls: tuple[tuple[dict[str, Any], dict[str, Any], str], ...]) -> list[str]:
    """The names of the people (objects with a name-like key) the results list, in order."""
    names: list[str] = []
    for _, _, raw in calls:
        try:
            data = json.loads(raw)
        except (TypeError, ValueError):
            continue
        for index, item in enumerate(objects_in(data)):
            if index >= MAX_OBJECTS:
                break
            for key, value in item.items():
                if _NAME_KEY.search(key) and isinstance(value, str) and value.strip():
                    names.append(value.strip())
    return list(dict.fromkeys(names))


def matches(reference: str, names: list[str]) -> list[str]:
    """The names ``reference`` may mean: the full name itself, else those starting with it when it
    is a surname alone."""
    for start in range(len(reference)):
        if reference[start:] in names:  # "下周王建国医生": the name is a tail of what was read
            return [reference[start:]]
    if len(reference) == 1:
        return [name for name in names if name.startswith(reference)]
    return []


def resolve(
    text: str, calls: tuple[tuple[dict[str, Any], dict[str, Any], str], ...]
) -> tuple[str, ...]:
    """The people ``text`` names by title, as the results name them: the one name each reference
    matches, or the reference itself when it matches none or several (no object carries it, so no
    id is taken). Nothing when the results list no people.
    """
    names = people_in(calls)
    if not names:
        return ()
    resolved = []
    for reference in references(text):
        found = matches(reference, names)
        resolved.append(found[0] if len(found) == 1 else reference)
    return tuple(dict.fromkeys(resolved))


def ambiguous(
    text: str, calls: tuple[tuple[dict[str, Any], dict[str, Any], str], ...]
) -> list[tuple[str, list[str]]]:
    """The references in ``text`` that match no one (``[]``) or several people of the results."""
    names = people_in(calls)
    if not names:
        return []
    out = []
    for reference in references(text):
        found = matches(reference, names)
        if len(found) != 1:
            out.append((reference, found))
    return out


def lists_people(calls: tuple[tuple[dict[str, Any], dict[str, Any], str], ...]) -> list[str]:
    """The people the results list, when what they list are people (names like 刘强)."""
    names = people_in(calls)
    people = [name for name in names if _PERSON_NAME.fullmatch(name)]
    return people if people and len(people) * 2 >= len(names) else []


def unnamed(text: str, calls: tuple[tuple[dict[str, Any], dict[str, Any], str], ...]) -> list[str]:
    """The people to choose from when the results list people and ``text`` names none of them
    (by title or in full) and does not leave the choice open ("GD778 派一下")."""
    names = lists_people(calls)
    if not names or references(text) or ANYONE.search(text) or any(n in text for n in names):
        return []
    return names
