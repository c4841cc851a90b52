"""Reading a tool's parameters: each property's schema, its examples, and the kind of value it
takes.

``classify`` decides which rule fills a parameter (``enum``, ``currency``, ``datetime``,
``pattern``, ``city``, ``person``, ``expression``, ``number``, ``boolean``, ``text``, ``thing``,
``array``, ``literal``); the other modules of this package hold one rule each. Examples are read
from ``examples``/``example`` and from the description ("例如 OD20240615"), and an example with
digits becomes a pattern (``OD\\d{8}``).

Left out: ``oneOf``/``anyOf``, nested objects, and any reading of the schema's ``$ref``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..lexicon import CITIES, CURRENCIES, SURNAMES
from ..text import CJK_RANGE, normalize, split_identifier

_LISTED = re.compile(rf"[（(]((?:[{CJK_RANGE}]{{1,6}}、)+[{CJK_RANGE}]{{1,6}})[）)]")


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
        if isinstance(values, list) and values:
            return list(values)
        # "会议类型（预约、取消）": the values a string takes, listed in its description
        listed = _LISTED.search(self.description) if self.type == "string" else None
        return listed.group(1).split("、") if listed else None

    @property
    def has_default(self) -> bool:
        return "default" in self.schema

    @property
    def words(self) -> str:
        """Name and description, lower-cased, for keyword tests."""
        return (" ".join(split_identifier(self.name)) + " " + normalize(self.description)).lower()

    def label(self) -> str:
        """A short human name: the description's first clause, else the parameter name."""
        # a colon inside a format ("HH:MM") is no end of the label
        first = re.split(r"[，,。；;：(（]|:(?![A-Za-z0-9])", self.description.strip(), maxsplit=1)
        first = first[0].strip()
        return first or self.name


def params_of(spec: dict[str, Any]) -> list[Param]:
    parameters = spec.get("parameters") or {}
    required = set(parameters.get("required") or [])
    return [
        Param(name, schema if isinstance(schema, dict) else {}, name in required)
        for name, schema in (parameters.get("properties") or {}).items()
    ]


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
    previous_texts: tuple[
        str, ...
    ] = ()  # earlier results, searched for ids/names the request lacks
    previous_calls: tuple[
        tuple[dict[str, Any], dict[str, Any], str], ...
    ] = ()  # the same results as (spec, arguments, text)
    named: tuple[
        str, ...
        # display names the user wrote ("B502"): an id taken from results must belong to one of them
    ] = ()
    # the names come from a lookup's words, not this call's: the thing must also fit this call
    named_in_lookup: bool = False
    # an earlier intent was a lookup made for this one: no id found there means the step is not
    # taken
    grounded: bool = False
    seen_calls: tuple[
        tuple[dict[str, Any], dict[str, Any], str], ...
    ] = ()  # earlier rounds' calls and results (spec, arguments, text)


@dataclass
class FillOutcome:
    """The filled arguments (several sets when one entity was named several times), what is
    missing.
    """

    arguments: list[dict[str, Any]]
    missing: list[Param] = field(default_factory=list)
    # waits for an earlier result (a number for an expression, an id …)
    needs_previous: bool = False
    waiting: list[Param] = field(
        default_factory=list
    )  # required parameters nobody gave, left for an earlier result
    unmet: list[Param] = field(
        default_factory=list
    )  # "有的话…": the earlier results hold no value that fits


# ---------------------------------------------------------------------------------------------
# Classification
# ---------------------------------------------------------------------------------------------

