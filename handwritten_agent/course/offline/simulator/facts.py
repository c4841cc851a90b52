"""Reading a tool result's data as facts a sentence can use.

``read_data`` turns whatever a tool returned — a number, a string, a list, a dict of fields, nested
dicts — into ``Fact``s: a label as a reader says it (``fieldwords``), a value written for the reader
(numbers with their unit, dates as dates, codes as names), and the words a question may use to ask
for it. On the way it sorts the fields:

- **echoes** of the call's own arguments (``city: 北京`` after asking for 北京) are left out: the
  sentence names them once, as its subject;
- **caveats** (``note: 示例数据，不是实时天气预报``, ``is_sample: true``) are kept apart, in words,
  so the sentence can end with them ("（示例数据，非实时）");
- **the moment**: ``date``/``time``/``weekday`` fields (or a date-time string) become one fact,
  "2026 年 3 月 12 日（星期四）14:30";
- **ranges**: ``temp_low``/``temp_high`` become one fact, "温度 2 到 14 摄氏度";
- **units**: from the field name (``distance_km``), a ``unit``/``currency`` field beside the
  numbers, or a unit among the call's arguments;
- **statements**: a field that already says the fact in a sentence (``meaning: 1 USD = 7.2 CNY``)
  stands in for the numbers it repeats, so no fact is said twice;
- lists become a count and their items, nested objects a group, yes/no fields words (有货/缺货).

Left out: judging which facts matter beyond the question's words, arithmetic on the data, and
translating free text (a Chinese value stays Chinese in an English answer).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from .actions import noun_first
from .concepts import concepts_of, display_name, short_name
from .fieldwords import (
    CAVEAT_FIELDS,
    CURRENCY_FIELDS,
    IMPLIED_UNITS,
    LIVE_FLAGS,
    MODIFIERS,
    MOMENT_FIELDS,
    MONEY_WORDS,
    NOISE,
    SAMPLE_FLAGS,
    SELF_DESCRIBING,
    STATEMENT,
    UNIT_FIELDS,
    UNIT_SUFFIXES,
    VERBS,
    WORDS,
    WRAPPERS,
    asked_words,
    description_noun,
    field_label,
    flag_words,
    status_words,
    synonyms,
    words_of,
)
from .lexicon import CITIES
from .schemawords import schema_words
from .text import CJK_RANGE, format_number, normalize, split_identifier

MAX_ITEMS = 5  # list items named before "等 N 项"
MAX_TEXT = 120  # characters of a free-text value before it is shortened

_CAVEAT_WORDS = re.compile(
    r"示例|样例|模拟|演示|仅供参考|非实时|不是实时|并非实时|测试数据|虚构|假数据|"
    r"\bsample\b|\bmock\b|\bdemo\b|simulated|for reference|not real[- ]?time|not"
    r" live|\bfake\b|dummy|test data",
    re.I,
)
_COUNT_WORDS = {
    "count",
    "number",
    "num",
    "quantity",
    "qty",
    "votes",
    "rank",
    "floor",
    "seats",
    "steps",
    "population",
    "total_count",
    "size",
    "length",
    "items",
    "level",
    "grade",
    "id",
    "year",
    "month",
    "day",
}
_PRIMARY_WORDS = {
    "id",
    "name",
    "title",
    "code",
    "number",
    "no",
    "sku",
    "symbol",
    "ticker",
    "编号",
    "名称",
    "名字",
    "标题",
    "单号",
}
_LOW = {"low", "min", "minimum", "lowest", "from", "start"}
_HIGH = {"high", "max", "maximum", "highest", "to", "end"}
_PLAIN_FIELDS = {
    "id",
    "location",
    "address",
    "place",
    "status",
    "state",
    "item",
    "product",
    "name",
    "title",
    "description",
    "desc",
    "type",
    "kind",
    "category",
    "summary",
    "floor",
    "building",
    "area",
    "region",
}
_TIME_VERBS = (
    "更新",
    "创建",
    "修改",
    "截止",
    "到期",
    "开始",
    "结束",
    "过期",
    "出发",
    "到达",
    "发货",
    "送达",
    "签收",
    "支付",
    "收到",
    "发送",
)


@dataclass(frozen=True)
class Moment:
    day: date | None = None
    clock: tuple[int, int, int] | None = None  # hour, minute, second
    weekday: str | None = None  # a weekday concept key ("thursday")
    zone: str | None = None

    def text(self, lang: str, *, with_clock: bool = True) -> str:
        """``2026 年 3 月 12 日（星期四）14:30`` / ``Thursday, 12 March 2026, 14:30``."""
        zh = lang == "zh"
        weekday = _weekday_name(self.weekday, lang) if self.weekday else ""
        parts: list[str] = []
        if self.day:
            if zh:
                parts.append(
                    f"{self.day.year} 年 {self.day.month} 月 {self.day.day} 日"
                    + (f"（{weekday}）" if weekday else "")
                )
            else:
                parts.append(
                    (f"{weekday}, " if weekday else "")
                    + f"{self.day.day} {self.day.strftime('%B')} {self.day.year}"
                )
        elif weekday:
            parts.append(weekday)
        if self.clock and (with_clock or not parts):
            hour, minute, second = self.clock
            clock = f"{hour:02d}:{minute:02d}" + (f":{second:02d}" if second else "")
            parts.append(
                clock
                + (
                    f"（{self.zone}）"
                    if zh and self.zone
                    else f" ({self.zone})"
                    if self.zone
                    else ""
                )
            )
        if zh:
            return "".join(
                p if i == 0 or parts[i - 1].endswith("）") else " " + p for i, p in enumerate(parts)
            )
        return ", ".join(parts)


@dataclass(frozen=True)
class Fact:
    label: str  # "" when the value speaks for itself ("已发货", "多云")
    value: str  # written for the reader, with its unit
    field: str  # where it came from ("temp_low+temp_high", "orders"), for tests and traces
    kind: str  # moment | number | text | statement | flag | list | group | date
    asked: frozenset[str] = frozenset()  # words a question may use to ask for it
    numbers: tuple[str, ...] = ()  # the numbers it states
    connector: str = ""  # Chinese word between label and value instead of 为 ("更新于")
    moment: Moment | None = None
    count: int | None = None  # items, for a list
    truth: bool | None = None  # the value, for a yes/no field
    status: str = ""  # the status value as the tool wrote it ("sent"), for a status field


@dataclass
class Reading:
    facts: list[Fact] = field(default_factory=list)
    caveats: list[str] = field(default_factory=list)
    number: float | None = None  # the one number the data is, when it is a bare number

    @property
    def empty(self) -> bool:
        return not self.facts


@dataclass(frozen=True)
class CallView:
    """What the reader already knows about the call: its arguments (as echoes) and a unit they
    name.
    """

    echoes: frozenset[str] = frozenset()  # forms of the string arguments (``echo_keys``)
    numbers: frozenset[tuple[str, str]] = (
        frozenset()
    )  # (argument name, number): the same number under that name is an echo
    unit: tuple[str, str] | None = None  # (zh, en)
    currency: str = ""  # the currency the call asked for (its last currency argument)
    tool_words: tuple[str, ...] = ()  # the tool's name without its verb: ("exchange", "rate")
    extra: tuple[
        tuple[str, str], ...
    ] = ()  # Chinese words the tool's schema gives (``schemawords``)
    # what the tool returns, as its description says it (会议室), for a list whose name is unknown
    noun: str = ""
    description: str = ""  # the tool's description
    money: str = ""  # the unit of money the tool's parameters state ("单价（元）" → 元)

    @staticmethod
    def of(
        arguments: dict[str, Any], tool_name: str = "", spec: dict[str, Any] | None = None
    ) -> CallView:
        echoes: set[str] = set()
        numbers: set[tuple[str, str]] = set()
        unit = None
        currency = ""
        for name, value in arguments.items():
            if name.startswith("_") or value in (None, "", [], {}):
                continue
            if isinstance(value, str):
                echoes |= echo_keys(value)
            elif isinstance(value, list):
                for item in value:
                    echoes |= echo_keys(item)
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                numbers.add((name.lower(), format_number(value)))
            currency = next((c.key for c in concepts_of(value) if c.family == "currency"), currency)
            for concept in concepts_of(value):
                if concept.family in ("temperature", "length", "weight") and unit is None:
                    unit = (short_name(concept, "zh"), short_name(concept, "en"))
        words = tuple(split_identifier(tool_name))
        description = str((spec or {}).get("description", "") or "")
        verb = VERBS.get(words[0]) if words and not noun_first(tool_name, description) else None
        if verb:
            words = words[1:]
        extra = tuple(schema_words(spec).items()) if spec else ()
        noun = (
            description_noun(str(spec.get("description", "") or ""), verb[0] if verb else "")
            if spec
            else ""
        )
        money = ""
        for param in ((spec or {}).get("parameters") or {}).get("properties", {}).values():
            found = re.search(
                r"[（(]\s*(元|人民币|美元|块)\s*[)）]|单位[:：是为]\s*(元|人民币|美元)",
                str((param or {}).get("description", "")),
            )
            if found:
                money = found.group(1) or found.group(2)
                break
        return CallView(
            frozenset(echoes),
            frozenset(numbers),
            unit,
            currency,
            words,
            extra,
            noun,
            str(spec.get("description", "") or "") if spec else "",
            "元" if money in ("人民币", "块") else money,
        )

    def label(self, key: str, lang: str) -> str:
        """A field's label; a field named by the last word of the tool's name takes the whole name
        when the table knows it (``rate`` of ``get_exchange_rate`` → 汇率, ``price`` of
        ``get_stock_price`` → 股价).
        """
        words = words_of(key)
        if words == ["rate"] and self.currency:
            return field_label(
                "exchange_rate", lang
            )  # a rate between the currencies the call named
        compound = "_".join(self.tool_words)
        if (
            len(words) == 1
            and len(self.tool_words) > 1
            and self.tool_words[-1] == words[0]
            and compound in WORDS
        ):
            return field_label(compound, lang)
        label = field_label(key, lang, dict(self.extra))
        return self.described(key, label) if lang == "zh" else label

    def described(self, key: str, label: str) -> str:
        """The word the tool's own description uses for a field, when it names one of the field's
        synonyms: 姓名 for ``name`` of a tool that "查询客户资料，包括姓名、会员等级…", and 会员等级
        for ``level``."""
        if not self.description:
            return label
        options = [w for w in synonyms(key) if w and w in self.description]
        if label and label in self.description:
            options.append(label)
        longest = max(options, key=len, default="")
        return longest if len(longest) >= len(label) or not label else label

    def list_label(self, key: str, lang: str) -> str:
        """A list's label. In Chinese, when the noun of its name is unknown or not the word the
        tool's description uses for what it returns, that word (``free_rooms`` of "查询…空闲的会议室
        " → 空闲会议室, not 空闲房间)."""
        label = self.label(key, lang)
        if lang != "zh" or not self.noun:
            return label
        words = [w for w in words_of(key) if w not in NOISE]
        modifiers = [w for w in words if w in MODIFIERS]
        rest = [w for w in words if w not in MODIFIERS]
        noun = field_label("_".join(rest), lang, dict(self.extra)) if rest else ""
        if re.search(f"[{CJK_RANGE}]", noun) and noun in self.description:
            return label
        front = field_label("_".join(modifiers), lang, dict(self.extra)) if modifiers else ""
        return (front if re.search(f"[{CJK_RANGE}]", front) else "") + self.noun

    def echoed(self, key: str, value: Any) -> bool:
        """Whether a result field only repeats the call's own argument (a list: every item is one of
        the arguments).
        """
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            items = [v for v in value if v not in ("…", "...")]
            return bool(items) and all(echo_keys(v) & self.echoes for v in items)
        if isinstance(value, (dict, list)) or isinstance(value, bool):
            return False
        if isinstance(value, (int, float)):
            return (key.lower(), format_number(value)) in self.numbers
        if echo_keys(value) & self.echoes:
            return True
        parts = [p for p in re.split(r"\s*(?:/|->|→| to |-)\s*", str(value)) if p]
        return len(parts) > 1 and all(
            echo_keys(p) & self.echoes for p in parts
        )  # "JPY/CNY" after asking JPY to CNY


