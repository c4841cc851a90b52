"""The last look before a side effect: five checks on every planned call that changes something.

However the request was read, a call whose tool does not only read (``actions.is_read_only``)
is made only when it passes, checked in this order:

1. **condition** — a condition the request states (如果/假如/要是…就…, …的话, "if …"; its other
   branch 否则/没有就不用, "otherwise") has been evaluated from a read-only tool's result: a
   result whose words (or their synonyms) meet the condition's words beyond the values the
   lookup was given. Not yet evaluated: a read-only tool that fits the condition is called
   first; none fits, or its result does not speak to the condition: ask. A result that speaks
   to it but is empty (no rows, 0, false, 没有/未找到) or lacks an id the condition names makes
   the condition false, and the branch that needed it true is not taken. A condition that
   compares a number ("积分超过 5000", "库存够不够 5 个") is decided by the one numeric field of
   the result its words name; one that says what something is ("是金卡会员") holds only when a
   value of the result says so, and is asked about otherwise. A yes-or-no question followed by a
   clause acting on its answer ("有没有超过 5000，超过了就…") is a condition too. A condition is
   never copied into a free-text field.
2. **time** — a date or time argument (a field whose name, description or ``format`` says
   date or time) is not in the past relative to the conversation's "now"
   (``today.stated_now``), unless the field records what has already happened (出生, 发生,
   消费, "incurred" …). When nothing states the time of day and the clock is the machine's,
   only the day is compared, so a run does not depend on the hour it is made at; when nothing
   states the date either, a date the user wrote out in full (2026-03-13) is theirs to choose.
3. **items** — a request naming several items with quantities ("N 台 … 每台 price") gets
   one call per item from a tool that takes one item: each call's item, quantity and price
   come from one item. Values mixed across items, or fewer calls than items, are refused.
4. **free text** — every long free-text field (body, content, message, reason, 正文, 原因 …)
   carries a meaningful span: three characters of content or more (an English word of three
   letters or more counts two), most of it found in the request or a tool result, not
   starting with a connective or ending on a word that needs an object (a cut-out fragment).
5. **targets** — every recipient, customer, person or id field names something the
   conversation names: the user's or system's words, a tool result, an earlier call's
   arguments, or a range of ids the user gave ("C003 到 C006"); and any string value holds only
   the characters its description allows ("只能包含字母、数字和下划线": "王五456" is asked about).

A failed check turns the turn into one specific question in Simplified Chinese (what is
missing or wrong), or into the lookup the condition needs — never into a guess or a claim.
Read-only calls always pass; while a side effect is held, the read-only calls of its turn are
still made.

Left out: conditions on a part of the request only (a request that states a condition puts all
its side effects under it), qualifiers of a condition checked against the data ("上个月"
against the dates of the orders found), items written in English, titles and subjects (short
by nature), arrays of items in one call, time zones, and forced calls (``tool_choice``
"required" or a named tool) and the faults that model a careless model, which the simulator
does not check.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from ....messages import message_text
from .actions import is_read_only, tool_action
from .answer import AnswerItem, compose_answer
from .arguments import FillContext, Param, classify, evidence, fill_arguments, params_of
from .arguments.carry import objects_in
from .arguments.entities import MEASURED, NOUNS_WITH_A_VERB
from .choose import MIN_SCORE, profile, score
from .fieldwords import field_label, synonyms, words_of
from .planner import Plan, PlannedCall, quoted_spans
from .results import OK, read_result, tool_text
from .text import find_numbers, language, normalize, tokens
from .today import stated_now
from .vocabulary import expand

Spec = dict[str, Any]


@dataclass(frozen=True)
class Conversation:
    """What the checks may consult besides the call itself."""

    now: datetime
    precise: bool  # the time of day of ``now`` is known (a fixed clock, or a stated time)
    results: tuple[tuple[PlannedCall, str], ...] = ()  # calls made since the request, with results
    texts: tuple[str, ...] = ()  # user and system words, tool results, earlier calls' arguments
    planned: tuple[PlannedCall, ...] = ()  # every call planned for this turn
    specs: tuple[Spec, ...] = ()  # the tools offered
    parallel: bool = True  # the turn's calls are all the plan's calls (else one call per turn)
    dated: bool = True  # the date of ``now`` is the conversation's (a fixed clock or a stated date)


@dataclass(frozen=True)
class Finding:
    """A failed check: the question to ask, or a read-only call to make first."""

    question: str
    lookup: PlannedCall | None = None


Verdict = Finding | None
Check = Callable[[str, PlannedCall, Spec, Conversation], Verdict]


def _label(param: Param) -> str:
    return f"{param.label()}（{param.name}）" if param.label() != param.name else param.name


def _spec_of(name: str, specs: tuple[Spec, ...]) -> Spec:
    return next((s for s in specs if s.get("name") == name), {"name": name})


def reads(spec: Spec) -> bool:
    """Whether the tool only reads (``actions.is_read_only`` of its name and description)."""
    return is_read_only(tool_action(str(spec.get("name", "")), str(spec.get("description") or "")))


def _longest_common(a: str, b: str) -> int:
    """Length of the longest substring of ``a`` found in ``b``."""
    best = 0
    for start in range(len(a)):
        while start + best < len(a) and a[start : start + best + 1] in b:
            best += 1
    return best


def _clean(text: str) -> str:
    return re.sub(r"[\s\W_]+", "", normalize(str(text))).lower()


def _corpus(request: str, conv: Conversation) -> str:
    return " ".join((request, *conv.texts, *(raw for _, raw in conv.results)))


# ---------------------------------------------------------------------------------------------
# 1. Times
# ---------------------------------------------------------------------------------------------

_TIME_FIELD = re.compile(
    r"date|time|day|when|deadline|start|end|日期|时间|时刻|几号|哪天|" r"开始|结束|截止", re.I
)
_PAST_FIELD = re.compile(
    r"birth|born|dob|occur|incur|happen|spent|purchas|paid|issued|transaction|"
    r"hired|joined|since|出生|生日|发生|消费|入职|开票|付款|支付|交易|"
    r"购买|报销",
    re.I,
)
_DATE = re.compile(
    r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*[日号]?"
    r"(?:[\sT]*(\d{1,2})\s*[:：]\s*(\d{2}))?"
)
_CLOCK = re.compile(r"^\s*(\d{1,2})\s*[:：]\s*(\d{2})")


def _time_field(param: Param) -> bool:
    words = f"{param.name} {param.description}"
    return (
        param.schema.get("format") in ("date", "date-time", "time")
        or classify(param) == "datetime"
        or param.type == "string"
        and bool(_TIME_FIELD.search(words))
    )


def _moment(value: Any) -> tuple[date, tuple[int, int] | None] | None:
    match = _DATE.search(str(value))
    if not match:
        return None
    try:
        day = date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return None
    if match[4] is not None and int(match[4]) < 24 and int(match[5]) < 60:
        return day, (int(match[4]), int(match[5]))
    return day, None


def time_check(request: str, call: PlannedCall, spec: Spec, conv: Conversation) -> Verdict:
    """No date or time argument lies in the past (see the module docstring)."""
    params = [
        p
        for p in params_of(spec)
        if p.name in call.arguments and _time_field(p) and not _PAST_FIELD.search(p.words)
    ]
    days = [m[0] for m in (_moment(call.arguments[p.name]) for p in params) if m]
    written = {m[0] for m in (_moment(x[0]) for x in _DATE.finditer(normalize(request))) if m}
    for param in params:
        value = call.arguments[param.name]
        moment = _moment(value)
        clock = _CLOCK.match(str(value))
        if moment is None and clock and days:  # a time of day beside a date field ("15:00")
            moment = (days[0], (int(clock[1]), int(clock[2])))
        if moment is None:
            continue
        day, hour_minute = moment
        if not conv.dated and day in written:
            continue  # a date the user wrote out, and only the machine's clock to doubt it with
        past = day < conv.now.date()
        if day == conv.now.date() and hour_minute and conv.precise:
            past = hour_minute < (conv.now.hour, conv.now.minute)
        if past:
            now = conv.now.strftime("%Y-%m-%d %H:%M" if conv.precise else "%Y-%m-%d")
            return Finding(
                f"您说的时间（{_label(param)}：{value}）已经过去了（现在是 {now}），"
                "要改成哪天几点？"
            )
    return None


# ---------------------------------------------------------------------------------------------
# 2. Conditions
# ---------------------------------------------------------------------------------------------

_LEAD = r"如果|假如|假若|假使|要是|若是|倘若|假设|万一|如若|只要|\bif\b|\bin case\b"
_COMPARE_OPS = r"不到|少于|低于|小于|不足|超过了?|多于|高于|大于|不少于|不低于|至少"
_CONDITION = re.compile(
    rf"(?P<lead>{_LEAD})\s*(?P<cond>[^，,。；;！!？?]+?)\s*"
    r"(?:的话|[，,]|那就|那么|就|则|\bthen\b)"
    r"|(?:^|(?<=[，,。；;\s]))(?P<bare>[^，,。；;！!？?]{1,24}?)的话",
    re.I,
)
_ELSE = re.compile(
    r"(?:否则|不然|要不然|要不|没有的话|没有就|如果没有|要是没有|假如没有|不是的话|"
    r"不行的话|\botherwise\b|\bif not\b)\s*(?P<rest>[^。；;！!？?]*)",
    re.I,
)
# "积分有没有超过 5000，超过了就发…": a yes-or-no question, then a clause that acts on its answer
_YES_NO = re.compile(r"有没有|是不是|是否|能不能|够不够|[吗么]\s*$|没有?\s*$|(.)不\1")
_ANSWER_THEN = re.compile(
    r"(?:^|(?<=[，,；;。？?！!\s]))(?P<yes>[^，,。；;！!？?就]{1,8}?)\s*(?:那)?就(?!是)"
)
# the other branch said with a negation ("没超过就不用发", "不够就算了")
_NEGATED_BRANCH = re.compile(
    r"(?:^|(?<=[，,；;。？?！!\s]))(?:不|没)[^，,。；;就]{0,8}(?:的话)?\s*就"
)
_COMPARED_THEN = re.compile(
    rf"(?:^|(?<=[，,；;。？?！!\s]))(?P<cmp>(?:{_COMPARE_OPS})\s*[^，,。；;就]{{0,8}}?)\s*(?:的话)?\s*"
    r"(?:那)?就"
)
_NOT_A_CONDITION = {"没有", "没", "不是", "不行", "不", "不然"}  # "没有的话…": the other branch
_POLITE = re.compile(
    r"^(?:您|你)?(?:可以|方便|可能|行|能行|不麻烦|不介意|愿意|possible|you can|"
    r"you could|you don't mind)$",
    re.I,
)  # "方便的话…", "if possible": politeness
_STOP_TOKENS = frozenset(tokens("如果 假如 要是 的话 就 那就 有 if the"))
_EMPTY_WORDS = re.compile(
    r"没有|未找到|找不到|不存在|无记录|查无|暂无|\bnot found\b|"
    r"\bno (?:record|result|match)|\bnone\b",
    re.I,
)
_COUNT_KEYS = re.compile(r"count|total|found|exists?|available|has_|matched|数量|个数", re.I)


@dataclass(frozen=True)
class Condition:
    text: str  # the condition itself ("这位客户上个月下过单"; "有" for a bare "有的话")
    clause: str  # as written, with its lead word
    then: str  # what to do when it holds
    otherwise: str  # what to do when it does not ("" when not said)


def conditions(request: str) -> list[Condition]:
    """The conditions the request states outside quoted content, with their branches."""
    text = normalize(request)
    content = quoted_spans(text)
    found = []
    for match in _CONDITION.finditer(text):
        cond = (match["cond"] or match["bare"] or "").strip()
        quoted = any(a <= match.start() < b for a, b in content)
        if (
            quoted
            or not cond
            or cond in _NOT_A_CONDITION
            or _POLITE.match(cond)
            or _ELSE.match(match[0])
        ):
            continue
        if match["bare"] and len(cond) <= 3:
            # "看看积分是不是超过 5000，是的话…": the condition is the question just before
            before = re.split(r"[，,；;。]", text[: match.start()].rstrip("，, "))[-1].strip()
            cond = before or cond
        rest = text[match.end() :]
        other = _ELSE.search(rest)
        then = rest[: other.start()] if other else re.split(r"[。；;！!]", rest)[0]
        found.append(Condition(cond, match.group(0), then, other["rest"] if other else ""))
    if found:
        return found
    for match in _ANSWER_THEN.finditer(text):
        before = re.split(r"[，,；;。]", text[: match.start()].rstrip("，,？?！! "))[-1].strip()
        if (
            not before
            or any(a <= match.start() < b for a, b in content)
            or _NEGATED_BRANCH.match(text, match.start())
            or not _YES_NO.search(before)
        ):
            continue
        rest = text[match.end() :]
        other = _ELSE.search(rest) or _NEGATED_BRANCH.search(rest)
        then = rest[: other.start()] if other else re.split(r"[。；;！!]", rest)[0]
        otherwise = rest[other.end() :] if other else ""
        return [Condition(before, f"{before}，{match.group(0)}", then, otherwise)]
    for match in _COMPARED_THEN.finditer(text):
        # "看下 S102 还剩几个课时，不到 2 个就发短信": a comparison with no lead word, about the
        # question just before it
        if any(a <= match.start() < b for a, b in content):
            continue
        before = re.split(r"[，,；;。]", text[: match.start()].rstrip("，,？?！! "))[-1].strip()
        cond = f"{before} {match['cmp'].strip()}".strip()
        rest = text[match.end() :]
        other = _ELSE.search(rest)
        then = rest[: other.start()] if other else re.split(r"[。；;！!]", rest)[0]
        return [Condition(cond, match.group(0), then, other["rest"] if other else "")]
    return found


def _words(text: str) -> set[str]:
    return set(tokens(text)) | set(tokens(expand(text)))


def _speaks_to(condition: Condition, call: PlannedCall, raw: str) -> bool:
    """Whether a result says something about the condition beyond the values it was asked with."""
    wanted = _words(condition.text) - _STOP_TOKENS
    if not wanted:
        return True  # "有的话": the condition is the lookup's own outcome
    if _compared(condition, raw) is not None:
        return True  # "积分超过 5000": a number of the result decides it
    if _COMPARE.search(normalize(condition.text)):
        return False  # a comparison no single number of the result decides: asked, not guessed
    if _flag(condition, raw) is not None:
        return True  # "还没付款": a yes/no field or a state word of the result decides it
    if _said_state(condition) and any(
        isinstance(v, bool) or _STATUS_KEY.search(str(k))
        for item in objects_in(read_result(raw).value)
        for k, v in item.items()
    ):
        return False  # a state the result has fields for but does not say: asked, not guessed
    if _is_equality(condition):
        return _equals(condition, raw) is not None  # "是金卡会员": only a value that says so
    given = set(tokens(" ".join(map(str, call.arguments.values()))))
    return bool((wanted - given) & _words(raw))


def _empty(value: Any) -> bool:
    """Whether a result's data says nothing was found."""
    if value is None or value == [] or value == {} or value is False or value == 0:
        return True
    if isinstance(value, str):
        return bool(_EMPTY_WORDS.search(value)) or not value.strip()
    if isinstance(value, dict):
        if any(_COUNT_KEYS.search(str(k)) and inner in (0, False) for k, inner in value.items()):
            return True
        lists = [inner for inner in value.values() if isinstance(inner, list)]
        return bool(lists) and all(not inner for inner in lists)
    return False