EXPRESSION_WORDS = re.compile(r"expression|expr\b|formula|equation|math|表达式|算式|公式|数学")
CURRENCY_WORDS = re.compile(r"currenc|货币|币种|\bfrom currency|\bto currency|币")
DATE_WORDS = re.compile(
    r"\b(?:date|time|day|datetime|when|deadline)\b|日期|时间|时刻|几号|哪天|开始|结束|截止"
)
# a time zone names no moment: a date never fills it ("今天星期几" is no ``timezone``)
ZONE_WORDS = re.compile(r"time\s*zone|timezone|\btz\b|时区|utc offset", re.I)
# an integer that is an hour of the day ("hour", "到店时间（0-23 点）"), not a number of hours
CLOCK_HOUR_WORDS = re.compile(
    r"\bhour\b|几点|点钟|钟点|[0０]\s*[-~到至—]\s*23|24\s*小时制|o'clock|hour of (?:the )?day", re.I
)
DURATION_WORDS = re.compile(
    r"时长|多少|几个|多久|持续|\bhours\b|duration|length|how long|number of"
)
CITY_WORDS = re.compile(r"city|location|place|城市|地点|地区|城")
TEXT_WORDS = re.compile(
    r"\b"
    r"(?:query|q|keywords?|text|content|message|question|prompt|topic|subject|title|body|sentence|search|"
    r"summary|description|comment|remark|caption|reason|(?:task|file|project|event|note|item|ticket)"
    r" name)\b|"
    r"关键词|关键字|搜索词|查询词|内容|问题|文本|主题|标题|正文|消息|句子|备注|原文|要翻译|摘要|描"
    r"述|原因|评论"
)
# A lone number in a later intent is combined with an earlier result only when the words say so.
DEPENDENT_WORDS = re.compile(
    r"换|兑|折合|相当于|合计|总共|一共|需要多少|要多少|等于多少|是多少|值多少|能买|它|这个|那个|结"
    r"果|上面|\bconvert|\bworth\b|\bin"
    r" total\b|"
    r"\bthat\b|\bit\b|\bresult\b|\bhow (?:much|many)\b.*\bin\b",
    re.I,
)
# "有的话帮我订下来": the step is wanted only if the earlier result provides what it needs.
CONDITIONAL_WORDS = re.compile(
    r"有的话|如果有|要是有|若有|假如有|有空的话|可以的话|能订的话|\bif (?:there"
    r" (?:is|are)|any|so|available|one is)\b",
    re.I,
)
AMOUNT_WORDS = re.compile(r"amount|money|price|sum|金额|数额|钱|价格")
# A thing to buy, order or hand over: named in the request by the words around a quantity ("买 5 把
# 人体工学椅").
# a person's name by its description ("病人姓名", "reader's full name"), when no example shows it
# the people a name parameter may be of ("学员名字", "客户的名字", "name of the student")
PERSON_NOUNS_ZH = (
    "学员|学生|客户|顾客|病人|患者|会员|员工|用户|住客|客人|乘客|读者|车主|教练|医生|老师|访客"
    "|租客|房客|业主|志愿者|家长|选手|联系人|收件人|寄件人|申请人|预约人|负责人|参会人|来访人"
)
PERSON_NOUNS_EN = (
    "person|people|customer|patient|reader|user|member|student|employee|guest|contact|applicant"
    "|owner|driver|visitor|client|tenant|coach|doctor|teacher|volunteer|passenger|attendee"
)
PERSON_WORDS = re.compile(
    r"姓名|人名|用户名|\busername\b|\bfull name\b"
    rf"|(?:{PERSON_NOUNS_ZH})的?(?:名字|称呼)"
    rf"|\b(?:{PERSON_NOUNS_EN})(?:'s|s')?\s+(?:full\s+)?name\b"
    rf"|\bname\s+of\s+the\s+(?:{PERSON_NOUNS_EN})\b",
    re.I,
)
THING_WORDS = re.compile(
    r"\b(?:item|items|product|goods|article|thing|merchandise|part|parts|component|supplies)\b"
    r"|物品|商品|物资|货品|品名|东西|产品|物件|用品|设备|商品名|配件|零件|部件|耗材|器材|材料|备件"
)
# "customer_ids 为空时发给全部客户", "empty means everyone": a parameter whose absence widens the
# action to everything.
EMPTY_MEANS_ALL = re.compile(
    r"(?:为空|空着|不填|留空|省略|缺省|不传|不指定|未指定|没有指定|空列表|不给|\bempty\b|\bomit|\b"
    r"not"
    r" (?:given|set|provided|specified)"
    r"|\bleft out\b|\bnone\b|\bnull\b)[^。"
    r"；;.]{0,16}?(?:全部|所有|全体|每一?[个位]|\ball\b|\bevery)",
    re.I,
)


def is_clock_hour(param: Param) -> bool:
    """An integer parameter for the hour of a time of day ("晚上 7 点" → 19)."""
    words = param.words
    return (
        param.type == "integer"
        and bool(CLOCK_HOUR_WORDS.search(words))
        and not DURATION_WORDS.search(words)
    )


def widens_when_empty(param: Param) -> bool:
    """Whether leaving this parameter out makes the call reach everything ("不填则发给全部客户")."""
    return bool(EMPTY_MEANS_ALL.search(normalize(param.description)))