def echo_keys(value: Any) -> set[str]:
    """Forms under which a value counts as the same (USD = 美元, Beijing = 北京, tomorrow = 明
    天).
    """
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return set()
    text = normalize(str(value)).strip().lower()
    keys = {text}
    if isinstance(value, (int, float)):
        keys.add(format_number(value))
    keys |= {f"concept:{c.family}:{c.key}" for c in concepts_of(value)}
    for zh, en in CITIES.items():
        if text in (zh, en.lower(), zh + "市"):
            keys.add(f"city:{zh}")
    return keys


# ---------------------------------------------------------------------------------------------
# Scalars
# ---------------------------------------------------------------------------------------------

_DATE = re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$")
_DATETIME = re.compile(
    r"^(\d{4})-(\d{1,2})-(\d{1,2})["
    r" T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$"
)
_CLOCK = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?$")


def _weekday_name(key: str, lang: str) -> str:
    for concept in concepts_of(key):
        if concept.family == "weekday":
            return concept.zh[0] if lang == "zh" else concept.en[0].capitalize()
    return key


def weekday_key(value: Any) -> str | None:
    return (
        next((c.key for c in concepts_of(value) if c.family == "weekday"), None)
        if isinstance(value, str)
        else None
    )


def parse_moment(value: Any) -> Moment | None:
    """A date, a time of day, a date-time or a weekday written as a string; ``None`` for anything
    else.
    """
    if not isinstance(value, str):
        return None
    text = value.strip()
    try:
        match = _DATETIME.match(text)
        if match:
            zone = None if not match[7] or match[7] in ("Z", "+00:00", "+0000") else match[7]
            return Moment(
                date(int(match[1]), int(match[2]), int(match[3])),
                (int(match[4]), int(match[5]), int(match[6] or 0)),
                zone=zone if zone else ("UTC" if match[7] else None),
            )
        match = _DATE.match(text)
        if match:
            return Moment(date(int(match[1]), int(match[2]), int(match[3])))
    except ValueError:
        return None
    match = _CLOCK.match(text)
    if match and int(match[1]) < 24:
        return Moment(clock=(int(match[1]), int(match[2]), int(match[3] or 0)))
    key = weekday_key(text)
    return Moment(weekday=key) if key and len(text) > 2 else None