_GREATER = r"超过了?|大于|高于|多于|more than|over|above|greater than"
_AT_LEAST = r"不少于|不低于|至少|达到了?|够不够|满|够|at least"
_AT_MOST = r"不超过|不高于|不多于|at most|no more than"
_LESS = r"少于|低于|小于|不足|不到|less than|fewer than|below|under"
_COMPARE = re.compile(
    rf"(?P<what>[\u4e00-\u9fffA-Za-z_ ]{{1,16}}?)\s*(?:有没有|是否|是不是|有|is|are)?\s*"
    rf"(?P<op>{_AT_MOST}|{_AT_LEAST}|{_GREATER}|{_LESS})\s*"
    r"(?P<n>\d+(?:\.\d+)?(?:\s*[万千])?|[一二两三四五六七八九十百千万]+)",
    re.I,
)


def _compared(condition: Condition, raw: str) -> bool | None:
    """A condition that compares a number ("积分超过 5000", "库存不少于 3 个") decided by the one
    numeric field of the result its words name (by the field's name, label or synonyms); None when
    it compares nothing, or no single field answers it."""
    match = _COMPARE.search(normalize(condition.text))
    numbers = find_numbers(match["n"]) if match else []
    if not match or not numbers:
        return None
    what = re.sub(r"[A-Za-z]+\d+|的", "", match["what"]).strip().lower()
    glossed = set(tokens(expand(what)))  # "课时" → hours, "还剩" → remaining
    bound = numbers[0].value
    view = read_result(raw)
    if view.status != OK:
        return None
    values = set()
    for item in objects_in(view.value):
        for key, value in item.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            names = {key.lower(), field_label(key, "zh"), *synonyms(key), *words_of(key)}
            if what and any(
                len(n) >= 2 and (n in what or what in n or n in glossed) for n in names if n
            ):
                values.add(float(value))
    if len(values) != 1:
        return None
    value, op = values.pop(), match["op"].lower()
    if re.fullmatch(_AT_MOST, op, re.I):
        return value <= bound
    if re.fullmatch(_AT_LEAST, op, re.I):
        return value >= bound
    if re.fullmatch(_GREATER, op, re.I):
        return value > bound
    return value < bound


