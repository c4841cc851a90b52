"""Argument filling: read each parameter's JSON Schema and find its value in the user's words.

Each parameter is classified by its schema and description, then filled by one rule:

- ``enum``        an enum value (or a synonym: 明天 → "tomorrow", or a word the description pairs
                  with the value, "today（今天）") mentioned in the request;
- ``currency``    currency codes or names (美元 → USD), ``from``/``to`` roles by order of mention;
- ``datetime``    今天/明天/后天/昨天/today/tomorrow, weekdays, explicit dates and times, against the
                  injected clock, formatted as the description asks (``YYYY-MM-DD``, ``YYYY-MM-DD HH:MM``);
- ``pattern``     a schema ``pattern``, or one learnt from the description's examples
                  ("例如 OD20240615" → ``OD\\d{8}``; "例如C001" → ``C\\d{3}``), or a known format
                  the description names (an email address, a mobile number);
- ``city``, ``person``  cities and people's names, when the examples are cities ("例如：北京、上海") or
                  names ("例如：张三"), or the description says city/城市;
- ``expression``  a math expression rebuilt from words ("17 乘以 9" → ``17 * 9``, "2 的 10 次方" → ``2 ** 10``);
- ``number``      integers/numbers from digits or Chinese numerals, preferring one followed by the unit
                  the description names (天, 人, days …; "5个人" for 参会人数);
- ``boolean``, ``text`` (queries, keywords, message text: the request minus filler words).

Values are looked for in the intent's own words first, then in the rest of the request, then (for
ids and names only) in earlier tool results. One entity named several times ("北京和上海") gives
one argument set per value. Optional parameters that are not found take their schema ``default``
(or are left out); a required one that cannot be filled is reported as missing, so the planner asks
the user instead of guessing. Dates/times live in ``dates``, math expressions in ``expressions``.

Left out: nested objects, arrays of objects, ``oneOf``/``anyOf``, time zones, and
relative expressions beyond single days and weekdays ("下个月第一个周一").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .dates import find_dates, find_times
from .expressions import PREV, Expression, extract_expression, number_from_result
from .lexicon import CITIES, CURRENCIES, ENUM_SYNONYMS, NAME_STOPPERS, SURNAMES
from .text import CJK_RANGE, find_numbers, find_word, format_number, normalize, split_identifier

__all__ = ["Param", "FillContext", "FillOutcome", "params_of", "classify", "fill_arguments", "evidence",
           "best_effort_arguments", "extract_expression", "number_from_result", "Expression", "PREV"]


@dataclass(frozen=True)
class Param:
    """One property of a tool's parameters schema, with what the simulator reads from it."""

    name: str
    schema: dict[str, Any]
    required: bool

    @property
    def description(self) -> str:
        return str(self.schema.get("description", "") or "")

    @property
    def type(self) -> str:
        kind = self.schema.get("type", "string")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "string")
        return str(kind)

    @property
    def enum(self) -> list[Any] | None:
        values = self.schema.get("enum")
        return list(values) if isinstance(values, list) and values else None

    @property
    def has_default(self) -> bool:
        return "default" in self.schema

    @property
    def words(self) -> str:
        """Name and description, lower-cased, for keyword tests."""
        return (" ".join(split_identifier(self.name)) + " " + normalize(self.description)).lower()

    def label(self) -> str:
        """A short human name: the description's first clause, else the parameter name."""
        first = re.split(r"[，,。；;:：(（]", self.description.strip(), maxsplit=1)[0].strip()
        return first or self.name


def params_of(spec: dict[str, Any]) -> list[Param]:
    parameters = spec.get("parameters") or {}
    required = set(parameters.get("required") or [])
    return [Param(name, schema if isinstance(schema, dict) else {}, name in required)
            for name, schema in (parameters.get("properties") or {}).items()]


@dataclass
class FillContext:
    """Where values may come from."""

    segment: str  # the intent's own words
    context: str  # the whole request without the other intents' words
    now: datetime
    request: str = ""  # the whole request, a last resort for names, ids and currencies
    has_previous: bool = False  # an earlier intent of the same request comes first
    previous_ready: bool = False  # the earlier intents have all got their results
    previous_number: float | None = None  # the number an earlier tool result provided, if any
    previous_texts: tuple[str, ...] = ()  # earlier results, searched for ids/names the request lacks