def show_number(value: float | int) -> str:
    """``153``, ``7.2``, ``12,345`` (thousands separated from five digits on)."""
    text = format_number(value)
    if re.fullmatch(r"-?\d{5,}", text):
        return f"{int(text):,}"
    return text


_SHOWN_FAMILIES = (
    "currency",
    "day",
    "weekday",
    "temperature",
    "priority",
    "language",
    "order",
    "channel",
)


def show_text(value: str, lang: str, field: str = "") -> str:
    """A string value for the reader: a code as its name (USD → 美元), long text shortened. A code
    is read as a priority only in a field about priority (a membership ``level`` of ``normal`` is no
    "中" priority)."""
    text = " ".join(str(value).split()).rstrip(
        "。；;"
    )  # inside a sentence, the value's own full stop goes
    families = (
        _SHOWN_FAMILIES
        if not field or re.search(r"priorit|urgen|优先|紧急", field, re.I)
        else tuple(f for f in _SHOWN_FAMILIES if f != "priority")
    )
    named = display_name(text, lang, families)
    if named:
        return named
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT].rstrip() + "…"


def localize_codes(text: str, lang: str) -> str:
    """Currency codes inside a sentence written as names for a Chinese reader ("1 USD = 7.2 CNY" →
    "1 美元 = 7.2 人民币").
    """
    if lang != "zh":
        return text
    return re.sub(
        r"(?<![A-Za-z])[A-Z]{3}(?![A-Za-z])",
        lambda m: display_name(m.group(0), "zh", ("currency",)) or m.group(0),
        text,
    )