_IS = re.compile(
    r"^(?P<what>[^，,。?？]{0,16}?)(?:是不是|是否是?|是|为|属于)(?P<value>[^，,。?？]{1,16})$"
)


def _equals(condition: Condition, raw: str) -> bool | None:
    """A condition that says what something is ("C017 是金卡会员"): True when a result's text value
    is what it names (the same word, either way round); None when no value says so — a value in
    other words ("normal" for 金卡) is not read as a no, it is asked about."""
    match = _IS.match(re.sub(r"[A-Za-z]+\d+", "", normalize(condition.text)).strip())
    if not match or _COMPARE.search(normalize(condition.text)):
        return None
    said = match["value"].strip().lower()
    view = read_result(raw)
    if view.status != OK:
        return None
    for item in objects_in(view.value):
        for value in item.values():
            if isinstance(value, str) and 2 <= len(value.strip()) <= 20:
                shown = normalize(value).strip().lower()
                if shown in said or said in shown:
                    return True
    return None


def _is_equality(condition: Condition) -> bool:
    text = re.sub(r"[A-Za-z]+\d+", "", normalize(condition.text)).strip()
    return bool(_IS.match(text)) and not _COMPARE.search(normalize(condition.text))


_STATUS_KEY = re.compile(r"status|state|状态|进度", re.I)
_STATE_LEAD = re.compile(r"^(?:已经|已|都|还|仍然|仍|尚|是不是|是否)+")


