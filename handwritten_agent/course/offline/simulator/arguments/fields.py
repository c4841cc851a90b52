"""A field and its new value: a tool that changes one field of a record by name takes the field
and the value as two parameters ("update_field": "Field to update (e.g., name, phone)",
"new_value": "New value for the field"), and the request names both ("把 C123 的 phone 改为 139…",
"set the email of M-204 to a@b.com").

- the pair: one string parameter whose own words say it names a field (field, attribute,
  property, 字段, 属性) and one whose words say it is a value (value, 值, 新值; "New value for the
  field" names a field too, and is still the value);
- the reading: the field right after 的/把/将 or at a clause's start, then 为/改为/改成/设为/to/=
  and the value up to the clause's end; in English also "set/change/update (the) <field> (of …)
  to <value>". One reading only, else nothing (then both are asked for).

Any tool with a parameter per field ("新负责人姓名", "新楼层") takes a value set in place of a
field's ("负责人改为陈晨", "把楼层改成五楼", ``set_clauses``) in the parameter whose label ends
with the field's words (``field_param``; 名称/名字/姓名 all read 名). A value so bound is no other
parameter's, several such clauses about one target are one call (the planner joins them), and a
field no parameter names is not done.

Left out: several fields joined in one clause ("电话和地址改为…" gives no reading, so both are
asked; in clauses of their own the planner makes one call each), and a field named by a synonym of
one the tool lists is taken as written (an enum of fields is kept to: another field is asked).
"""

from __future__ import annotations

import re

from ..text import CJK_RANGE
from .bare import ID_WORDS
from .params import Param

# fields joined ("电话和地址", "name and email"): several fields, no one reading
_SEVERAL = re.compile(r"和|与|及|、|或|跟|\b(?:and|or)\b")
_FIELD_WORDS = re.compile(
    r"\b(?:field|attribute|property|column|key)s?\b|字段|属性|信息项|栏目", re.I
)
_VALUE_WORDS = re.compile(r"\bvalues?\b|新值|取值|(?<![字段属性])值", re.I)

# a field is a word, never a code ("C123" is what is changed, not a field of it)
_FIELD = rf"([A-Za-z_]+|[{CJK_RANGE}]{{1,6}}?)"
_VALUE = r"([^，,。；;！!？?]+?)"
_END = r"\s*(?=[，,。；;！!？?]|$)"
_ZH_SET = r"改为|改成|更新为|更新成|修改为|修改成|设为|设置为|设成|换成|变为|变成|为|是|[:：=]"
_READINGS = (
    # "C123 的 contact_email 为 new@example.com", "把电话改成 139…"
    re.compile(rf"(?:的|把|将|^|(?<=[，,；;]))\s*{_FIELD}\s*(?:{_ZH_SET})\s*{_VALUE}{_END}"),
    # "set the email of M-204 to a@b.com", "change phone to 555-0100"
    re.compile(
        rf"\b(?:set|change|update)\s+(?:the\s+|its\s+|their\s+)?([A-Za-z_][A-Za-z_ ]{{0,30}}?)"
        rf"(?:\s+(?:of|for)\s+[^,;.]{{1,30}}?)?\s+(?:to|=)\s+{_VALUE}{_END}",
        re.I,
    ),
)


# "负责人改为陈晨", "把楼层改成五楼", "…的客房名称改为海景房": a field (words of its own after
# 的/把/将 or at a clause's start, never a code) and the value set in its place, to the clause's end
_SET_MARK = r"改为|改成|换成|换为|设为|设成|设置为|更新为|更新成|修改为|修改成|变为|变成"
_SET = re.compile(
    rf"(?:^|(?<=[，,；;。的把将\s]))\s*((?:(?![的把将])[{CJK_RANGE}]){{1,6}}?)\s*(?:{_SET_MARK})"
    rf"\s*([^，,。；;！!？?]{{1,20}}?)(?:吗|呢|吧|么)?{_END}"
)
_NAMED = re.compile(r"名称|名字|姓名")


def set_clauses(text: str) -> list[tuple[str, str]]:
    """(field, value) of every value the text sets in place of a field's."""
    return [(m.group(1), m.group(2).strip()) for m in _SET.finditer(text)]


def set_only(text: str) -> bool:
    """Whether a clause only sets a field, naming no target of its own ("主人改为张三")."""
    return bool(re.fullmatch(rf"(?:把|将)?{_SET.pattern}", text.strip(" ,，。")))


def field_param(field: str, params: list[Param]) -> Param | None:
    """The one parameter whose label holds the most of the field's last words (at least two
    characters: "客房名称" → 新客房名, never 新负责人姓名), or None."""
    field = _NAMED.sub("名", field)
    best: list[Param] = []
    longest = 1
    for param in params:
        label = _NAMED.sub("名", param.label())
        size = max((n for n in range(2, len(field) + 1) if field[-n:] in label), default=0)
        if size > longest:
            best, longest = [param], size
        elif size == longest:
            best.append(param)
    return best[0] if len(best) == 1 else None


def chinese_labels(params: list[Param]) -> bool:
    """Whether the parameters are labelled in Chinese: only then can a field's words name one."""
    return bool(params) and all(re.search(f"[{CJK_RANGE}]", p.label()) for p in params)


def field_pair(params: list[Param]) -> tuple[Param, Param] | None:
    """(field, value): the two string parameters of a tool that sets one named field."""
    # "New value for the field" names a field too: a value parameter is never the field one
    values = [
        p
        for p in params
        if p.type in ("string", "number", "integer") and _VALUE_WORDS.search(p.words)
    ]
    # "property_id" ("The property id") names a thing, not one of its fields
    fields = [
        p
        for p in params
        if p.type == "string"
        and p not in values
        and _FIELD_WORDS.search(p.words)
        and not ID_WORDS.search(p.words)
    ]
    return (fields[0], values[0]) if len(fields) == 1 and len(values) == 1 else None


def field_and_value(text: str) -> tuple[str, str] | None:
    """The one (field, value) the request sets, or None when it sets none or several."""
    found = {
        (m.group(1).strip(), m.group(2).strip().rstrip("."))
        for reading in _READINGS
        for m in reading.finditer(text)
        if m.group(2).strip().rstrip(".") and not _SEVERAL.search(m.group(1))
    }  # a sentence's full stop is no part of the value ("change phone to 555-0100.")
    return found.pop() if len(found) == 1 else None


__all__ = [
    "chinese_labels",
    "field_and_value",
    "field_pair",
    "field_param",
    "set_clauses",
    "set_only",
]