def compact_caveat(text: str, lang: str) -> str:
    """A note as a short qualifier: "示例汇率，不是实时行情" → "示例汇率，非实时"."""
    text = " ".join(str(text).split()).strip().rstrip("。.!！")
    text = re.sub(r"(?:不是|并非|并不是|非)实时\S*?(?=[，,；;]|$)", "非实时", text)
    if lang == "en":
        text = re.sub(r"not real[- ]?time\b[^,;]*", "not live", text, flags=re.I)
        parts = [
            _CAVEAT_EN.get(part, "sample data" if part.startswith("示例") else part)
            for part in re.split(r"[，,；;]\s*", text)
        ]
        text = ", ".join(p for p in parts if p)
    return text


_CAVEAT_EN = {
    "非实时": "not live",
    "示例数据": "sample data",
    "示例汇率": "sample rates",
    "示例": "sample data",
    "仅供参考": "for reference only",
    "模拟数据": "simulated data",
    "测试数据": "test data",
}


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------


def read_data(
    value: Any, lang: str, call: CallView = CallView(), *, unit: str = "", currency: str = ""
) -> Reading:
    """The facts in a result's data (see the module docstring); ``unit``/``currency`` come from an
    enclosing object.
    """
    reading = Reading()
    if isinstance(value, bool):
        reading.facts.append(
            Fact(
                "",
                (
                    "是"
                    if lang == "zh" and value
                    else "否"
                    if lang == "zh"
                    else "yes"
                    if value
                    else "no"
                ),
                "",
                "flag",
                truth=value,
            )
        )
    elif isinstance(value, (int, float)):
        reading.number = float(value)
        unit = call.unit[0 if lang == "zh" else 1] if call.unit else ""
        reading.facts.append(
            Fact(
                "",
                _with_unit(show_number(value), unit, lang),
                "",
                "number",
                numbers=(format_number(value),),
            )
        )
    elif isinstance(value, str):
        _read_string(value, lang, reading)
    elif isinstance(value, list):
        reading.facts.append(_read_list("", value, lang, call, reading, unit, currency))
    elif isinstance(value, dict):
        _read_dict(value, lang, call, reading, unit, currency)
    return reading