def _said_state(condition: Condition) -> tuple[str, bool] | None:
    """What a condition says something is or is not ("还没付款" → ("付款", False), "已经修好了" →
    ("修好", True)): its words without ids, leads and the trailing 了/过."""
    text = re.sub(r"[A-Za-z]+-?\d+|的", " ", normalize(condition.text)).split()
    if len(text) != 1 or _COMPARE.search(text[0]):
        return None
    said = re.sub(r"(?:了|过|完)+$", "", text[0])
    negative = re.match(r"^(?:还|仍|尚)?(?:没有?|未|不)", said)
    said = _STATE_LEAD.sub("", said[negative.end() :] if negative else said)
    said = re.sub(r"(?:了|过|完)+$", "", said)
    if not 2 <= len(said) <= 6 or not re.fullmatch(r"[\u4e00-\u9fff]+", said):
        return None
    return said, not negative


def _flag(condition: Condition, raw: str) -> bool | None:
    """A condition on a state ("还没付款", "已经修好了") decided by the result: a yes/no field its
    words name ("paid": 付款 by the glossary), or a text value that says the state itself ("已修
    好"); None when nothing in the result says it either way (then it is asked about)."""
    state = _said_state(condition)
    view = read_result(raw)
    if state is None or view.status != OK:
        return None
    said, positive = state
    wanted = set(tokens(said)) | set(tokens(expand(said)))
    answers = set()
    for item in objects_in(view.value):
        for key, value in item.items():
            if isinstance(value, bool):
                names = {*words_of(key), field_label(key, "zh"), *synonyms(key)}
                names |= set(tokens(expand(" ".join(words_of(key)))))
                if wanted & names:
                    answers.add(value == positive)
            elif isinstance(value, str) and said in normalize(value):
                if not re.search(r"(?:没有?|未|不)" + re.escape(said), normalize(value)):
                    answers.add(positive)
    return answers.pop() if len(answers) == 1 else None


def _holds(condition: Condition, done: PlannedCall, raw: str) -> bool:
    """A result that speaks to the condition: a number it compares, as compared; a state it says
    (``_flag``); else found something, and every id the condition names."""
    compared = _compared(condition, raw)
    if compared is not None:
        return compared
    flagged = _flag(condition, raw)
    if flagged is not None:
        return flagged
    if _is_equality(condition):
        return bool(_equals(condition, raw))
    view = read_result(raw)
    ids = {
        w
        for w in re.findall(r"[a-z0-9_-]+", normalize(condition.text).lower())
        if re.search(r"[a-z]", w) and re.search(r"\d", w)
    }  # "B502"
    seen = normalize(" ".join(map(str, done.arguments.values())) + " " + raw).lower()
    return view.status == OK and not _empty(view.value) and all(i in seen for i in ids)


def _copies(value: str, condition: Condition) -> bool:
    cond, clean = _clean(condition.text), _clean(value)
    common = _longest_common(cond, clean)
    if re.search(_LEAD, value, re.I) and cond and common >= min(len(cond), 2):
        return True
    return len(cond) >= 3 and common >= max(3, round(len(cond) * 0.6))


