"""Numbers and yes/no values: a number for a numeric parameter, preferring one with the parameter's
unit.

A number right after the parameter's own label ("单价 1500", "参会人数：6") or, for an amount, after
每 and a measure word ("每台三千五") is taken first; then one followed by the parameter's unit ("25
元", "6 个人").

Left out: ranges ("3 到 5 个"), numbers written as English words, and unit conversion.
"""

from __future__ import annotations

import re
from typing import Any

from ..concepts import concepts_of
from ..lexicon import CURRENCIES
from ..text import CJK_RANGE, find_word, split_identifier
from ..vocabulary import expand
from .entities import CLASSIFIERS, MEASURE_UNITS
from .params import AMOUNT_WORDS, Param

UNIT_ALIASES: dict[str, tuple[str, ...]] = {
    "天": ("天", "日"),
    "day": ("天", "日", "days", "day"),
    "人": ("人", "位", "名", "people", "persons"),
    # how many a place holds: counted in people or seats ("坐 6 人", "8 seats")
    "capacity": ("人", "位", "名", "座", "people", "persons", "seats"),
    "容纳": ("人", "位", "名", "座", "people", "persons", "seats"),
    "容量": ("人", "位", "名", "座", "people", "persons", "seats"),
    "座位": ("座", "个座位", "位", "人", "seats", "people"),
    "seat": ("seats", "座", "位", "人", "people"),
    "people": ("人", "位", "people", "persons", "attendees"),
    "attendee": ("人", "位", "attendees", "people"),
    "week": ("周", "个星期", "星期", "weeks", "week"),
    "night": ("晚", "夜", "个晚上", "nights", "night"),
    "晚": ("晚", "夜", "个晚上"),
    "小时": ("小时", "个小时", "hours", "hour", "h"),
    "hour": ("小时", "hours", "hour"),
    "分钟": ("分钟", "minutes", "minute", "min"),
    "minute": ("分钟", "minutes", "minute"),
    "条": ("条",),
    "个": ("个",),
    "次": ("次", "times"),
    "件": ("件",),
    "张": ("张",),
    "页": ("页",),
    "岁": ("岁", "years old"),
    "年龄": ("岁", "周岁"),
    "age": ("岁", "周岁", "years old"),
    "年": ("年", "years", "year"),
    "月": ("个月", "月", "months", "month"),
    "元": ("元", "块", "块钱"),
    "积分": ("积分", "分", "points"),
    "学分": ("学分", "分", "credits"),
    "credit": ("学分", "分", "credits", "credit"),
    "point": ("积分", "points"),
    "limit": ("条", "个", "items"),
    "数量": tuple(CLASSIFIERS),
    "quantity": tuple(CLASSIFIERS),
    "件数": tuple(CLASSIFIERS),
}


def _label_before(param: Param) -> re.Pattern[str]:
    """What stands right before a number meant for ``param``: its Chinese label ("单价", "参会人数"
    or its last two characters) and then 是/为/a colon or a space; for an amount, also 每 and a
    measure word ("每台", "每包").
    """
    label = param.label()
    names = (
        [label] + ([label[-2:]] if len(label) > 2 else [])
        if re.fullmatch(f"[{CJK_RANGE}]{{2,8}}", label)
        else []
    )
    options = [re.escape(name) + r"\s*(?:是|为|[:：=])?\s*" for name in names]
    if AMOUNT_WORDS.search(param.words):
        options.append(rf"每\s*[{CLASSIFIERS}]\s*(?:是|为|[:：])?\s*")
    return re.compile("(?:" + "|".join(options) + ")$") if options else re.compile(r"(?!)")


_MEASURE_AFTER = re.compile(rf"\s*({MEASURE_UNITS})")