def _read_string(value: str, lang: str, reading: Reading) -> None:
    text = value.strip()
    if not text:
        return
    moment = parse_moment(text)
    if moment:
        reading.facts.append(Fact("", moment.text(lang), "", "moment", moment=moment))
        return
    if re.fullmatch(r"-?\d+(?:\.\d+)?", text):
        reading.number = float(text)
        reading.facts.append(
            Fact("", show_number(float(text)), "", "number", numbers=(format_number(float(text)),))
        )
        return
    statement = localize_codes(show_text(text, lang), lang)
    reading.facts.append(
        Fact("", statement, "", "statement", numbers=tuple(re.findall(r"\d+(?:\.\d+)?", statement)))
    )


def _is_caveat(key: str, value: Any) -> bool:
    lowered = key.lower()
    if lowered in CAVEAT_FIELDS and isinstance(value, str):
        return True
    return (
        isinstance(value, str)
        and len(value) <= 80
        and bool(_CAVEAT_WORDS.search(value))
        and lowered not in STATEMENT
    )


def _flag_caveat(key: str, value: Any, lang: str) -> str | None:
    lowered = key.lower()
    if value is True and lowered in SAMPLE_FLAGS:
        return "示例数据" if lang == "zh" else "sample data"
    if value is False and lowered in LIVE_FLAGS:
        return "非实时" if lang == "zh" else "not live"
    return None


def _unit_of(key: str, value: Any, lang: str) -> str:
    """A unit named by a ``unit`` field's value: "摄氏度", "°C", or the value itself."""
    text = str(value).strip()
    for concept in concepts_of(text):
        if concept.family in ("temperature", "length", "weight"):
            return short_name(concept, lang)
    return text


def _with_unit(number: str, unit: str, lang: str) -> str:
    if not unit:
        return number
    if unit == "%":
        return number + "%"
    return f"{number} {unit}"


def _money_unit(code: str, lang: str) -> str:
    if lang != "zh":
        return code
    if code.upper() == "CNY":
        return "元"
    return display_name(code, "zh", ("currency",)) or code


def _field_unit(key: str, lang: str, unit: str, currency: str, call: CallView) -> str:
    words = words_of(key)
    side = 0 if lang == "zh" else 1
    if len(words) > 1 and words[-1] in UNIT_SUFFIXES:
        return UNIT_SUFFIXES[words[-1]][side]
    if len(words) > 1 and words[-1].upper() in {"CNY", "USD", "EUR", "JPY", "GBP", "HKD"}:
        return _money_unit(words[-1].upper(), lang)
    for word in words:
        if word in IMPLIED_UNITS:
            return IMPLIED_UNITS[word][side]
    if set(words) & _COUNT_WORDS:
        return ""
    currency = currency or call.currency
    if currency and (set(words) & MONEY_WORDS or key in MONEY_WORDS):
        return _money_unit(currency, lang)
    if call.money and (set(words) & MONEY_WORDS or key in MONEY_WORDS):
        return (
            call.money
            if lang == "zh"
            else {"元": "yuan", "美元": "USD"}.get(call.money, call.money)
        )  # "单价（元）": totals in 元 too
    if unit:
        return unit
    if call.unit and not currency:
        return call.unit[side]
    return ""


def _label(key: str, lang: str, call: CallView) -> str:
    label = call.label(key, lang)
    return "" if key.lower() in SELF_DESCRIBING or key in SELF_DESCRIBING else label