@dataclass
class FillOutcome:
    """The filled arguments (several sets when one entity was named several times), what is missing."""

    arguments: list[dict[str, Any]]
    missing: list[Param] = field(default_factory=list)
    needs_previous: bool = False  # waits for an earlier result (a number for an expression, an id …)


# ---------------------------------------------------------------------------------------------
# Classification
# ---------------------------------------------------------------------------------------------

EXPRESSION_WORDS = re.compile(r"expression|expr\b|formula|equation|math|表达式|算式|公式|数学")
CURRENCY_WORDS = re.compile(r"currenc|货币|币种|\bfrom currency|\bto currency|币")
DATE_WORDS = re.compile(r"\b(?:date|time|day|datetime|when|deadline)\b|日期|时间|时刻|几号|哪天|开始|结束|截止")
CITY_WORDS = re.compile(r"city|location|place|城市|地点|地区|城")
TEXT_WORDS = re.compile(r"\b(?:query|q|keywords?|text|content|message|question|prompt|topic|subject|title|body|sentence|search)\b|"
                        r"关键词|关键字|搜索词|查询词|内容|问题|文本|主题|标题|正文|消息|句子|备注|原文|要翻译")
# A lone number in a later intent is combined with an earlier result only when the words say so.
DEPENDENT_WORDS = re.compile(r"换|兑|折合|相当于|合计|总共|一共|需要多少|要多少|能买|它|这个|那个|结果|上面|\bconvert|\bworth\b|\bin total\b|\bthat\b|\bit\b|\bresult\b", re.I)
AMOUNT_WORDS = re.compile(r"amount|money|price|sum|金额|数额|钱|价格")

UNIT_ALIASES: dict[str, tuple[str, ...]] = {
    "天": ("天", "日"), "day": ("天", "日", "days", "day"),
    "人": ("人", "位", "名"), "people": ("人", "位", "people", "persons", "attendees"), "attendee": ("人", "位", "attendees", "people"),
    "小时": ("小时", "个小时", "hours", "hour", "h"), "hour": ("小时", "hours", "hour"),
    "分钟": ("分钟", "minutes", "minute", "min"), "minute": ("分钟", "minutes", "minute"),
    "条": ("条",), "个": ("个",), "次": ("次", "times"), "件": ("件",), "张": ("张",), "页": ("页",),
    "岁": ("岁", "years old"), "年": ("年", "years", "year"), "月": ("个月", "月", "months", "month"),
    "元": ("元", "块", "块钱"), "积分": ("积分", "分", "points"), "point": ("积分", "points"),
    "limit": ("条", "个", "items"), "数量": ("个", "件", "台", "张", "份"),
}


def _examples(param: Param) -> list[str]:
    found: list[str] = []
    for key in ("examples", "example"):
        value = param.schema.get(key)
        values = value if isinstance(value, list) else [value] if value is not None else []
        found.extend(str(v) for v in values if isinstance(v, (str, int, float)) and not isinstance(v, bool))
    description = normalize(param.description)
    for match in re.finditer(r"(?:例如|比如|譬如|举例|示例|样例|(?<![假比例])如(?![果何下此今])|e\.g\.?|for example|for instance|such as)"
                             r"\s*[:：,，]?\s*(?P<body>[^。；;\n()（）]*)", description, re.I):
        for part in re.split(r"[、,，/]|或者|或|\bor\b|\band\b|\s和\s", match.group("body")):
            part = part.strip().strip("'\"‘’“”「」`").strip()
            part = re.sub(r"等$", "", part).strip()
            if part and len(part) <= 40:
                found.append(part)
    return found


def _learn_pattern(example: str) -> re.Pattern[str] | None:
    """Generalize an example value into a regex: letters stay, digit runs become ``\\d{n}``."""
    if "@" in example and re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", example):
        return re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
    if re.fullmatch(r"[A-Za-z0-9_\-./:#]+", example):
        if any(ch.isdigit() for ch in example):
            parts = []
            for run in re.findall(r"\d+|[A-Za-z]+|[^A-Za-z\d]", example):
                if run.isdigit():
                    parts.append(rf"\d{{{len(run)}}}")
                elif run.isalpha():
                    parts.append("(?i:" + re.escape(run) + ")")
                else:
                    parts.append(re.escape(run))
            return re.compile(r"(?<![A-Za-z0-9])" + "".join(parts) + r"(?![A-Za-z0-9])")
        if example.isalpha() and example.isupper() and len(example) >= 2:
            n = len(example)
            return re.compile(rf"(?<![A-Za-z])[A-Z]{{{max(2, n - 1)},{n + 1}}}(?![A-Za-z])")
    return None