# A bound a number is said as, and the bound a parameter takes: "6 人以上"/"至少 6 人" is a least
# value, for ``min_capacity`` and never for ``max_capacity``; "6 到 10 人" is both, in order.
_RANGE_JOIN = r"\s*(?:到|至|-|~|～|—)\s*"
_LEAST_AFTER = re.compile(
    r"^\s*[^\s，,。；;、]{0,4}?(?:及?以上|起|打底|or more|or above|\+|plus)|^"
    + _RANGE_JOIN
    + r"\d",
    re.I,
)
_LEAST_BEFORE = re.compile(
    r"(?:至少|最少|起码|不少于|不低于|不小于|大于|多于|超过|高于|at least|more than|over)\s*$", re.I
)
_MOST_AFTER = re.compile(
    r"^\s*[^\s，,。；;、]{0,4}?(?:及?以下|以内|之内|or less|or fewer|or below)", re.I
)
_MOST_BEFORE = re.compile(
    r"(?:最多|至多|顶多|不超过|不多于|不高于|不大于|少于|低于|小于|at most|up to|under|below|less"
    r" than|no more than)\s*$|\d" + _RANGE_JOIN + r"$",
    re.I,
)
_FIELD_LEAST = re.compile(r"\bmin(?:imum)?\b|最少|最低|至少|下限|起码|不少于|at least", re.I)
_FIELD_MOST = re.compile(r"\bmax(?:imum)?\b|最多|最高|上限|不超过|至多|at most", re.I)
_CAPACITY = re.compile(r"容纳|容量|capacity", re.I)  # what a place holds: a least number
LEAST, MOST = 0, 1


def _said_bound(masked: str, number: Any) -> int | None:
    before, after = masked[max(0, number.start - 12) : number.start], masked[number.end :]
    if _MOST_BEFORE.search(before) or _MOST_AFTER.search(after):
        return MOST
    if _LEAST_BEFORE.search(before) or _LEAST_AFTER.search(after):
        return LEAST
    return None


def _field_bound(param: Param) -> int | None:
    least, most = _FIELD_LEAST.search(param.words), _FIELD_MOST.search(param.words)
    least = least or (_CAPACITY.search(param.words) and not most)
    return LEAST if least and not most else MOST if most and not least else None


def pick_number(
    param: Param, masked: str, numbers: list, taken: set[int], *, unit_only: bool = False
) -> int | float | None:
    words = param.words
    aliases: list[str] = []
    for key, names in UNIT_ALIASES.items():
        if key in words:
            aliases.extend(names)
    # the glossary's Chinese nouns for an English unit ("number of parcels" → "2 个包裹")
    aliases.extend(w for w in expand(words).split() if len(w) >= 2 and not w.isascii())
    if AMOUNT_WORDS.search(words):
        aliases.extend(name for names in CURRENCIES.values() for name in names)
        aliases.extend(CURRENCIES)
        aliases.extend(["元", "块"])

    bound = _field_bound(param)

    def acceptable(number) -> int | float | None:
        said = _said_bound(masked, number)
        if said is not None and said != bound:
            return None  # "10 人以下" is no least number, "6 人以上" no most nor exact one
        value = number.as_number
        if param.type == "integer":
            if not float(number.value).is_integer():
                return None
            value = int(number.value)
        minimum, maximum = param.schema.get("minimum"), param.schema.get("maximum")
        if minimum is not None and value < minimum or maximum is not None and value > maximum:
            return None
        return value

    labelled = _label_before(param)
    for index, number in enumerate(
        numbers
    ):  # "单价 1500", "数量：2", "每台三千五" (a price per piece)
        if index not in taken and labelled.search(masked[max(0, number.start - 12) : number.start]):
            value = acceptable(number)
            if value is not None:
                taken.add(index)
                return value
    for index, number in enumerate(numbers):
        if index in taken:
            continue
        # "6 到 10 人": the unit after a range is the unit of both ends
        end = re.match(_RANGE_JOIN + r"\d+(?:\.\d+)?", masked[number.end :])
        raw = masked[number.end + (end.end() if end else 0) :][:20].lstrip().lower()
        raw = re.sub(r"^(?:or (?:more|fewer|less|above|below)|\+)\s*", "", raw)[:12]
        after = re.sub(r"^(?:个|位|名)", "", raw)
        if aliases and any(
            raw.startswith(alias.lower()) or after.startswith(alias.lower()) for alias in aliases
        ):
            value = acceptable(number)
            if value is not None:
                taken.add(index)
                return value
    if not param.required or unit_only:
        return None
    for index, number in enumerate(numbers):
        if number.text == "一" and re.match(rf"[{CLASSIFIERS}]", masked[number.end :]):
            continue  # "定一个瑜伽课": the article "a", not a count of anything
        if AMOUNT_WORDS.search(words) and re.match(r"\s*[笔次趟项回单]", masked[number.end :]):
            continue  # "收了两笔": how many payments, no sum of money
        unit = _MEASURE_AFTER.match(masked[number.end :])
        if unit and unit.group(1).lower() not in words.lower():
            continue  # "27 寸显示器": the size of the thing, no count or price of it
        if index not in taken:
            value = acceptable(number)
            if value is not None:
                taken.add(index)
                return value
    return None