def _read_dict(
    data: dict[str, Any],
    lang: str,
    call: CallView,
    reading: Reading,
    outer_unit: str = "",
    outer_currency: str = "",
) -> None:
    # A dict that only wraps the data ({"data": {...}}, {"result": [...]}) is read as its contents.
    keys = [k for k in data if data[k] not in (None, "")]
    if len(keys) == 1 and keys[0].lower() in WRAPPERS and isinstance(data[keys[0]], (dict, list)):
        inner = read_data(data[keys[0]], lang, call, unit=outer_unit, currency=outer_currency)
        reading.facts += inner.facts
        reading.caveats += inner.caveats
        return

    unit = next(
        (
            _unit_of(k, v, lang)
            for k, v in data.items()
            if k.lower() in UNIT_FIELDS and isinstance(v, str)
        ),
        outer_unit,
    )
    currency = next(
        (str(v) for k, v in data.items() if k.lower() in CURRENCY_FIELDS and isinstance(v, str)),
        outer_currency,
    )
    rest: dict[str, Any] = {}
    for key, value in data.items():
        lowered = key.lower()
        if (
            value is None
            or value == ""
            or lowered in UNIT_FIELDS
            or (lowered in CURRENCY_FIELDS and isinstance(value, str))
        ):
            continue
        flag = _flag_caveat(key, value, lang) if isinstance(value, bool) else None
        if flag:
            reading.caveats.append(flag)
        elif _is_caveat(key, value):
            reading.caveats.append(compact_caveat(value, lang))
        elif call.echoed(key, value):
            continue  # the call's own argument coming back: the sentence names it as its subject
        else:
            rest[key] = value

    # The moment: generic date/time/weekday fields together.
    moment_keys = [
        k
        for k, v in rest.items()
        if k.lower() in MOMENT_FIELDS and (parse_moment(v) or weekday_key(v))
    ]
    if moment_keys:
        moment = Moment()
        for key in moment_keys:
            part = parse_moment(rest.pop(key))
            if part:
                moment = Moment(
                    part.day or moment.day,
                    part.clock or moment.clock,
                    part.weekday or moment.weekday,
                    part.zone or moment.zone,
                )
        zone = next(
            (
                str(rest.pop(k))
                for k in list(rest)
                if k.lower() in ("timezone", "tz", "time_zone", "时区")
            ),
            None,
        )
        if zone:
            moment = Moment(moment.day, moment.clock, moment.weekday, zone)
        reading.facts.append(
            Fact("", moment.text(lang), "+".join(moment_keys), "moment", moment=moment)
        )
        for key in [k for k in rest if k.lower() in ("timestamp", "epoch", "unix_time", "unix")]:
            rest.pop(key)  # the same moment again, as a number

    # Ranges: temp_low/temp_high, min_price/max_price, low/high.
    for low_key, high_key, stem_key in _range_pairs(rest):
        low, high = rest.pop(low_key), rest.pop(high_key)
        key_unit = _field_unit(stem_key or low_key, lang, unit, currency, call)
        span = (
            show_number(low)
            if low == high
            else (
                f"{show_number(low)} 到 {show_number(high)}"
                if lang == "zh"
                else f"{show_number(low)} to {show_number(high)}"
            )
        )
        reading.facts.append(
            Fact(
                _label(stem_key, lang, call) if stem_key else "",
                _with_unit(span, key_unit, lang),
                f"{low_key}+{high_key}",
                "number",
                frozenset(asked_words(low_key, lang) | asked_words(high_key, lang)),
                (format_number(low), format_number(high)),
            )
        )

    for key, value in rest.items():
        reading.facts.append(_read_field(key, value, lang, call, unit, currency, reading))
    _drop_restated(reading)


def _range_pairs(fields: dict[str, Any]) -> list[tuple[str, str, str]]:
    numeric = {
        k: v for k, v in fields.items() if isinstance(v, (int, float)) and not isinstance(v, bool)
    }
    by_stem: dict[str, dict[str, str]] = {}
    for key in numeric:
        words = words_of(key)
        ends = [w for w in words if w in _LOW or w in _HIGH]
        if len(ends) != 1:
            continue
        stem_key = "_".join(w for w in words if w not in _LOW and w not in _HIGH)
        by_stem.setdefault(stem_key, {})["low" if ends[0] in _LOW else "high"] = key
    return [
        (pair["low"], pair["high"], stem_key)
        for stem_key, pair in by_stem.items()
        if len(pair) == 2
    ]