def _lookup(condition: Condition, conv: Conversation, request: str = "") -> PlannedCall | None:
    """A read-only tool not yet called that fits the condition's words, its arguments filled from
    them, else from the request ("GD778 要是已经修好了就结单": the ticket is named before the
    condition)."""
    called = {done.name for done, _ in conv.results}
    candidates = [
        (score(condition.text, profile(spec)), index, spec)
        for index, spec in enumerate(conv.specs)
        if reads(spec) and spec.get("name") not in called
    ]
    text = normalize(condition.text)
    # a condition in words no lookup shares ("GD778 要是已经修好了"): the one lookup that takes the
    # id the request names
    by_id = [spec for _, _, spec in candidates if request and evidence(spec, normalize(request))]
    if len(by_id) == 1 and all(value < MIN_SCORE for value, _, _ in candidates):
        candidates = [(MIN_SCORE, 0, by_id[0])]
    for value, _, spec in sorted(candidates, key=lambda c: (-c[0], c[1])):
        if value < MIN_SCORE:
            break
        whole = normalize(request) or text
        for context in dict.fromkeys((text, whole)):
            fill = FillContext(segment=text, context=context, request=context, now=conv.now)
            outcome = fill_arguments(spec, fill)
            if (
                outcome.arguments
                and len(outcome.arguments) == 1
                and not outcome.missing
                and not outcome.needs_previous
            ):
                return PlannedCall(str(spec["name"]), outcome.arguments[0])
    return None


def condition_check(request: str, call: PlannedCall, spec: Spec, conv: Conversation) -> Verdict:
    """A stated condition is evaluated from a result before acting, and never copied into text."""
    for condition in conditions(request):
        evidence = [
            (done, raw)
            for done, raw in conv.results
            if reads(_spec_of(done.name, conv.specs)) and _speaks_to(condition, done, raw)
        ]
        if not evidence:
            lookup = _lookup(condition, conv, request)
            if lookup is not None:
                return Finding("", lookup)
            clause = condition.clause.strip("，, ")
            return Finding(f"您说「{clause}」——这个条件我现在查不到是否成立：它成立吗？")
        for param in params_of(spec):
            value = call.arguments.get(param.name)
            if value and _long_text(param) and _copies(str(value), condition):
                return Finding(
                    f"{_label(param)}要写什么内容？条件「{condition.text}」不该写进去，"
                    "请告诉我正文本身。"
                )
        mine = profile(spec)
        otherwise = bool(condition.otherwise) and score(condition.otherwise, mine) > score(
            condition.then, mine
        )
        if _holds(condition, *evidence[-1]) == otherwise:
            state = "成立" if otherwise else "不成立"
            return Finding(
                f"按查到的结果，条件「{condition.text}」{state}，所以这一步我没有做"
                f"（{call.name}）。您仍然要做吗？"
            )
    return None


# ---------------------------------------------------------------------------------------------
# 3. Items
# ---------------------------------------------------------------------------------------------

_UNITS = "台个把张件套箱本支盒瓶包部块副只份桶袋双"
_NUM = r"\d+(?:\.\d+)?(?:\s*[万千百])?|[一二两俩仨三四五六七八九十百千万]+"
# a name may begin with a measured number that is part of it ("27 寸显示器", "500 毫升烧杯")
# or a Latin model word before a space ("A4 打印纸", "USB 键盘")
_NAME = (
    rf"(?:{MEASURED}\s*)?[\u4e00-\u9fffA-Za-z]"
    r"(?:[\u4e00-\u9fffA-Za-z0-9]|(?<=[A-Za-z0-9])\s(?=[\u4e00-\u9fff])){0,11}?"
)
_YUAN = r"\s*(?:元|块钱|块)?"
_ITEM = re.compile(
    rf"(?P<name>{_NAME})\s*(?P<qty>{_NUM})\s*(?P<unit>[{_UNITS}])(?=[，,、；;。\s每单各]|$)"
    r"(?:[，,、"
    rf"\s]*(?:每(?P=unit)|每个|单价|各|一(?P=unit))\s*(?:是|为)?\s*(?P<price>{_NUM}){_YUAN})?"
    rf"|(?<![\d.])(?P<qty2>{_NUM})\s*(?P<unit2>[{_UNITS}])\s*(?P<name2>{_NAME})"
    # the name ends at a mark, or a space not inside it ("A4 打印纸")
    r"(?=[，,、；;。]|$|(?<![A-Za-z0-9])\s|\s(?![\u4e00-\u9fff]))"
    rf"(?:[，,、\s]*(?:每(?P=unit2)|每个|单价|各)\s*(?:是|为)?\s*(?P<price2>{_NUM}){_YUAN})?"
)
_ITEM_LEAD = re.compile(
    r"^(?:再|还有|以及|和|跟|买|要|采购|购买|申购|订购|下单|订|申请|提交|帮我|另外|外加|加上|"
    r"然后|并且|那就|就|请|麻烦|给我|替我|我要|我需要|需要|领取|领用|准备|弄|搞|配|备)+"
)
# whose item it is and what was done, before the item ("R003 交了逾期罚款 15 块" → 逾期罚款)
_ITEM_OWNER = re.compile(r"^[A-Za-z]{1,4}-?\d{2,}\s*(?:[交付缴还买订领][了过]?)?\s*")
_QUANTITY = re.compile(r"quantit|qty|count|number of|amount of|数量|个数|件数|台数", re.I)
_PRICE_FIELD = re.compile(r"price|cost|单价|价格|金额|费用", re.I)
_ITEM_FIELD = re.compile(r"\bitem|product|goods|物品|商品|品名|货品|名称")


@dataclass(frozen=True)
class Item:
    name: str
    quantity: float
    unit: str
    price: float | None


def _number(text: str | None) -> float | None:
    """The one number ``text`` is ("1.2千", "一千二", "俩"), read as everywhere else."""
    found = find_numbers(text or "")
    return found[0].value if len(found) == 1 and found[0].text.strip() == text.strip() else None


