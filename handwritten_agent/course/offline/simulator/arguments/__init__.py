"""Argument filling: read each parameter's JSON Schema and find its value in the user's words.

Each parameter is classified by its schema and description, then filled by one rule:

- ``enum``        an enum value, or a common name of it (``..concepts``: 美元 → "USD", 华氏 → "F",
                  周三 → "WED", 紧急 → "urgent", 大杯 → "large"), or a word the description pairs
                  with the value ("today（今天）", "unpaid 未付款") mentioned in the request; an
                  enum of yes/no values is read like a boolean;
- ``currency``    currency codes or names (美元 → USD);
- ``datetime``    今天/明天/后天/昨天/today/tomorrow, weekdays, explicit dates and times, against
                  the injected clock, formatted as the description asks (``YYYY-MM-DD``,
                  ``YYYY-MM-DD HH:MM``);
- ``pattern``     a schema ``pattern``, or one learnt from the description's examples
                  ("例如 OD20240615" → ``OD\\d{8}``; "例如C001" → ``C\\d{3}``), or a known format
                  the description names (an email address, a mobile number);
- ``city``, ``person``  cities and people's names, when the examples are cities ("例如：北京、上海")
                        or
                  names ("例如：张三"), or the description says city/城市;
- ``expression``  a math expression rebuilt from words ("17 乘以 9" → ``17 * 9``, "2 的 10 次方" →
                  ``2 ** 10``);
- ``number``      integers/numbers from digits or Chinese numerals, preferring one followed by the
                  unit the description names (天, 人, days …; "5个人" for 参会人数);
- ``boolean``     the parameter's topic named, or named after a negation ("不要每周摘要");
- ``text``        a quoted span in any style ('…' "…" “…” 「…」 《…》), the words after a colon, or
                  the request minus the words that ask for the action (a search term also loses the
                  tool's own noun: "耳机的订单" → 耳机; a reason beside a thing takes the clause
                  nothing else took);
- ``thing``       what to buy or hand over, counted in the request ("买 5 把人体工学椅" → 人体工学
                  椅; a count of the tool's own object, "提交一个采购申请", is no quantity);
- ``array``       every id, enum value or city named, each once ("C007 和 C019" → ["C007", "C019"]).
- no kind         a string with no example (``bare``): its own words before 是/为/改为
                  ("品种为贵宾犬"), an id's shape ("图书馆 L123"), or the name right after the
                  tool's verb ("注册小花").

Two or more parameters drawing on one kind of value (``from_currency``/``to_currency`` sharing an
enum, ``origin``/``destination`` cities) take their values by role (``roles``): from/to words around
each mention, then the order of mention, never one value twice unless the request names it twice.

Values are looked for in the intent's own words first, then in the rest of the request, then (for
ids and names only) in earlier tool results — of this turn, or, for a display name the user wrote,
of earlier rounds (``carry``). One entity named several times ("北京和上海") gives one argument set
per value (unless the parameters are a pair with roles). Optional parameters that are not found take
their schema ``default`` (or are left out); a required one that cannot be filled is reported as
missing, so the planner asks the user instead of guessing. Dates/times live in ``..dates``, math
expressions in ``..expressions``.

One module per kind of rule: ``params`` (schemas, examples, ``classify``), ``entities`` (enum
values, currencies, ids, cities, people), ``roles`` (from/to pairs), ``when`` (date formats),
``numbers`` (numbers, yes/no), ``freetext`` (queries and messages), ``bare`` (strings of no kind),
``fields`` (a field named with its new value, for a tool that sets one field by name) and
``filler`` (the rules applied in order).

Left out: nested objects, arrays of objects, ``oneOf``/``anyOf``, time zones, and
relative expressions beyond single days and weekdays ("下个月第一个周一").
"""

from __future__ import annotations

from ..expressions import PREV, Expression, extract_expression, number_from_result
from .entities import Span, find_cities, find_currencies, find_enum, find_pattern, find_people
from .filler import best_effort_arguments, enum_evidence, evidence, fill_arguments
from .params import (
    AMOUNT_WORDS,
    DEPENDENT_WORDS,
    FillContext,
    FillOutcome,
    Param,
    classify,
    currency_code,
    examples_of,
    params_of,
    patterns_of,
)
from .when import date_format

__all__ = [
    "Param",
    "FillContext",
    "FillOutcome",
    "params_of",
    "classify",
    "fill_arguments",
    "evidence",
    "best_effort_arguments",
    "enum_evidence",
    "extract_expression",
    "number_from_result",
    "Expression",
    "PREV",
    "DEPENDENT_WORDS",
    "AMOUNT_WORDS",
    "Span",
    "currency_code",
    "date_format",
    "examples_of",
    "patterns_of",
    "find_cities",
    "find_currencies",
    "find_enum",
    "find_pattern",
    "find_people",
]