def _read_field(
    key: str, value: Any, lang: str, call: CallView, unit: str, currency: str, reading: Reading
) -> Fact:
    label = _label(key, lang, call)
    # a question may ask with the label's own words ("什么会员" for 会员等级)
    asked = frozenset(asked_words(key, lang)) | frozenset(
        label[i : i + 2]
        for i in range(len(label) - 1)
        if re.fullmatch(f"[{CJK_RANGE}]{{2}}", label[i : i + 2])
    )
    if isinstance(value, bool):
        words = flag_words(key)
        if words:
            return Fact(
                "",
                words[0 if value else 1] if lang == "zh" else words[2 if value else 3],
                key,
                "flag",
                asked,
                truth=value,
            )
        yes_no = ("是" if value else "否") if lang == "zh" else ("yes" if value else "no")
        return Fact(call.label(key, lang) or key, yes_no, key, "flag", asked, truth=value)
    if isinstance(value, (int, float)):
        return Fact(
            call.label(key, lang),
            _with_unit(show_number(value), _field_unit(key, lang, unit, currency, call), lang),
            key,
            "number",
            asked,
            (format_number(value),),
        )
    if isinstance(value, list):
        return _read_list(key, value, lang, call, reading, unit, currency)
    if isinstance(value, dict):
        inner = read_data(value, lang, call, unit=unit, currency=currency)
        reading.caveats += inner.caveats
        joined = ("，" if lang == "zh" else ", ").join(
            fact_phrase(f, lang) for f in inner.facts[:4]
        )
        numbers = tuple(n for f in inner.facts for n in f.numbers)
        return Fact(
            call.label(key, lang),
            joined,
            key,
            "group",
            asked | frozenset(w for f in inner.facts for w in f.asked),
            numbers,
        )
    text = str(value).strip()
    moment = parse_moment(text)
    if moment:
        connector = "于" if any(label.endswith(verb) for verb in _TIME_VERBS) else ""
        return Fact(
            call.label(key, lang),
            moment.text(lang),
            key,
            "date",
            asked,
            connector=connector,
            moment=moment,
        )
    status = status_words(key, text)
    if status:  # "sent" reads 已发送 in a Chinese answer
        return Fact(
            label, status[0 if lang == "zh" else 1], key, "text", asked, status=text.strip().lower()
        )
    if key.lower() in STATEMENT or key in STATEMENT:
        statement = localize_codes(show_text(text, lang), lang)
        return Fact(
            "", statement, key, "statement", asked, tuple(re.findall(r"\d+(?:\.\d+)?", statement))
        )
    return Fact(
        label,
        show_text(text, lang, key),
        key,
        "text",
        asked,
        tuple(re.findall(r"\d+(?:\.\d+)?", text)),
    )


def _drop_restated(reading: Reading) -> None:
    """A statement that says a number or a value already stands in for the fact that holds it
    alone.
    """
    statements = [f for f in reading.facts if f.kind == "statement"]
    if not statements:
        return
    said = " ".join(s.value for s in statements)
    said_numbers = {n for s in statements for n in s.numbers}
    kept = []
    for fact in reading.facts:
        if (
            fact.kind in ("number", "text")
            and fact.numbers
            and all(n in said_numbers for n in fact.numbers)
        ):
            continue
        if fact.kind == "text" and fact.value and fact.value in said:
            continue
        kept.append(fact)
    reading.facts = kept


def _primary(item: dict[str, Any]) -> str | None:
    for key, value in item.items():
        words = set(words_of(key))
        if (
            (words & _PRIMARY_WORDS or key.lower().endswith("_id"))
            and isinstance(value, (str, int))
            and not isinstance(value, bool)
        ):
            return key
    return next(
        (k for k, v in item.items() if isinstance(v, str) and v.strip() and not parse_moment(v)),
        None,
    )


def _display_name_key(item: dict[str, Any], primary: str | None) -> str | None:
    """A field holding the name people use (``name``, ``title``), when the primary field is an id
    beside it.
    """
    if not primary or not (primary.lower().endswith("id") or "id" in words_of(primary)):
        return None
    return next(
        (
            k
            for k, v in item.items()
            if k != primary
            and isinstance(v, str)
            and v.strip()
            and set(words_of(k)) & {"name", "title", "名称", "名字"}
        ),
        None,
    )