def _is_person_name(word: str) -> bool:
    return 2 <= len(word) <= 3 and word[0] in SURNAMES and all(re.fullmatch(f"[{CJK_RANGE}]", ch) for ch in word)


def classify(param: Param) -> str:
    """The rule that fills this parameter (see the module docstring)."""
    words = param.words
    examples = _examples(param)
    if param.enum:
        return "enum"
    if param.type == "array":
        return "array"
    if param.type in ("integer", "number"):
        return "number"
    if param.type == "boolean":
        return "boolean"
    if param.type != "string":
        return "unknown"
    if EXPRESSION_WORDS.search(words):
        return "expression"
    if CURRENCY_WORDS.search(words) or (examples and all(_currency_code(e) for e in examples)):
        return "currency"
    if param.schema.get("format") in ("date", "date-time", "time") or (
            DATE_WORDS.search(words) and not param.schema.get("pattern")
            and not any(_learn_pattern(e) and not re.search(r"\d{4}-\d{1,2}", e) for e in examples)):
        return "datetime"
    if param.schema.get("pattern"):
        return "pattern"
    if examples and any(_learn_pattern(e) for e in examples):
        return "pattern"
    if any(words_re.search(words) for words_re, _ in KNOWN_FORMATS):
        return "pattern"
    if examples and all(e in CITIES or e in CITIES.values() for e in examples):
        return "city"
    if examples and all(_is_person_name(e) for e in examples):
        return "person"
    if CITY_WORDS.search(words):
        return "city"
    if TEXT_WORDS.search(words):
        return "text"
    if examples:
        return "literal"
    return "unknown"


# ---------------------------------------------------------------------------------------------
# Finders: each returns the values found in order of appearance, with their spans
# ---------------------------------------------------------------------------------------------

Span = tuple[int, int]


def _enum_words(param: Param, value: Any) -> list[str]:
    words = [str(value)]
    if isinstance(value, str):
        words += list(ENUM_SYNONYMS.get(value.lower(), ()))
        words.append(value.replace("_", " "))
        description = normalize(param.description)
        v = re.escape(value)
        cjk = f"[{CJK_RANGE}]{{1,6}}"
        for pattern in (rf"['\"‘“]?{v}['\"’”]?\s*[(:=]\s*({cjk})", rf"{v}['\"’”]?\s*(?:表示|代表|即|为|是|means)\s*({cjk})",
                        rf"({cjk})\s*[(]\s*['\"‘“]?{v}"):
            for match in re.finditer(pattern, description):
                word = match.group(1).rstrip("的")
                if word and word not in ("默认", "格式", "可选", "取值"):
                    words.append(word)
    return [w for w in dict.fromkeys(words) if w]


def find_enum(param: Param, text: str) -> list[tuple[Any, Span]]:
    hits: list[tuple[int, int, Any]] = []  # (start, -length, value)
    for value in param.enum or []:
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            for number in find_numbers(text):
                if number.value == value:
                    hits.append((number.start, -(number.end - number.start), value))
            continue
        for word in _enum_words(param, value):
            index = find_word(text, word)
            if index >= 0:
                hits.append((index, -len(word), value))
    hits.sort(key=lambda h: (h[0], h[1]))
    found: list[tuple[Any, Span]] = []
    covered_until = -1
    for start, neg_len, value in hits:
        if start < covered_until:
            continue  # "后天" inside "大后天" already taken by the longer word
        covered_until = start - neg_len
        if value not in [v for v, _ in found]:
            found.append((value, (start, start - neg_len)))
    return found


def _currency_code(word: str) -> str | None:
    low = word.strip().lower()
    for code, names in CURRENCIES.items():
        if low == code.lower() or low in names:
            return code
    return None


_CURRENCY_WORD = {name: code for code, names in CURRENCIES.items() for name in names}
_CURRENCY_CODES = re.compile(r"(?<![A-Za-z])(?:" + "|".join(CURRENCIES) + r")(?![A-Za-z])")
_CURRENCY_NAMES = re.compile("|".join(
    rf"(?<![a-z]){re.escape(name)}(?![a-z])" if name.isascii() else re.escape(name)
    for name in sorted(_CURRENCY_WORD, key=len, reverse=True)))


