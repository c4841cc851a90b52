"""Named values and the words people use for them: currencies, units, weekdays, yes/no, priorities,
languages …

A *concept* is one value under all its spellings: the codes a schema may use (``USD``, ``usd``),
Chinese words (美元, 美金) and English words (dollar, US dollar). Concepts come in families
(``currency``, ``temperature``, ``weekday`` …). Two readers use them:

- argument filling maps the words of a request onto whatever spelling an enum uses: 美元 → ``"USD"``
  for ``enum: ["USD", "CNY"]``, → ``"美元"`` for ``enum: ["美元", "人民币"]``, 华氏 → ``"f"`` for
  ``enum: ["c", "f"]``. An enum is read as one family, the one that covers most of its values, so
  ``"M"`` is a size in ``["S", "M", "L"]`` and a metre in ``["m", "km", "mi"]``;
- the answer composer writes codes found in results as words for a Chinese reader (``USD`` → 美元).

A lone Chinese character (高, 中, 低, 大, 米 …) is a word only where it stands on its own
("优先级设为高", "高优先级", "5 米"), never inside a longer word (提高, 中文, 大米).

Left out: spellings beyond these lists, plurals beyond the ones listed, and families a course tool
is unlikely to use (colours, countries, time zones).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from .lexicon import CURRENCIES
from .text import CJK_RANGE, normalize


@dataclass(frozen=True)
class Concept:
    key: str  # the canonical code
    family: str
    codes: tuple[str, ...]  # spellings a schema may use as the value (matched case-insensitively)
    zh: tuple[str, ...]  # Chinese words, the first is the name shown to a reader
    en: tuple[str, ...]  # English words, the first is the name shown to a reader

    def forms(self) -> tuple[str, ...]:
        return self.codes + self.zh + self.en


def _currencies() -> list[Concept]:
    extra_zh = {"CNY": ("元人民币",), "USD": ("美刀",), "JPY": ("日圆",), "HKD": ("港幣",)}
    symbols = {"USD": ("$", "us$"), "EUR": ("€",), "GBP": ("£",)}
    concepts = []
    for code, names in CURRENCIES.items():
        zh = tuple(n for n in names if re.search(f"[{CJK_RANGE}]", n)) + extra_zh.get(code, ())
        en = tuple(n for n in names if not re.search(f"[{CJK_RANGE}]", n)) + symbols.get(code, ())
        concepts.append(Concept(code, "currency", (code,), zh, en or (code,)))
    return concepts


def _c(family: str, key: str, codes: str, zh: str, en: str) -> Concept:
    return Concept(
        key,
        family,
        tuple(codes.split("|")) if codes else (),
        tuple(zh.split("|")) if zh else (),
        tuple(en.split("|")) if en else (),
    )


CONCEPTS: tuple[Concept, ...] = tuple(_currencies()) + (
    # temperature
    _c(
        "temperature",
        "celsius",
        "c|celsius|°c|℃|degc|centigrade|摄氏度",
        "摄氏度|摄氏|℃",
        "celsius|centigrade|degrees celsius",
    ),
    _c(
        "temperature",
        "fahrenheit",
        "f|fahrenheit|°f|℉|degf|华氏度",
        "华氏度|华氏|℉",
        "fahrenheit|degrees fahrenheit",
    ),
    _c("temperature", "kelvin", "k|kelvin", "开尔文|开氏度", "kelvin"),
    # length
    _c(
        "length",
        "km",
        "km|kilometer|kilometers|kilometre|kilometres|公里",
        "公里|千米",
        "kilometers|kilometer|kilometres|km",
    ),
    _c("length", "m", "m|meter|meters|metre|metres|米", "米", "meters|meter|metres"),
    _c("length", "cm", "cm|centimeter|centimeters|厘米", "厘米", "centimeters|centimeter"),
    _c("length", "mm", "mm|millimeter|millimeters|毫米", "毫米", "millimeters|millimeter"),
    _c("length", "mi", "mi|mile|miles|英里", "英里", "miles|mile"),
    _c("length", "ft", "ft|foot|feet|英尺", "英尺", "feet|foot"),
    _c("length", "in", "in|inch|inches|英寸", "英寸", "inches|inch"),
    # weight
    _c(
        "weight",
        "kg",
        "kg|kilogram|kilograms|千克|公斤",
        "公斤|千克",
        "kilograms|kilogram|kilos|kilo",
    ),
    _c("weight", "g", "g|gram|grams|克", "克", "grams|gram"),
    _c("weight", "lb", "lb|lbs|pound|pounds|磅", "磅", "pounds|pound|lbs"),
    _c("weight", "oz", "oz|ounce|ounces|盎司", "盎司", "ounces|ounce"),
    _c("weight", "t", "t|ton|tons|tonne|tonnes|吨", "吨", "tonnes|tons|ton|tonne"),
    # weekdays
    _c("weekday", "monday", "monday|mon|周一|星期一", "星期一|周一|礼拜一", "monday"),
    _c("weekday", "tuesday", "tuesday|tue|tues|周二|星期二", "星期二|周二|礼拜二", "tuesday"),
    _c("weekday", "wednesday", "wednesday|wed|周三|星期三", "星期三|周三|礼拜三", "wednesday"),
    _c(
        "weekday",
        "thursday",
        "thursday|thu|thur|thurs|周四|星期四",
        "星期四|周四|礼拜四",
        "thursday",
    ),
    _c("weekday", "friday", "friday|fri|周五|星期五", "星期五|周五|礼拜五", "friday"),
    _c("weekday", "saturday", "saturday|sat|周六|星期六", "星期六|周六|礼拜六", "saturday"),
    _c(
        "weekday",
        "sunday",
        "sunday|sun|周日|星期日|星期天",
        "星期日|星期天|周日|周天|礼拜天|礼拜日",
        "sunday",
    ),
    # relative days
    _c("day", "today", "today|今天", "今天|今日|现在|当前|目前", "today|now"),
    _c("day", "tomorrow", "tomorrow|明天", "明天|明日", "tomorrow"),
    _c("day", "day_after_tomorrow", "day_after_tomorrow|后天", "后天", "day after tomorrow"),
    _c("day", "yesterday", "yesterday|昨天", "昨天|昨日", "yesterday"),
    # yes / no
    _c("yesno", "yes", "yes|y|true|是", "是|是的|要|需要|对|好的|同意", "yes|yeah|sure"),
    _c("yesno", "no", "no|n|false|否", "否|不|不要|不需要|不用", "no|nope"),
    # priority
    _c(
        "priority",
        "urgent",
        "urgent|critical|highest|p0|blocker|紧急",
        "紧急|加急|特急|十万火急|最高",
        "urgent|critical|asap",
    ),
    _c("priority", "high", "high|p1|important|高", "高|重要", "high|important"),
    _c(
        "priority",
        "medium",
        "medium|normal|mid|moderate|p2|中",
        "中|中等|一般|普通",
        "medium|normal|moderate",
    ),
    _c("priority", "low", "low|p3|minor|lowest|低", "低|不急", "low|minor"),
    # languages
    _c(
        "language",
        "zh",
        "zh|zh-cn|zh_cn|cn|chinese|chs|中文",
        "中文|汉语|简体中文|普通话",
        "chinese|mandarin",
    ),
    _c("language", "en", "en|en-us|en_us|english|英文", "英文|英语", "english"),
    _c("language", "ja", "ja|jp|japanese|日文", "日文|日语", "japanese"),
    _c("language", "ko", "ko|kr|korean|韩文", "韩文|韩语", "korean"),
    _c("language", "fr", "fr|french|法文", "法文|法语", "french"),
    _c("language", "de", "de|german|德文", "德文|德语", "german"),
    _c("language", "es", "es|spanish|西班牙文", "西班牙文|西班牙语", "spanish"),
    _c("language", "ru", "ru|russian|俄文", "俄文|俄语", "russian"),
    # sort order
    _c(
        "order",
        "asc",
        "asc|ascending|升序",
        "升序|从小到大|从低到高|从早到晚",
        "ascending|oldest first",
    ),
    _c(
        "order",
        "desc",
        "desc|descending|降序",
        "降序|从大到小|从高到低|从晚到早|最新",
        "descending|newest first|latest first",
    ),
    # sizes
    _c("size", "small", "s|small|sm|小", "小号|小杯|小份|小", "small"),
    _c("size", "medium", "m|medium|md|中", "中号|中杯|中份|中", "medium"),
    _c("size", "large", "l|large|lg|大", "大号|大杯|大份|大", "large"),
    _c("size", "xl", "xl|extra_large|extra-large|特大", "特大|超大|加大", "extra large"),
    # notification channels
    _c("channel", "sms", "sms|text|短信", "短信|手机短信", "sms|text message"),
    _c("channel", "email", "email|mail|e-mail|邮件", "邮件|邮箱|电子邮件", "email|e-mail|mail"),
    _c("channel", "in_app", "in_app|app|site|站内信", "站内信|应用内", "in-app|in app"),
    _c("channel", "phone", "phone|call|voice|电话", "电话|打电话", "phone|phone call"),
    _c("channel", "wechat", "wechat|weixin|微信", "微信", "wechat"),
    # ways of paying
    _c("payment", "cash", "cash|现金", "现金|付现", "cash"),
    _c(
        "payment",
        "card",
        "card|bank_card|credit_card|debit_card|刷卡",
        "刷卡|银行卡|信用卡|刷的卡",
        "card|credit card|debit card",
    ),
    _c("payment", "wechat_pay", "wechat|wechat_pay|weixin|微信", "微信|微信支付", "wechat pay"),
    _c("payment", "alipay", "alipay|zhifubao|支付宝", "支付宝", "alipay"),
    # ways of travelling
    _c("travel", "driving", "driving|drive|car|驾车", "驾车|开车|自驾", "driving|by car"),
    _c("travel", "walking", "walking|walk|步行", "步行|走路", "walking|on foot"),
    _c(
        "travel",
        "transit",
        "transit|public_transport|bus|公交",
        "公交|地铁|公共交通",
        "public transport|transit",
    ),
    _c("travel", "cycling", "cycling|bike|bicycle|骑行", "骑行|骑车|自行车", "cycling|by bike"),
    # how often
    _c("period", "daily", "daily|day|每天", "每天|每日|按天", "daily|every day"),
    _c("period", "weekly", "weekly|week|每周", "每周|每星期|按周", "weekly|every week"),
    _c("period", "monthly", "monthly|month|每月", "每月|每个月|按月", "monthly|every month"),
    _c(
        "period",
        "yearly",
        "yearly|annual|annually|year|每年",
        "每年|按年",
        "yearly|annually|every year",
    ),
    # gender
    _c("gender", "male", "male|m|man|男", "男|男性", "male|man"),
    _c("gender", "female", "female|f|woman|女", "女|女性", "female|woman"),
)

# Characters a lone-character word may touch on either side ("设为高", "高优先级", "5米").
_LONE_BEFORE = set(
    "为是设成选用要级改调按个约共张份条件项间台把封"
)  # "设为高", "一张低优先级的工单"
_LONE_AFTER = set("级档号杯码优等的一点份")


def _key(text: Any) -> str:
    return normalize(str(text)).strip().lower()


@cache
def _by_form() -> dict[str, tuple[Concept, ...]]:
    table: dict[str, list[Concept]] = {}
    for concept in CONCEPTS:
        for form in concept.forms():
            table.setdefault(_key(form), []).append(concept)
    return {form: tuple(dict.fromkeys(found)) for form, found in table.items()}


def concepts_of(value: Any) -> tuple[Concept, ...]:
    """Every concept one of whose spellings is ``value`` (a code may belong to several families)."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return ()
    return _by_form().get(_key(value), ())


