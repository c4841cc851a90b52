"""Finding named values in the user's words: enum values, currencies, ids by pattern, cities,
people.

Every finder returns ``[(value, span)]`` in order of appearance, so a caller can tell which
mention came first and which words surround it.

Left out: fuzzy spelling, and names outside the lexicon's lists (cities, surnames).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ..actions import verb_at
from ..concepts import lone_character_ok, words_for_enum
from ..lexicon import (
    CITIES,
    COURTESIES,
    CURRENCIES,
    NAME_STOPPERS,
    SURNAMES,
    TITLES,
    VERB_AFTER_NAME,
)
from ..text import CJK_RANGE, find_numbers, find_word, normalize
from .params import Param

Span = tuple[int, int]


def enum_words(param: Param, value: Any) -> list[str]:
    """The words that name one enum value: the value itself, its family's words (``..concepts``: 美
    元 for ``USD``, 华氏 for ``f``), and a word the description pairs with it ("today（今天）", "f
    表示华氏度")."""
    try:
        return list(_enum_words(param.description, tuple(param.enum or [value]), value))
    except TypeError:  # an unhashable enum value: nothing to cache by
        return list(_enum_words.__wrapped__(param.description, tuple(param.enum or [value]), value))


@lru_cache(maxsize=4096)
def _enum_words(description: str, values: tuple[Any, ...], value: Any) -> tuple[str, ...]:
    words = [str(value)]
    if isinstance(value, str):
        words += words_for_enum(list(values)).get(value, [])
        words.append(value.replace("_", " "))
        description = normalize(description)
        v = re.escape(value)
        cjk = f"[{CJK_RANGE}]{{1,6}}"
        for pattern in (
            rf"['\"‘“]?{v}['\"’”]?\s*[(:=]\s*({cjk})",
            rf"{v}['\"’”]?\s*(?:表示|代表|即|为|是|means)\s*({cjk})",
            rf"({cjk})\s*[(]\s*['\"‘“]?{v}",
            rf"(?<![A-Za-z0-9_]){v}\s+({cjk})",
        ):
            for match in re.finditer(pattern, description):
                word = match.group(1).rstrip("的")
                if word and word not in ("默认", "格式", "可选", "取值"):
                    words.append(word)
    return tuple(w for w in dict.fromkeys(words) if w)


def occurrences(text: str, word: str) -> list[int]:
    """Every start index of ``word`` in ``text`` (whole words for ASCII; a lone Chinese character
    only on its own).
    """
    found: list[int] = []
    index = find_word(text, word)
    while index >= 0:
        if lone_character_ok(text, index, word):
            found.append(index)
        index = find_word(text, word, index + max(1, len(word)))
    return found


def _longest_first(hits: list[tuple[int, int, Any]], every: bool) -> list[tuple[Any, Span]]:
    """Hits ``(start, stop, value)`` without overlaps (the longer word wins), in order; each value
    once unless ``every``.
    """
    hits.sort(key=lambda h: (h[0], -(h[1] - h[0])))
    found: list[tuple[Any, Span]] = []
    covered_until = -1
    for start, stop, value in hits:
        if start < covered_until:
            continue  # "后天" inside "大后天" already taken by the longer word
        covered_until = stop
        if every or value not in [v for v, _ in found]:
            found.append((value, (start, stop)))
    return found


def find_enum(param: Param, text: str, *, every: bool = False) -> list[tuple[Any, Span]]:
    """The enum values named in ``text``, in order; with ``every``, each mention (a value named
    twice comes twice).
    """
    hits: list[tuple[int, int, Any]] = []
    for value in param.enum or []:
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            for number in find_numbers(text):
                if number.value == value:
                    hits.append((number.start, number.end, value))
            continue
        for word in enum_words(param, value):
            hits += [
                (index, index + len(word), value)
                for index in occurrences(text, word)
                if not _labels(param, text[index + len(word) :])  # "快件类型是…": a label
            ]
    return _longest_first(hits, every)


def _labels(param: Param, after: str) -> bool:
    label = re.match(rf"([{CJK_RANGE}]{{2,3}})\s*(?:是|为|[:：])", after)
    return bool(label) and label.group(1) in param.label()


_CURRENCY_WORD = {name: code for code, names in CURRENCIES.items() for name in names}
_CURRENCY_CODES = re.compile(r"(?<![A-Za-z])(?:" + "|".join(CURRENCIES) + r")(?![A-Za-z])")
_CURRENCY_NAMES = re.compile(
    "|".join(
        rf"(?<![a-z]){re.escape(name)}(?![a-z])" if name.isascii() else re.escape(name)
        for name in sorted(_CURRENCY_WORD, key=len, reverse=True)
    )
)


def find_currencies(text: str, *, every: bool = False) -> list[tuple[str, Span]]:
    """Currency codes and names in ``text`` as ISO codes, in order (美元 → USD); with ``every``,
    each mention.
    """
    hits: list[tuple[int, int, Any]] = [
        (m.start(), m.end(), m.group(0)) for m in _CURRENCY_CODES.finditer(text)
    ]
    hits += [
        (m.start(), m.end(), _CURRENCY_WORD[m.group(0)])
        for m in _CURRENCY_NAMES.finditer(text.lower())
    ]
    return _longest_first(hits, every)


def find_pattern(regex: re.Pattern[str], text: str, upper: bool) -> list[tuple[str, Span]]:
    found: list[tuple[str, Span]] = []
    for match in regex.finditer(text):
        value = match.group(0).upper() if upper else match.group(0)
        if value not in [v for v, _ in found]:
            found.append((value, match.span()))
    return found


_RANGE_JOIN = re.compile(r"\s*(?:到|至|-|~|～|—|－|through|to)\s*$", re.I)
_EXCLUDE_BEFORE = re.compile(
    r"(?:除了|除去|除掉|除|不包括|不包含|不含|排除|去掉|不要发给|别发给|不发给|except(?:\s"
    r"+for)?|excluding|other\s+than|but\s+not)"
    r"[^，,。;；:：]*$",
    re.I,
)
_EXCLUDE_AFTER = re.compile(r"^[^，,。;；:：]*?(?:以外|之外|除外)", re.I)
MAX_RANGE = 50  # "C001 到 C500" is no list a person means to spell out


def expand_ranges(found: list[tuple[str, Span]], text: str) -> list[tuple[str, Span]]:
    """ "C001 到 C003" → C001, C002, C003: two ids joined by 到/至/-/~ with the same prefix and
    width stand for the ids between them (at most ``MAX_RANGE``); any other pair stays as it is."""
    out: list[tuple[str, Span]] = []
    index = 0
    while index < len(found):
        value, span = found[index]
        if index + 1 < len(found):
            after, after_span = found[index + 1]
            first, last = re.fullmatch(r"(.*?)(\d+)", value), re.fullmatch(r"(.*?)(\d+)", after)
            if (
                first
                and last
                and first[1] == last[1]
                and len(first[2]) == len(last[2])
                and _RANGE_JOIN.search(text[span[1] : after_span[0]])
                and text[span[1] : after_span[0]].strip()
                and 0 < int(last[2]) - int(first[2]) < MAX_RANGE
            ):
                width = len(first[2])
                out += [
                    (f"{first[1]}{n:0{width}d}", span) for n in range(int(first[2]), int(last[2]))
                ]
                out.append((after, after_span))
                index += 2
                continue
        out.append((value, span))
        index += 1
    return out


def excluded(span: Span, text: str) -> bool:
    """Whether the value at ``span`` is named to be left out: "除了 C002 以外", "C002 除外", "except
    C002".
    """
    return bool(_EXCLUDE_BEFORE.search(text[: span[0]]) or _EXCLUDE_AFTER.match(text[span[1] :]))


def find_cities(text: str, english: bool, *, every: bool = False) -> list[tuple[str, Span]]:
    """Cities of the lexicon named in ``text`` (in Chinese or English), written the way the tool
    wants them.
    """
    hits: list[tuple[int, int, Any]] = []
    for zh, en in CITIES.items():
        for word in (zh, en):
            hits += [
                (index, index + len(word), en if english else zh)
                for index in occurrences(text, word)
            ]
    return _longest_first(hits, every)


# Measure words that follow a count and precede the thing counted ("5 把椅子", "3 个键盘", "两台显示
# 器").
CLASSIFIERS = "个台把张件份支本套箱盒瓶副双只条块部辆桶包卷袋罐组批根枚顶盏扇间门项"
# Units that measure a thing rather than count it ("27 寸显示器", "500 毫升烧杯", "3 人份套餐"): a
# number before one is part of the thing's name (its size, volume, weight …), never its count.
MEASURE_UNITS = (
    "英寸|寸|厘米|毫米|公分|公里|千米|米|毫升|升|公斤|千克|克|斤|吨|核|人份|匹|千瓦|瓦|码|"
    "(?:GB|TB|MB|mAh|ml|mL|kg|cm|mm|inch|G)(?![A-Za-z])"
)
# a measured number, the whole of it ("27 寸", "1.5 匹", "16G")
MEASURED = rf"\d+(?:\.\d+)?\s*(?:{MEASURE_UNITS})"
_QUANTITY = re.compile(
    rf"(?<![每单])(?:\d+(?:\.\d+)?|[一二两三四五六七八九十百千几]+)\s*[{CLASSIFIERS}]"
)
_THING_LEAD = re.compile(
    r"^(?:那么|那就|那|就|请|帮我|帮忙|麻烦|给我|替我|我要|我想|想要|想|需要|要|再)*\s*"
    r"(?:提交|申请|申购|采购|购买|订购|下单|买|订|领用|领取|领|采买)*\s*(?:一下)?\s*"
)
# nouns that begin with a verb's character: the verb is not cut off them
NOUNS_WITH_A_VERB = (
    "订书机",
    "订书钉",
    "订书针",
    "订单",
    "买单",
    "领带",
    "领夹",
    "要点",
    "申请书",
    "提交箱",
)


def _without_lead(text: str) -> str:
    """``text`` without the words that ask for it ("订购内胎" → 内胎), never cutting into a noun
    that begins with a verb's character ("采购订书机" → 订书机)."""
    match = _THING_LEAD.match(text)
    if not match or not match.group(0):
        return text
    for start in range(match.end()):
        if text[start:].startswith(NOUNS_WITH_A_VERB):
            return text[start:]
    return text[match.end() :]


_THING_TAIL = re.compile(r"(?:吧|吗|呢|啊|了|的)+$")
_PEOPLE = frozenset({"人", "个人", "位", "名", "人次", "位客人", "客人", "同事", "人参会"})


# "数量 2 台", "一共 3 把": the word before a count that labels it is no thing
_COUNT_LABEL = re.compile(
    r"(?:^|(?<=\s))(?:数量|数目|件数|个数|总数|一共|总共|共计|合计|共)\s*(?:是|为|[:：])?\s*$"
)


def find_things(text: str, own: frozenset[str]) -> tuple[list[tuple[str, Span]], list[Span]]:
    """Things counted in the request: the words after a count and its measure word ("买 5 把人体工学
    椅" → 人体工学椅), or before it ("27 寸显示器 2 台"). A thing whose words are all the tool's own
    (``own``: "一个采购申请" for a tool that submits purchase requests) is the request itself, not a
    thing: its span comes back second, so its count is no quantity.
    """
    found: list[tuple[str, Span]] = []
    own_counts: list[Span] = []
    for clause in re.finditer(r"[^，,。；;:：！!？?\n]+", text):
        body, offset = clause.group(0), clause.start()
        for count in _QUANTITY.finditer(body):
            after = _THING_TAIL.sub("", body[count.end() :].strip())
            before = _without_lead(body[: count.start()].strip())
            value, start = (
                (after, count.end()) if re.search(f"[{CJK_RANGE}A-Za-z]", after) else (before, 0)
            )
            words = set(_bigrams(value))
            if words and words <= own:
                own_counts.append((offset + count.start(), offset + count.end()))
                continue
            value = _COUNT_LABEL.sub("", _without_lead(value)).strip()
            if not value or not re.search(f"[{CJK_RANGE}A-Za-z]", value) or value in _PEOPLE:
                continue  # "3 个人" counts people, not things
            at = body.find(value, start)
            found.append((value, (offset + at, offset + at + len(value))))
    for count in _QUANTITY_EN.finditer(text):  # "3 laptops at 8000 yuan each"
        value = count.group("noun")
        if value.lower().split()[0] in _NOT_THINGS or value.lower() in own:
            continue
        found.append((value, count.span("noun")))
    found.sort(key=lambda hit: hit[1])
    return found, own_counts


_QUANTITY_EN = re.compile(
    r"\b\d+\s+(?:x\s+)?(?P<noun>[A-Za-z][A-Za-z\-]*(?:\s+[A-Za-z][A-Za-z\-]*){0,2}?)"
    r"(?=\s+(?:at|for|with|each|per|priced|costing|to|from|because)\b|\s*[,.;:]|\s*$)"
)
_NOT_THINGS = frozenset(
    "yuan rmb dollars dollar usd cny eur euros people persons person days day hours hour minutes"
    " times percent am pm kg km pieces units items".split()
)


def _bigrams(text: str) -> list[str]:
    runs = re.findall(f"[{CJK_RANGE}]+", text)
    return [run[i : i + 2] for run in runs for i in range(max(1, len(run) - 1))]


_NAME_LEAD = frozenset("给查问帮让和跟找向叫请把对与")


# a surname's character starting a time word ("周六", "夏天"), a courtesy ("谢谢") or a word that
# leaves the choice open ("任何医生"): no person
_TIME_LOOKALIKE = re.compile(
    rf"周[一二三四五六日天末年]|[春夏秋冬][天季]|任何|任意|{'|'.join(COURTESIES)}"
)


_NAME_TAIL = re.compile(r"[A-Za-z0-9_]+(?=[，,。；;、\s]|的|$)")

# 今/明/昨 stop a name only where they start a word of days ("给王明天发…"); elsewhere they are part
# of it ("我叫李明，…", "张小明")
_DAY_WORD = re.compile(r"[今明昨](?:天|日|年|儿|早|晚|晨|后|夜)")


def _stops_name(text: str, at: int) -> bool:
    """Whether the character at ``at`` cannot go on a name (``NAME_STOPPERS``)."""
    char = text[at : at + 1]
    if char in "今明昨" and not _DAY_WORD.match(text, at):
        return False
    return char in NAME_STOPPERS


def find_people(text: str) -> list[tuple[str, Span]]:
    preferred, others = [], []
    # inside such a word no person starts either ("任何医生": 何 is no surname here)
    inside = {i for m in _TIME_LOOKALIKE.finditer(text) for i in range(m.start() + 1, m.end())}
    for index, ch in enumerate(text):
        if ch not in SURNAMES or _TIME_LOOKALIKE.match(text, index) or index in inside:
            continue
        second = text[index + 1 : index + 2]
        if not second or not re.fullmatch(f"[{CJK_RANGE}]", second) or _stops_name(text, index + 1):
            continue
        title = next((t for t in TITLES if text.startswith(t, index + 1)), "")
        third = text[index + 2 : index + 3]
        length = (
            1 + len(title)  # "孙教练", "陈医生": a surname and its whole title name the person
            if title
            else 3
            if third
            and re.fullmatch(f"[{CJK_RANGE}]", third)
            and not _stops_name(text, index + 2)
            and not VERB_AFTER_NAME.match(text, index + 2)  # "李娜加入…": the verb after the name
            and not verb_at(text, index + 2)
            and not text.startswith(TITLES, index + 2)  # "张三教练": 教 starts the title
            else 2
        )
        before = text[index - 1 : index] if index else ""
        # "王五456，…": letters or digits right after the name, alone to the clause's end, are part
        # of it (an account's name); "张三30岁" keeps its age apart
        tail = _NAME_TAIL.match(text, index + length)
        length += len(tail.group(0)) if tail else 0
        entry = (text[index : index + length], (index, index + length))
        (
            preferred
            if not before or not re.fullmatch(f"[{CJK_RANGE}]", before) or before in _NAME_LEAD
            else others
        ).append(entry)
    return preferred + others


# what joins the names of several people one action is for ("张三和李四", "王芳、赵磊", "Tom and
# Ann")
_NAMES_JOINED = re.compile(r"\s*(?:和|跟|与|及|以及|还有|、|,|，|/|and)\s*", re.I)


def coordinated(found: list[tuple[str, Span]], text: str) -> list[tuple[str, Span]]:
    """The people of ``found`` one action is for: the first one, and those joined to it by 和, 、 …
    ("通知张三和李四"). Another word that only looks like a name elsewhere in the request ("把李娜加
    入白名单": 白名单) is no second person: one action for one person is one call."""
    if len(found) < 2:
        return found
    ordered = sorted(found, key=lambda hit: hit[1])
    first = ordered.index(found[0])
    group = [ordered[first]]
    for step in (-1, 1):
        index = first
        while 0 <= index + step < len(ordered):
            a, b = sorted((ordered[index], ordered[index + step]), key=lambda hit: hit[1])
            if not _NAMES_JOINED.fullmatch(text[a[1][1] : b[1][0]]):
                break
            index += step
            group.append(ordered[index])
    return sorted(group, key=lambda hit: found.index(hit))