def items(request: str) -> list[Item]:
    """Items named with a quantity ("显示器 2 台每台 1299", "3 把椅子"), each once, in order."""
    found: list[Item] = []
    text, position = normalize(request), 0
    while position < len(text):
        match = _ITEM.search(text, position)
        if match is None:
            break
        said = (match["name"] or match["name2"] or "").strip()
        name = next(
            (said[i:] for i in range(len(said)) if said[i:].startswith(NOUNS_WITH_A_VERB)), None
        ) or _ITEM_LEAD.sub("", _ITEM_OWNER.sub("", said))  # "采购订书机": 订书机, not 书机
        quantity = _number(match["qty"] or match["qty2"])
        if len(name) < 2 or quantity is None:  # "另外5 台显示器": no name before; look again
            # from the count on when the words before it were only a lead ("申请采购 2 台 27 寸显
            # 示器"), so that no tail of the lead ("请采购") is read as a name
            position = match.start("qty") if match["qty"] and len(name) < 2 else match.start() + 1
            continue
        if all(i.name != name for i in found):
            found.append(
                Item(
                    name,
                    quantity,
                    match["unit"] or match["unit2"] or "",
                    _number(match["price"] or match["price2"]),
                )
            )
        position = match.end()
    return found


def _is_item(param: Param) -> bool:
    return param.type == "string" and (
        classify(param) == "thing" or bool(_ITEM_FIELD.search(param.words))
    )


def _item_of(call: PlannedCall, params: list[Param], named: list[Item]) -> list[Item]:
    """The items this call's values could all belong to: its item text, quantity and price."""
    fits = []
    for item in named:
        ok = True
        for param in params:
            value = call.arguments.get(param.name)
            number = isinstance(value, (int, float)) and not isinstance(value, bool)
            if value is None:
                continue
            if _is_item(param) and not _QUANTITY.search(param.words):
                ok &= item.name in str(value) or str(value) in item.name
            elif number and _QUANTITY.search(param.words):
                ok &= float(value) == item.quantity
            elif number and _PRICE_FIELD.search(param.words) and item.price is not None:
                ok &= float(value) == item.price
        if ok:
            fits.append(item)
    return fits


_JOINED = re.compile(r"和|跟|与|及|、|一共|总共|共计|合计|加上|还有")


def _one_item_tool(params: list[Param]) -> Param | None:
    """The item field of a tool that takes one item (no arrays), or ``None``."""
    if any(p.type == "array" for p in params):
        return None
    fields = [p for p in params if _is_item(p) and not _QUANTITY.search(p.words)]
    return fields[0] if len(fields) == 1 else None


def _item_arguments(call: PlannedCall, params: list[Param], field: Param, item: Item) -> dict:
    arguments = dict(call.arguments)
    arguments[field.name] = item.name
    for param in params:
        if param.type not in ("integer", "number") or param is field:
            continue
        if _QUANTITY.search(param.words) or (
            item.unit and item.unit in param.words and not _PRICE_FIELD.search(param.words)
        ):
            value = item.quantity
        elif _PRICE_FIELD.search(param.words) and item.price is not None:
            value = item.price
        else:
            continue
        arguments[param.name] = int(value) if param.type == "integer" else value
    return arguments


def acted_items(request: str) -> list[Item]:
    """The items the request acts on: not those inside a condition ("库存少于 5 个就订 10 个")."""
    text = normalize(request)
    for condition in conditions(request):
        text = text.replace(condition.text, " ")
    return items(text)


def _own_object(item: Item, own: str) -> bool:
    """Whether a counted "item" is the tool's own object: it ends with the tool's noun ("一个采购
    申请"), or begins with it and goes on with the object's name ("一个活动春季音乐会" for a tool
    that creates events): no thing to buy."""
    return item.name[-2:] in own or item.name[:2] in own


def split_items(plan: Plan, request: str, specs: list[Spec], conv: Conversation) -> Plan:
    """One call per item the request names ("显示器 2 台每台 1299；键盘 3 个每个 199") to a tool
    that takes one item, each call's item, quantity and price from its own item; a question when
    the split is not clear (items joined under one quantity: "显示器和键盘一共 5 个", or an item
    without the price the tool needs). Items already done this turn are not made again."""
    out: list[PlannedCall] = []
    for call in plan.calls:
        spec = _spec_of(call.name, tuple(specs))
        params = params_of(spec)
        field = None if reads(spec) else _one_item_tool(params)
        own = normalize(f"{spec.get('name', '')} {spec.get('description') or ''}")
        named = [i for i in acted_items(request) if not _own_object(i, own)] if field else []
        said = str(call.arguments.get(field.name) or "") if field else ""
        one = named[0].name if len(named) == 1 else ""
        if said and said in one and not _JOINED.search(one):
            # "一只名为小花的狗" with 小花 read for the name: the same thing, read more closely
            # (never items joined under one count: "显示器和键盘一共 5 个" is asked about)
            named = []
        if not named:
            out.append(call)
            continue
        if any(_JOINED.search(i.name) for i in named):
            return Plan(
                [], "这几样东西的数量和单价我分不清：请按“物品 数量 单价”逐样告诉我。", "clarify"
            )
        priced = [p for p in params if _PRICE_FIELD.search(p.words) and p.required]
        if len(named) > 1 and priced and any(i.price is None for i in named):
            return Plan([], "请告诉我每样东西各自的单价，我再逐样办理。", "clarify")
        done = [c for c, _ in conv.results if c.name == call.name]
        for item in named:
            arguments = _item_arguments(call, params, field, item)
            if any(c.arguments.get(field.name) == item.name for c in done):
                continue
            if all(PlannedCall(call.name, arguments) != c for c in out):
                out.append(PlannedCall(call.name, arguments))
    if not out and plan.calls:  # every item done: answer from their results
        answered = [
            AnswerItem(spec, c.arguments, read_result(raw, tool_text(spec)), raw, request)
            for c, raw in conv.results
            for spec in [_spec_of(c.name, tuple(specs))]
        ]
        return Plan([], compose_answer(answered, [], language(request)), "final")
    return Plan(out, plan.answer, plan.kind)