def examples_of(param: Param) -> list[str]:
    found: list[str] = []
    for key in ("examples", "example"):
        value = param.schema.get(key)
        values = value if isinstance(value, list) else [value] if value is not None else []
        found.extend(
            str(v) for v in values if isinstance(v, (str, int, float)) and not isinstance(v, bool)
        )
    description = normalize(param.description)
    for match in re.finditer(
        r"(?:例如|比如|譬如|举例|示例|样例|(?<![假比例])如(?![果何下此今])|e\.g\.?|for example|for"
        r" instance|such as|\blike(?=\s+[A-Z0-9]))"
        r"\s*[:：,，]?\s*(?P<body>[^。；;\n()（）]*)",
        description,
        re.I,
    ):
        for part in re.split(r"[、,，/]|或者|或|\bor\b|\band\b|\s和\s", match.group("body")):
            part = (
                part.strip().strip("[]{}").strip().strip("'\"‘’“”「」`").strip()
            )  # '["C001", "C002"]' lists its items
            part = re.sub(r"等$", "", part).strip()
            if part and len(part) <= 40:
                found.append(part)
    return found


def learn_pattern(example: str) -> re.Pattern[str] | None:
    """Generalize an example value into a regex: letters stay, digit runs become ``\\d{n}``."""
    if "@" in example and re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", example):
        return EMAIL
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


def is_person_name(word: str) -> bool:
    return (
        2 <= len(word) <= 3
        and word[0] in SURNAMES
        and all(re.fullmatch(f"[{CJK_RANGE}]", ch) for ch in word)
    )


def currency_code(word: str) -> str | None:
    low = word.strip().lower()
    for code, names in CURRENCIES.items():
        if low == code.lower() or low in names:
            return code
    return None


def _without(words: str, examples: list[str]) -> str:
    """``words`` with every example value blanked out."""
    for example in sorted(examples, key=len, reverse=True):
        words = words.replace(example.lower(), " ")
    return words


def classify(param: Param) -> str:
    """The rule that fills this parameter (see the module docstring)."""
    words = param.words
    examples = examples_of(param)
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
    # an example value says what the parameter holds, never its kind: "科目（如：数学、英语）" is
    # no math expression
    if EXPRESSION_WORDS.search(_without(words, examples)):
        return "expression"
    if CURRENCY_WORDS.search(words) or (examples and all(currency_code(e) for e in examples)):
        return "currency"
    if param.schema.get("format") in ("date", "date-time", "time") or (
        DATE_WORDS.search(words)
        and not ZONE_WORDS.search(words)
        and not param.schema.get("pattern")
        and not any(learn_pattern(e) and not re.search(r"\d{4}-\d{1,2}", e) for e in examples)
    ):
        return "datetime"
    if param.schema.get("pattern"):
        return "pattern"
    if examples and any(learn_pattern(e) for e in examples):
        return "pattern"
    if any(words_re.search(words) for words_re, _ in KNOWN_FORMATS):
        return "pattern"
    if examples and all(e in CITIES or e in CITIES.values() for e in examples):
        return "city"
    if examples and all(is_person_name(e) for e in examples):
        return "person"
    if not examples and PERSON_WORDS.search(words):
        return "person"
    if CITY_WORDS.search(words):
        return "city"
    if TEXT_WORDS.search(words):
        return "text"
    if THING_WORDS.search(words):
        return "thing"
    if examples:
        return "literal"
    return "unknown"


# ---------------------------------------------------------------------------------------------
# Finders: each returns the values found in order of appearance, with their spans
# ---------------------------------------------------------------------------------------------

Span = tuple[int, int]

# ASCII only: a Chinese character next to an address ("给a@b.com发邮件") is not part of it
EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}"
    r"(?![A-Za-z0-9-])"
)
PHONE = re.compile(r"(?<!\d)(?:\+?86[- ]?)?1[3-9]\d{9}(?!\d)")
KNOWN_FORMATS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (re.compile(r"e-?mail|邮箱|邮件地址|mail address"), EMAIL),
    (re.compile(r"phone|mobile|手机|电话"), PHONE),
)


def patterns_of(param: Param) -> list[re.Pattern[str]]:
    """The schema's ``pattern``, else patterns learnt from the description's examples, else a known
    format (email, phone).
    """
    schema_pattern = param.schema.get("pattern")
    if schema_pattern:
        try:
            return [re.compile(str(schema_pattern).strip("^$"))]
        except re.error:
            return []
    learnt = [regex for regex in map(learn_pattern, examples_of(param)) if regex]
    return learnt or [regex for words, regex in KNOWN_FORMATS if words.search(param.words)]


def all_patterns(params: list[Param]) -> list[re.Pattern[str]]:
    return [
        regex for param in params if classify(param) == "pattern" for regex in patterns_of(param)
    ]


def wants_upper(param: Param) -> bool:
    return any(re.search(r"[A-Z]", e) and not re.search(r"[a-z]", e) for e in examples_of(param))


def first_example(param: Param) -> Any:
    examples = examples_of(param)
    return examples[0] if examples else None