def find_currencies(text: str) -> list[tuple[str, Span]]:
    hits: list[tuple[int, int, str]] = [(m.start(), m.end(), m.group(0)) for m in _CURRENCY_CODES.finditer(text)]
    hits += [(m.start(), m.end(), _CURRENCY_WORD[m.group(0)]) for m in _CURRENCY_NAMES.finditer(text.lower())]
    hits.sort(key=lambda h: (h[0], -(h[1] - h[0])))
    found: list[tuple[str, Span]] = []
    end = -1
    for start, stop, code in hits:
        if start < end:
            continue
        end = stop
        if code not in [c for c, _ in found]:
            found.append((code, (start, stop)))
    return found


def date_format(param: Param) -> str:
    """The strftime format the parameter asks for."""
    source = normalize(param.description) + " " + " ".join(_examples(param))
    match = re.search(r"YYYY([-/.年]?)MM([-/.月]?)DD(日?)(?:([ T])HH(:?)mm(:ss)?)?", source, re.I)
    if match:
        fmt = f"%Y{match[1]}%m{match[2]}%d{match[3]}"
        if match[4]:
            fmt += f"{match[4]}%H{match[5]}%M" + (f"{match[5]}%S" if match[6] else "")
        return fmt
    example = next((e for e in _examples(param) if re.fullmatch(r"\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?", e)), None)
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


def _role(param: Param) -> int:
    """0 for a start/from/source value, 1 for an end/to/target value, -1 when neither."""
    words = param.words
    if re.search(r"\b(?:end|to|until|target|dest\w*|quote)\b|结束|截止|目标|到|兑换成|换成", words):
        return 1
    if re.search(r"\b(?:start|begin\w*|from|source|base)\b|开始|起始|源|原", words):
        return 0
    return -1


def find_pattern(regex: re.Pattern[str], text: str, upper: bool) -> list[tuple[str, Span]]:
    found: list[tuple[str, Span]] = []
    for match in regex.finditer(text):
        value = match.group(0).upper() if upper else match.group(0)
        if value not in [v for v, _ in found]:
            found.append((value, match.span()))
    return found


def find_cities(text: str, english: bool) -> list[tuple[str, Span]]:
    hits = []
    for zh, en in CITIES.items():
        for word in (zh, en):
            index = find_word(text, word)
            if index >= 0:
                hits.append((index, index + len(word), en if english else zh))
    hits.sort()
    found: list[tuple[str, Span]] = []
    for start, stop, value in hits:
        if value not in [v for v, _ in found]:
            found.append((value, (start, stop)))
    return found


_NAME_LEAD = frozenset("给查问帮让和跟找向叫请把对与")


def find_people(text: str) -> list[tuple[str, Span]]:
    preferred, others = [], []
    for index, ch in enumerate(text):
        if ch not in SURNAMES:
            continue
        second = text[index + 1:index + 2]
        if not second or not re.fullmatch(f"[{CJK_RANGE}]", second) or second in NAME_STOPPERS:
            continue
        third = text[index + 2:index + 3]
        length = 3 if third and re.fullmatch(f"[{CJK_RANGE}]", third) and third not in NAME_STOPPERS else 2
        before = text[index - 1:index] if index else ""
        entry = (text[index:index + length], (index, index + length))
        (preferred if not before or not re.fullmatch(f"[{CJK_RANGE}]", before) or before in _NAME_LEAD else others).append(entry)
    return preferred + others


# ---------------------------------------------------------------------------------------------
# Filling one tool's arguments
# ---------------------------------------------------------------------------------------------

_FILLER = re.compile(r"^(?:请|麻烦|帮我|帮忙|给我|替我|你|能不能|可不可以|可以|我想|我要|想)+|"
                     r"^(?:please |can you |could you |would you |i want to |i'd like to )+", re.I)
_TEXT_VERBS = re.compile(r"^(?:搜索一下|搜一下|搜索|查找|查询一下|查询|查一下|查|找一下|找|检索|翻译一下|翻译|search for|search|look up|find|translate)\s*",
                         re.I)


def _free_text(segment: str) -> str:
    text = normalize(segment).strip()
    quoted = re.search(r"“([^”]+)”|「([^」]+)」|\"([^\"]+)\"|(?<![\d\s])\s*:(?!\d)\s*(.+)$", text, re.S)
    if quoted:
        return next(group for group in quoted.groups() if group).strip()
    for _ in range(3):
        text = _FILLER.sub("", text).strip()
        text = _TEXT_VERBS.sub("", text).strip()
    text = re.sub(r"[吧吗呢啊。？?！!，,\s]+$", "", text)
    text = re.sub(r"^(?:关于|有关|about)\s*", "", text, flags=re.I).strip(" :：,，")
    return text