def items_check(request: str, call: PlannedCall, spec: Spec, conv: Conversation) -> Verdict:
    """One call per named item, each call's values from one item."""
    params = params_of(spec)
    own = normalize(f"{spec.get('name', '')} {spec.get('description') or ''}")
    named = [i for i in acted_items(request) if not _own_object(i, own)]
    if len(named) < 2 or not any(map(_is_item, params)) or any(p.type == "array" for p in params):
        return None
    made = (*conv.planned, *(done for done, _ in conv.results))
    siblings = [c for c in made if c.name == call.name]
    covered = {item.name for c in siblings for item in _item_of(c, params, named)}
    short = conv.parallel and (len(siblings) < len(named) or len(covered) < len(named))
    if len(_item_of(call, params, named)) == 1 and not short:
        return None
    listed = "、".join(
        f"{i.name} {i.quantity:g} {i.unit}" + (f"每{i.unit} {i.price:g}" if i.price else "")
        for i in named
    )
    return Finding(
        f"您这次提到了 {len(named)} 样东西（{listed}），我不会把它们合在一次里办："
        "要按每样各办一次吗？"
    )


# ---------------------------------------------------------------------------------------------
# 4. Free text
# ---------------------------------------------------------------------------------------------

_LONG_TEXT = re.compile(
    r"\b(?:body|content|message|msg|text|reason|description|desc|comment|"
    r"notes?|remarks?|details?|memo|explanation)\b|正文|内容|消息|原因|理由|"
    r"描述|备注|说明|留言|详情|事由",
    re.I,
)
_SHORT_TEXT = re.compile(r"\b(?:subject|title|name|query|keywords?|q|search)\b")
_CUT_START = re.compile(r"^(?:就|那就|然后|再|并且?|而且|和|跟|的|了|吧|给|把|对|向)")
_CUT_END = re.compile(r"(?:给|把|对|跟|向|和|的|是|说|为|就|在)$")
_EDGES = " \t\n，,。.；;：:！!？?、\"'“”‘’「」"


def _long_text(param: Param) -> bool:
    return (
        param.type == "string"
        and not param.enum
        and bool(_LONG_TEXT.search(param.words))
        and not _SHORT_TEXT.search(" ".join(param.name.lower().split("_")))
    )


def _weight(text: str) -> int:
    cjk = len(re.findall(r"[\u4e00-\u9fff]", text))
    return cjk + sum(2 if len(w) >= 3 else 1 for w in re.findall(r"[A-Za-z]+|\d+", text))


def _covered(value: str, corpus: str) -> float:
    """The share of ``value``'s characters inside runs of two or more found in ``corpus``."""
    index, covered = 0, 0
    while index < len(value):
        run = 0
        while index + run < len(value) and value[index : index + run + 1] in corpus:
            run += 1
        covered += run if run >= 2 else 0
        index += max(run, 1)
    return covered / len(value) if value else 0.0


def free_text_check(request: str, call: PlannedCall, spec: Spec, conv: Conversation) -> Verdict:
    """Every long free-text field carries a meaningful span of the request or a result."""
    corpus = _clean(_corpus(request, conv))
    for param in params_of(spec):
        value = call.arguments.get(param.name)
        if not isinstance(value, str) or not _long_text(param):
            continue
        text = normalize(value).strip(_EDGES)
        if (
            _weight(text) < 3
            or _covered(_clean(text), corpus) < 0.6
            or _CUT_START.search(text)
            or _CUT_END.search(text)
        ):
            return Finding(
                f"{_label(param)}要写什么内容？"
                f"我从您的话里没读出完整的一句（现在只有「{value}」）。"
            )
    return None


# ---------------------------------------------------------------------------------------------
# 5. Targets
# ---------------------------------------------------------------------------------------------

_TARGET = re.compile(
    r"\b(?:to|recipients?|receivers?|addressees?|customers?|users?|patients?|"
    r"members?|employees?|contacts?|assignees?|persons?|people|emails?|phones?|"
    r"mobiles?|ids?|uid|no)\b|收件人|接收人|收信人|客户|用户|病人|患者|会员|员工|"
    r"联系人|对象|编号|手机|邮箱|电话|工号|账号|id",
    re.I,
)
_RANGE = re.compile(
    r"(?<![0-9a-z])([a-z]*[-_]?)(\d+)\s*(?:到|至|~|～|-|—|through|to)\s*"
    r"(?:\1)?(\d+)(?![0-9a-z])"
)


def _targets(param: Param, value: Any) -> list[str]:
    if param.enum or param.has_default and value == param.schema.get("default"):
        return []
    if not _TARGET.search(param.words) or _long_text(param) or _time_field(param):
        return []
    if param.type in ("integer", "number") and not re.search(r"\bids?\b|编号", param.words):
        return []
    values = value if isinstance(value, list) else [value]
    return [
        str(v)
        for v in values
        if isinstance(v, (str, int)) and not isinstance(v, bool) and str(v).strip()
    ]


def _in_range(value: str, corpus: str) -> bool:
    """Whether ``value`` ("c004") lies in a range the conversation names ("c003 到 c006")."""
    match = re.fullmatch(r"([a-z]*[-_]?)(\d+)", value)
    return bool(match) and any(
        m[1] == match[1] and int(m[2]) <= int(match[2]) <= int(m[3])
        for m in _RANGE.finditer(corpus)
    )


# "只能包含字母、数字和下划线", "only letters, digits and underscores": the characters a value may
# hold, as its description lists them
_ONLY_ZH = re.compile(r"只能(?:包含|由|使用|含有)?((?:字母|数字|下划线|、|和|及|或)+)")
_ONLY_EN = re.compile(
    r"\bonly\s+(?:contain\s+|use\s+)?((?:letters|digits|numbers|underscores|,|\s|and|or)+)",
    re.I,
)