_NEGATION = re.compile(r"不要|不用|无需|不需要|别|不|\bno\b|\bnot\b|\bdon't\b|\bwithout\b", re.I)
_BARE_YES = re.compile(
    r"^\s*(?:是|是的|对|好|好的|要|需要|可以|同意|yes|yeah|yep|sure|ok|okay|y)\s*[。.!！,，]?\s*$",
    re.I,
)
_BARE_NO = re.compile(r"^\s*(?:否|不|不是|不要|不需要|不用|no|nope|n)\s*[。.!！,，]?\s*$", re.I)


def yes_no_enum(param: Param) -> bool:
    """An enum whose values are a yes and a no (["yes", "no"], ["是", "否"], ["Y", "N"], ["true",
    "false"]).
    """
    keys = [{c.key for c in concepts_of(v) if c.family == "yesno"} for v in param.enum or []]
    return len(keys) == 2 and {"yes"} in keys and {"no"} in keys


def bare_yes_no(text: str) -> bool | None:
    """A reply that is only a yes or a no ("是的", "no"); ``None`` for anything else."""
    if _BARE_YES.match(text):
        return True
    if _BARE_NO.match(text):
        return False
    return None


_BEFORE_NO = re.compile(
    r"(?:不要|不用|无需|不需要|别|不|没有|关闭|关掉|禁用|\bno\b|\bnot\b|\bdon't\b|\bwithout\b|\b"
    r"disable\b|\bturn"
    r" off\b)\s*$",
    re.I,
)
_AFTER_NO = re.compile(r"^\s*(?:关闭|关掉|禁用|\boff\b|\bdisabled\b)", re.I)
_NOT_TOPIC = re.compile(
    r"是否|是不是|要不要|需不需要|需要|接收|开启|打开|启用|whether|enable|is|has"
)


def _topic_words(param: Param) -> list[str]:
    """What a yes/no parameter is about: its name's words and the two-character words of its
    description's first clause.
    """
    words = [w for w in split_identifier(param.name) if len(w) > 2 and not _NOT_TOPIC.fullmatch(w)]
    label = _NOT_TOPIC.sub(" ", param.label())
    for run in re.findall(f"[{CJK_RANGE}]{{2,}}", label):
        words += [run[i : i + 2] for i in range(len(run) - 1)]
    return words


def boolean_value(param: Param, texts: list[str]) -> bool | None:
    """Yes when a text names the parameter's topic ("要每周摘要", "turn dark mode on"), no when a
    negation stands right before a mention or "off" right after it ("不要每周摘要", "用户不同意",
    "dark mode off"); else the default rule. The first text that mentions the topic decides."""
    for text in texts:
        mentioned = negated = False
        for word in _topic_words(param):
            index = find_word(text, word)
            while index >= 0:
                mentioned = True
                before, after = (
                    text[max(0, index - 8) : index],
                    text[index + len(word) : index + len(word) + 14],
                )
                if _BEFORE_NO.search(before) or _AFTER_NO.search(
                    re.sub(r"^[\w\s]*?(?=\boff\b|关|禁)", "", after)
                ):
                    negated = True
                index = find_word(text, word, index + len(word))
        if mentioned:
            return not negated
    if param.has_default:
        return None
    return False if param.required else None