def _blank(text: str, spans: list[Span]) -> str:
    chars = list(text)
    for start, stop in spans:
        for index in range(max(0, start), min(len(chars), stop)):
            chars[index] = " "
    return "".join(chars)


def _wants_upper(param: Param) -> bool:
    return any(re.search(r"[A-Z]", e) and not re.search(r"[a-z]", e) for e in _examples(param))


def _first_example(param: Param) -> Any:
    examples = _examples(param)
    return examples[0] if examples else None


class _Filler:
    """Fills one tool's arguments from one ``FillContext``; one method per kind of parameter."""

    def __init__(self, spec: dict[str, Any], ctx: FillContext):
        self.ctx = ctx
        self.params = params_of(spec)
        self.kinds = {p.name: classify(p) for p in self.params}
        self.segment = normalize(ctx.segment)
        self.context = normalize(ctx.context)
        # Where to look, nearest first: the intent's words, the request minus other intents, the whole
        # request, then earlier results (only for ids and names).
        self.sources = [self.segment, self.context, normalize(ctx.request)] + [normalize(t) for t in ctx.previous_texts]
        self.english = not re.search(f"[{CJK_RANGE}]", self.segment + self.context)
        self.values: dict[str, Any] = {}
        self.used_spans: list[Span] = []  # parts of the segment already taken (ids, dates …): numbers skip them
        self.fanout: tuple[str, list[Any]] | None = None
        self.needs_previous = False

    def take(self, found_by_source: list[list[tuple[Any, Span]]]) -> list[Any]:
        """The values of the first source that has any (spans in the segment are marked as used)."""
        for index, found in enumerate(found_by_source):
            if found:
                if index == 0:
                    self.used_spans.extend(span for _, span in found)
                return [value for value, _ in found]
        return []

    def of_kind(self, *kinds: str) -> list[Param]:
        return [p for p in self.params if self.kinds[p.name] in kinds and p.name not in self.values]

    def fill(self) -> FillOutcome:
        self.currencies()
        self.datetimes()
        for param in self.of_kind("enum", "pattern", "city", "person", "literal"):
            self.entity(param)
        numbers = find_numbers(_blank(self.segment, self.used_spans))
        taken: set[int] = set()
        for param in self.of_kind("expression", "number", "boolean", "text", "array"):
            kind = self.kinds[param.name]
            if kind == "expression":
                value = self.expression()
            elif kind == "number":
                value = _pick_number(param, _blank(self.segment, self.used_spans), numbers, taken)
                if value is None and param.required:
                    value = self.number_nearby(param)
            elif kind == "boolean":
                value = _boolean(param, self.segment)
            elif kind == "text":
                value = _free_text(self.ctx.segment) or None
            else:
                value = self.array(param)
            if value is not None:
                self.values[param.name] = value
        missing: list[Param] = []
        for param in self.params:
            if param.name in self.values:
                continue
            if param.has_default:
                self.values[param.name] = param.schema["default"]
            elif param.required:
                if self.ctx.has_previous and not self.ctx.previous_ready:
                    self.needs_previous = True  # an earlier result may still provide it
                else:
                    missing.append(param)
        ordered = {p.name: self.values[p.name] for p in self.params if p.name in self.values}
        arguments = [ordered]
        if self.fanout:
            name, options = self.fanout
            arguments = [{**ordered, name: option} for option in options]
        return FillOutcome(arguments=arguments, missing=missing, needs_previous=self.needs_previous)

    def currencies(self) -> None:
        """Currency parameters share one list of mentions: the first goes to the from/source role."""
        params = self.of_kind("currency")
        if not params:
            return
        mentions = self.take([find_currencies(s) for s in self.sources[:3]])
        ordered = sorted(params, key=lambda p: _role(p) if _role(p) >= 0 else 0.5)
        for param, code in zip(ordered, mentions):
            chinese_style = any(re.search(f"[{CJK_RANGE}]", e) for e in _examples(param))
            self.values[param.name] = CURRENCIES[code][0] if chinese_style else code

    def datetimes(self) -> None:
        """Dates and times, formatted as each parameter asks; a start/end pair takes the first/second mention."""
        params = self.of_kind("datetime")
        if not params:
            return
        today = self.ctx.now.date()
        dates = next((found for found in (find_dates(s, today) for s in self.sources[:3]) if found), [])
        times = next((found for found in (find_times(s) for s in self.sources[:3]) if found), [])
        self.used_spans.extend(span for _, span in find_dates(self.segment, today))
        self.used_spans.extend(span for _, span in find_times(self.segment))
        for param in params:
            index = max(_role(param), 0)
            fmt = date_format(param)
            day = dates[min(index, len(dates) - 1)][0] if dates else None
            clock = times[index][0] if len(times) > index else None
            if "%H" in fmt and clock is None:
                continue  # the format needs a time of day nobody gave
            if "%d" in fmt and day is None:
                if clock is None:
                    continue
                day = today  # "3点" alone means today
            moment = datetime.combine(day or today, datetime.min.time())
            if clock:
                moment = moment.replace(hour=clock[0], minute=clock[1])
            self.values[param.name] = moment.strftime(fmt)

    def entity(self, param: Param) -> None:
        """Enum values, ids matching a pattern, cities, people's names, literal examples."""
        kind = self.kinds[param.name]
        found: list[Any] = []
        if kind == "enum":
            found = self.take([find_enum(param, s) for s in self.sources[:3]])
        elif kind == "pattern":
            upper = _wants_upper(param)
            for regex in _patterns(param):
                found = self.take([find_pattern(regex, s, upper) for s in self.sources])
                if found:
                    break
        elif kind == "city":
            examples = _examples(param)
            english = all(e.isascii() for e in examples) if examples else self.english
            found = self.take([find_cities(s, english) for s in self.sources[:3]])
        elif kind == "person":
            literal = [(e, (self.segment.find(e), self.segment.find(e) + len(e))) for e in _examples(param) if e in self.segment]
            found = self.take([literal] + [find_people(s) for s in self.sources[:2] + self.sources[3:]])
        else:
            found = self.take([[(e, (s.find(e), s.find(e) + len(e))) for e in _examples(param) if e in s] for s in self.sources[:3]])
        if not found:
            return
        if len(found) > 1 and self.fanout is None and kind in ("pattern", "city", "person"):
            self.fanout = (param.name, found)  # "北京和上海" → one call per city
        self.values[param.name] = found[0]

    def number_nearby(self, param: Param) -> int | float | None:
        """A number with the parameter's unit elsewhere in the request ("…会议室，8个人")."""
        today = self.ctx.now.date()
        spans = [span for _, span in find_dates(self.context, today)] + [span for _, span in find_times(self.context)]
        masked = _blank(self.context, spans + [m.span() for regex in _all_patterns(self.params) for m in regex.finditer(self.context)])
        return _pick_number(param, masked, find_numbers(masked), set(), unit_only=True)

    def expression(self) -> str | None:
        """A math expression; one that needs an earlier result waits for it (or fails without one)."""
        found = extract_expression(_blank(self.segment, self.used_spans), has_previous=self.ctx.has_previous)
        if found is None:
            return None
        text = found.text
        if found.lone_number and self.ctx.has_previous and DEPENDENT_WORDS.search(self.segment):
            text = f"{text} * {PREV}"  # "计算 100 美元能换多少人民币" after a rate lookup: 100 * rate
        if PREV in text:
            if self.ctx.previous_number is None:
                self.needs_previous = self.needs_previous or self.ctx.has_previous
                return None
            text = text.replace(PREV, format_number(self.ctx.previous_number))
        return text

    def array(self, param: Param) -> list[Any] | None:
        """Arrays of enum values, ids or cities: every one mentioned."""
        items = param.schema.get("items") or {}
        item = Param(param.name, {**items, "description": items.get("description") or param.description}, False)
        kind = classify(item)
        if kind == "enum":
            found = find_enum(item, self.segment) or find_enum(item, self.context)
        elif kind == "pattern":
            found = [hit for regex in _patterns(item) for hit in find_pattern(regex, self.context, _wants_upper(item))]
        elif kind == "city":
            found = find_cities(self.context, self.english)
        else:
            found = []
        return [value for value, _ in found] or None


EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE = re.compile(r"(?<!\d)(?:\+?86[- ]?)?1[3-9]\d{9}(?!\d)")
KNOWN_FORMATS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (re.compile(r"e-?mail|邮箱|邮件地址|mail address"), EMAIL),
    (re.compile(r"phone|mobile|手机|电话"), PHONE),
)


def _patterns(param: Param) -> list[re.Pattern[str]]:
    """The schema's ``pattern``, else patterns learnt from the description's examples, else a known format (email, phone)."""
    schema_pattern = param.schema.get("pattern")
    if schema_pattern:
        try:
            return [re.compile(str(schema_pattern).strip("^$"))]
        except re.error:
            return []
    learnt = [regex for regex in map(_learn_pattern, _examples(param)) if regex]
    return learnt or [regex for words, regex in KNOWN_FORMATS if words.search(param.words)]


def fill_arguments(spec: dict[str, Any], ctx: FillContext) -> FillOutcome:
    """Fill ``spec``'s arguments from ``ctx`` (see the module docstring)."""
    return _Filler(spec, ctx).fill()


def _all_patterns(params: list[Param]) -> list[re.Pattern[str]]:
    return [regex for param in params if classify(param) == "pattern" for regex in _patterns(param)]


def _pick_number(param: Param, masked: str, numbers: list, taken: set[int], *, unit_only: bool = False) -> int | float | None:
    words = param.words
    aliases: list[str] = []
    for key, names in UNIT_ALIASES.items():
        if key in words:
            aliases.extend(names)
    if AMOUNT_WORDS.search(words):
        aliases.extend(name for names in CURRENCIES.values() for name in names)
        aliases.extend(CURRENCIES)
        aliases.extend(["元", "块"])

    def acceptable(number) -> int | float | None:
        value = number.as_number
        if param.type == "integer":
            if not float(number.value).is_integer():
                return None
            value = int(number.value)
        minimum, maximum = param.schema.get("minimum"), param.schema.get("maximum")
        if minimum is not None and value < minimum or maximum is not None and value > maximum:
            return None
        return value

    for index, number in enumerate(numbers):
        if index in taken:
            continue
        after = re.sub(r"^\s*(?:个|位|名)?", "", masked[number.end:number.end + 12]).lower()
        if aliases and any(after.startswith(alias.lower()) for alias in aliases):
            value = acceptable(number)
            if value is not None:
                taken.add(index)
                return value
    if not param.required or unit_only:
        return None
    for index, number in enumerate(numbers):
        if index not in taken:
            value = acceptable(number)
            if value is not None:
                taken.add(index)
                return value
    return None