def _allowed(param: Param) -> str | None:
    """A character class of what the value may hold, when its description lists it."""
    said = _ONLY_ZH.search(param.description) or _ONLY_EN.search(param.description)
    if not said:
        return None
    kinds = said.group(1).lower()
    allowed = ("A-Za-z" if re.search("字母|letters", kinds) else "") + (
        "0-9" if re.search("数字|digits|numbers", kinds) else ""
    )
    return f"[{allowed}_]" if re.search("下划线|underscores", kinds) else f"[{allowed}]"


def target_check(request: str, call: PlannedCall, spec: Spec, conv: Conversation) -> Verdict:
    """Every target is named in the conversation or found in a tool result, and holds only the
    characters its description allows ("只能包含字母、数字和下划线": "王五456" is asked about)."""
    corpus = normalize(_corpus(request, conv)).lower()
    for param in params_of(spec):
        allowed = _allowed(param)
        value = call.arguments.get(param.name)
        if allowed and isinstance(value, str) and not re.fullmatch(f"{allowed}+", value):
            return Finding(
                f"{_label(param)}填的是「{value}」，可它只能包含{_said_allowed(param)}："
                "请告诉我准确的值？"
            )
        for value in _targets(param, call.arguments.get(param.name)):
            needle = normalize(value).strip().lower()
            if not re.search(
                rf"(?<![0-9a-z]){re.escape(needle)}(?![0-9a-z])", corpus
            ) and not _in_range(needle, corpus):
                # "王五" read out of "王五456": it is there, but only as part of a longer name
                longer = re.search(rf"[0-9a-z_\-]*{re.escape(needle)}[0-9a-z_\-]*", corpus)
                where = (
                    f"只是您说的「{longer.group(0)}」的一部分"
                    if needle in corpus and longer and longer.group(0) != needle
                    else "在您的话和查到的结果里都没有出现"
                )
                return Finding(
                    f"{_label(param)}填的是「{value}」，可它{where}：请告诉我准确的对象是谁？"
                )
    return None


def _said_allowed(param: Param) -> str:
    said = _ONLY_ZH.search(param.description)
    return said.group(1) if said else "字母和数字"


# ---------------------------------------------------------------------------------------------
# The check
# ---------------------------------------------------------------------------------------------

CHECKS: tuple[Check, ...] = (
    condition_check,
    time_check,
    items_check,
    target_check,
    free_text_check,
)


def conversation_texts(messages: list[dict[str, Any]]) -> tuple[str, ...]:
    """Words a target may be grounded in: user and system messages, tool results, and the
    arguments of calls made before the latest request."""
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    texts = []
    for index, message in enumerate(messages):
        if message.get("role") in ("user", "system", "developer", "tool"):
            texts.append(message_text(message))
        for call in message.get("tool_calls") or [] if index < last_user else []:
            texts.append(str((call.get("function") or {}).get("arguments", "")))
    return tuple(texts)


def conversation_now(
    messages: list[dict[str, Any]], clock: datetime, *, fixed: bool
) -> tuple[datetime, bool]:
    """The conversation's "now", and whether its time of day is known (fixed clock, stated time)."""
    early = stated_now(messages, clock.replace(hour=0, minute=1))
    late = stated_now(messages, clock.replace(hour=23, minute=59))
    return stated_now(messages, clock), fixed or early.time() == late.time()


def date_is_stated(messages: list[dict[str, Any]], clock: datetime) -> bool:
    """Whether a system or developer message states today's date (``today.stated_now``)."""
    other = clock.replace(year=2000, month=1, day=1)
    return stated_now(messages, other).date() != other.date()


def check_calls(
    request: str, calls: list[PlannedCall], specs: list[Spec], conv: Conversation
) -> Plan | None:
    """``None`` when every side effect passes; else the plan that replaces the turn: the read-only
    calls of the turn, the lookup a condition needs, or one question."""
    conv = Conversation(
        conv.now,
        conv.precise,
        conv.results,
        conv.texts,
        tuple(calls),
        tuple(specs),
        conv.parallel,
        conv.dated,
    )
    lookups = [c for c in calls if reads(_spec_of(c.name, conv.specs))]
    for call in calls:
        spec = _spec_of(call.name, conv.specs)
        finding = (
            None
            if reads(spec)
            else next(
                (f for f in (check(request, call, spec, conv) for check in CHECKS) if f), None
            )
        )
        if finding is None:
            continue
        if lookups or finding.lookup is not None:
            return Plan(lookups or [finding.lookup], None, "call")
        return Plan([], finding.question, "clarify")
    return None


def preflight(
    plan: Plan,
    request: str,
    specs: list[Spec],
    results: list[tuple[PlannedCall, str]],
    messages: list[dict[str, Any]],
    clock: datetime,
    *,
    fixed: bool,
    parallel: bool = True,
) -> Plan:
    """The plan, or what replaces it when a side effect fails a check (the simulator's hook)."""
    if not plan.calls:
        return plan
    now, precise = conversation_now(messages, clock, fixed=fixed)
    texts = conversation_texts(messages)
    dated = fixed or date_is_stated(messages, clock)
    conv = Conversation(now, precise, tuple(results), texts, parallel=parallel, dated=dated)
    plan = split_items(plan, request, specs, conv)
    if not plan.calls:
        return plan
    return check_calls(request, plan.calls, specs, conv) or plan


__all__ = [
    "CHECKS",
    "Conversation",
    "Finding",
    "check_calls",
    "condition_check",
    "conditions",
    "free_text_check",
    "items",
    "items_check",
    "preflight",
    "split_items",
    "reads",
    "target_check",
    "time_check",
]