def enum_family(values: Iterable[Any]) -> str | None:
    """The family that covers most of an enum's values (at least one), or ``None``."""
    counts: dict[str, int] = {}
    for value in values:
        for family in {c.family for c in concepts_of(value)}:
            counts[family] = counts.get(family, 0) + 1
    if not counts:
        return None
    return max(counts, key=lambda family: (counts[family], -list(counts).index(family)))


def words_for_enum(values: list[Any]) -> dict[Any, list[str]]:
    """Each enum value's words, from its family's concepts: {"USD": ["USD", "美元", "美金",
    "dollar", …]}.
    """
    try:
        return dict(_words_for_enum(tuple(values)))
    except TypeError:  # an unhashable value in the enum: no cache
        return _words_for_enum.__wrapped__(tuple(values))


@lru_cache(maxsize=1024)
def _words_for_enum(values: tuple[Any, ...]) -> dict[Any, list[str]]:
    family = enum_family(values)
    result: dict[Any, list[str]] = {}
    for value in values:
        words: list[str] = []
        for concept in concepts_of(value):
            if concept.family == family:
                words += [
                    w
                    for w in concept.forms()
                    if len(w) > 1 or re.fullmatch(f"[{CJK_RANGE}$€£℃℉]", w)
                ]
        result[value] = list(dict.fromkeys(words))
    return result