def _read_list(
    key: str,
    items: list[Any],
    lang: str,
    call: CallView,
    reading: Reading,
    unit: str = "",
    currency: str = "",
) -> Fact:
    zh = lang == "zh"
    label = call.list_label(key, lang) if key else ""
    asked = frozenset(asked_words(key, lang)) if key else frozenset()
    shown: list[str] = []
    numbers: list[str] = []
    items = [item for item in items if item is not None and item != ""]
    if not items:
        return Fact(label, "无" if zh else "none", key, "list", asked, count=0)
    for item in items[:MAX_ITEMS]:
        if isinstance(item, dict):
            primary = _primary(item)
            named = _display_name_key(item, primary)
            if (
                named
            ):  # "A301（room_301，A 座 3 楼，容量 8）": the name people use first, the id beside it
                primary, item = (
                    named,
                    {
                        named: item[named],
                        **{k: v for k, v in item.items() if k != named},
                    },
                )
            inner = read_data(
                {k: v for k, v in item.items() if k != primary},
                lang,
                call,
                unit=unit,
                currency=currency,
            )
            reading.caveats += [c for c in inner.caveats if c not in reading.caveats]
            details = [
                fact_phrase(f, lang, compact=True)
                for f in inner.facts[: 3 if not named else 4]
                if f.value
            ]
            moment = parse_moment(item[primary]) if primary else None
            head = (
                (moment.text(lang) if moment else show_text(str(item[primary]), lang))
                if primary
                else ""
            )
            numbers += [n for f in inner.facts for n in f.numbers]
            if head and details:
                shown.append(
                    f"{head}（{'，'.join(details)}）" if zh else f"{head} ({', '.join(details)})"
                )
            else:
                shown.append(head or ("，".join(details) if zh else ", ".join(details)))
        elif isinstance(item, (list, tuple)):
            inner = read_data(list(item), lang, call, unit=unit, currency=currency)
            shown.append("".join(f.value for f in inner.facts))
        elif isinstance(item, bool):
            shown.append(("是" if item else "否") if zh else ("yes" if item else "no"))
        elif isinstance(item, (int, float)):
            shown.append(show_number(item))
            numbers.append(format_number(item))
        else:
            moment = parse_moment(item)
            shown.append(moment.text(lang) if moment else show_text(str(item), lang))
    text = join_list([s for s in shown if s], lang)
    if len(items) > MAX_ITEMS:
        text += f" 等 {len(items)} 项" if zh else f" and {len(items) - MAX_ITEMS} more"
    return Fact(label, text, key, "list", asked, tuple(numbers), count=len(items))


def join_list(values: list[str], lang: str) -> str:
    """``A、B 和 C`` / ``A, B and C``."""
    if len(values) <= 1:
        return "".join(values)
    if lang == "zh":
        return join_words(join_words("、".join(values[:-1]), "和"), values[-1])
    return ", ".join(values[:-1]) + " and " + values[-1]


def fact_phrase(fact: Fact, lang: str, *, lead: bool = False, compact: bool = False) -> str:
    """One fact as a phrase inside a sentence: "多云", "最高温度 15 摄氏度", "承运商为顺丰",
    "updated 11 March 2026".

    ``lead``: the phrase opens the sentence after its subject ("北京的温度为 …"), so it always takes
    为. ``compact``: inside the brackets of a list item, words speak for themselves ("A 座 3 楼",
    not "位置为 A 座 3 楼").
    """
    if not fact.label or compact and fact.kind in ("statement", "flag"):
        return fact.value
    if compact and fact.kind == "text" and set(words_of(fact.field)) & _PLAIN_FIELDS:
        return fact.value  # "A 座 3 楼" says it is a place; "作者王五" still needs its label
    if compact and lang == "zh":
        return join_words(fact.label + fact.connector, fact.value)
    if lang == "zh":
        if fact.kind == "group" and not lead:
            return f"{fact.label}（{fact.value}）"
        if fact.kind in ("number", "list") and not lead and not fact.connector:
            return join_words(fact.label, fact.value)
        connector = fact.connector or (
            "" if fact.kind == "flag" and fact.value not in ("是", "否") else "为"
        )
        return join_words(fact.label + connector, fact.value)
    return f"{fact.label} {fact.value}"


def join_words(left: str, right: str) -> str:
    """Two pieces of Chinese text, with a space where Latin letters or digits meet Chinese
    characters.
    """
    if not left or not right:
        return left + right
    a, b = left[-1], right[0]
    cjk = re.compile(f"[{CJK_RANGE}]")
    if (a.isascii() and a.isalnum() and (cjk.match(b) or b.isascii() and b.isalnum())) or (
        cjk.match(a) and b.isascii() and b.isalnum()
    ):
        return f"{left} {right}"
    return left + right


__all__ = [
    "Fact",
    "Reading",
    "Moment",
    "CallView",
    "read_data",
    "parse_moment",
    "fact_phrase",
    "join_words",
    "join_list",
    "show_number",
    "show_text",
    "localize_codes",
    "compact_caveat",
    "echo_keys",
]