_NEGATION = re.compile(r"不要|不用|无需|不需要|别|不|\bno\b|\bnot\b|\bdon't\b|\bwithout\b", re.I)
_AFFIRM = re.compile(r"要|需要|是|开启|打开|\byes\b|\benable\b|\bwith\b|\binclude\b", re.I)


def _boolean(param: Param, segment: str) -> bool | None:
    topic = [w for w in split_identifier(param.name) if len(w) > 2] + re.findall(f"[{CJK_RANGE}]{{2,}}", param.label())
    mentioned = any(find_word(segment, word) >= 0 for word in topic)
    if mentioned:
        return not _NEGATION.search(segment)
    if param.has_default:
        return None
    return False if param.required else None


def evidence(spec: dict[str, Any], text: str) -> int:
    """How many parameters of ``spec`` have a value visibly present in ``text`` (ids, cities, names, currencies)."""
    text = normalize(text)
    count = 0
    for param in params_of(spec):
        kind = classify(param)
        if kind == "pattern":
            found = any(regex.search(text) for regex in _patterns(param))
        elif kind == "city":
            found = bool(find_cities(text, False))
        elif kind == "person":
            found = any(e in text for e in _examples(param)) or bool(find_people(text))
        elif kind == "currency":
            found = bool(find_currencies(text))
        else:
            found = False
        count += int(found)
    return count


def best_effort_arguments(spec: dict[str, Any], ctx: FillContext) -> dict[str, Any]:
    """Arguments for a call the caller forced (``tool_choice``): what can be filled, the rest from examples/enums."""
    outcome = fill_arguments(spec, ctx)
    arguments = dict(outcome.arguments[0])
    for param in outcome.missing:
        if param.enum:
            arguments[param.name] = param.enum[0]
        elif _first_example(param) is not None and param.type == "string":
            arguments[param.name] = _first_example(param)
        else:
            arguments[param.name] = {"integer": 0, "number": 0, "boolean": False, "array": [], "object": {}}.get(param.type, "")
    return arguments