def lone_character_ok(text: str, start: int, word: str) -> bool:
    """A one-character Chinese word counts only where it stands on its own (see the module
    docstring).
    """
    if len(word) != 1 or not re.fullmatch(f"[{CJK_RANGE}]", word):
        return True
    before = text[start - 1] if start > 0 else ""
    after = text[start + 1] if start + 1 < len(text) else ""
    if re.search(r"\d\s*$", text[:start]):
        return True  # "500 克", "5米": a unit right after its number
    cjk = re.compile(f"[{CJK_RANGE}]")
    return (not before or not cjk.fullmatch(before) or before in _LONE_BEFORE) and (
        not after or not cjk.fullmatch(after) or after in _LONE_AFTER
    )


def short_name(concept: Concept, lang: str) -> str:
    """The name a reader expects: 美元 / USD, 摄氏度 / °C, 公里 / km, 明天 / tomorrow."""
    if lang == "zh":
        return concept.zh[0] if concept.zh else concept.key
    if concept.family == "temperature":
        return {"celsius": "°C", "fahrenheit": "°F"}.get(concept.key, "K")
    if concept.family in ("currency", "length", "weight"):
        return concept.key
    return concept.en[0] if concept.en else concept.key


def display_name(value: Any, lang: str, families: Iterable[str] | None = None) -> str | None:
    """The word a reader knows for a value (``USD`` → 美元 in Chinese, 美元 → ``USD`` in English),
    or ``None`` when the value is not one we know or is already written the reader's way.

    Only values of two or more characters are translated (a lone ``m`` could be a metre or a size),
    and only within ``families`` when given.
    """
    if not isinstance(value, str) or len(value.strip()) < 2:
        return None
    wanted = set(families) if families is not None else None
    chinese = bool(re.search(f"[{CJK_RANGE}]", value))
    for concept in concepts_of(value):
        if wanted is not None and concept.family not in wanted:
            continue
        if (lang == "zh") == chinese:
            return None  # already written in the reader's language
        return short_name(concept, lang)
    return None


__all__ = [
    "CONCEPTS",
    "Concept",
    "concepts_of",
    "display_name",
    "enum_family",
    "lone_character_ok",
    "short_name",
    "words_for_enum",
]
