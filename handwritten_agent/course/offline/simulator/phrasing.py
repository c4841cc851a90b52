"""Pieces of sentences: a calculation in words, a number put back into the question, what a call was
about.

- ``expression_words``: ``17 * 9`` → "17 乘以 9" / "17 times 9" (an expression with brackets keeps
  its symbols);
- ``answer_in_question``: the question with its question word replaced by the number —
  "100 美元能换多少人民币" + 720 → "100 美元能换 720 元人民币"; "How many words are in 'x'?" + 4 →
  "There are 4 words in 'x'";
- ``subject_phrase``: what the call was about, from its arguments as a reader says them ("北京明天",
  "订单号 OD20240615", "美元兑人民币"); ``action_phrase``: the call as an action ("查询订单状态（订
  单号OD20240615）"), from the tool's *name* and arguments — never from its description;
- ``clean_message``: an error or refusal cut to what the user needs, once ("除数不能为零");
- ``moment_sentence``: "现在是 2026 年 3 月 12 日（星期四）14:30" / "It is 14:30 on Thursday, 12
  March 2026".

Left out: grammar beyond these shapes; questions whose answer cannot replace a question word.
"""

from __future__ import annotations

import re
from typing import Any

from .arguments import classify, params_of
from .arguments.entities import enum_words
from .arguments.roles import SOURCE, TARGET, role_of
from .concepts import concepts_of, display_name
from .facts import Moment, join_words, parse_moment, show_text
from .fieldwords import action_words
from .lexicon import CITIES
from .text import CJK_RANGE, find_numbers, format_number, normalize

_EXPRESSION_LIKE = re.compile(r"^[\d\s.+\-*/%()]+$|sqrt\(")
_OPS = {
    "zh": {"+": "加", "-": "减", "*": "乘以", "/": "除以"},
    "en": {"+": "plus", "-": "minus", "*": "times", "/": "divided by"},
}
_NUM = r"-?\d+(?:\.\d+)?"
_DATE_LIKE = re.compile(
    r"^\s*\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|^\s*\d{1,2}[-/]\d{1,2}\s*$"
)  # 2026-03-13 is a date, not 2026 minus 3


def expression_argument(arguments: dict[str, Any]) -> str | None:
    """The arithmetic expression among a call's arguments, if there is one."""
    for value in arguments.values():
        if (
            isinstance(value, str)
            and re.search(r"\d", value)
            and _EXPRESSION_LIKE.search(value)
            and re.search(r"[-+*/%]|sqrt", value)
            and not _DATE_LIKE.match(value)
        ):
            return value
    return None


def expression_words(expression: str, lang: str) -> str:
    """``17 * 9`` → "17 乘以 9"; ``2 ** 10`` → "2 的 10 次方"; ``sqrt(2)`` → "2 的平方根"; anything
    else keeps its symbols.
    """
    text = " ".join(normalize(expression).split())
    zh = lang == "zh"
    match = re.fullmatch(rf"({_NUM})\s*\*\*\s*({_NUM})", text)
    if match:
        return f"{match[1]} 的 {match[2]} 次方" if zh else f"{match[1]} to the power of {match[2]}"
    match = re.fullmatch(rf"sqrt\(\s*({_NUM})\s*\)", text)
    if match:
        return f"{match[1]} 的平方根" if zh else f"the square root of {match[1]}"
    tokens = re.findall(rf"{_NUM}|\*\*|//|[-+*/%()]", text)
    if "".join(tokens) != text.replace(" ", "") or any(
        t in ("(", ")", "**", "//", "%") for t in tokens
    ):
        return text
    words: list[str] = []
    expect_number = True
    for token in tokens:
        if expect_number:
            if not re.fullmatch(_NUM, token):
                return text
            words.append(token)
        else:
            if token not in _OPS["en"]:
                return text
            words.append(_OPS["zh" if zh else "en"][token])
        expect_number = not expect_number
    return " ".join(words)


def calculation_sentence(expression: str, number: str, lang: str) -> str:
    words = expression_words(expression, lang)
    return join_words(join_words(words, "等于"), number) if lang == "zh" else f"{words} is {number}"


# ---------------------------------------------------------------------------------------------
# The number put back into the question
# ---------------------------------------------------------------------------------------------

_LEAD_ZH = re.compile(
    r"^(?:(?:请问|请|帮我|帮忙|麻烦|你|再|然后|并且|顺便|同时|我想知道|我想问|告诉我|问一下|那么|"
    r"那)\s*)*"
    r"(?:(?:计算一下|计算|算一下|算算|算|查询一下|查询|查一下|查|看一下|看看|估算一下|估算|统计一下"
    r"|统计)\s*)?"
)
_TAIL_ZH = re.compile(r"[吗呢啊吧呀]?\s*[？?。！!，,]*\s*$")
_ASK_ZH = re.compile(
    r"多少钱|多少|几(?=[个天点次位名件条张本台人块元岁年月周号层座只种项份辆家趟遍度])|几$"
)
_LEAD_EN = re.compile(
    r"^(?:(?:please|can you|could you|tell me|calculate|compute|and|also|then|so|now)\s+)+", re.I
)


def answer_in_question(question: str, number: str, lang: str) -> str | None:
    """The question rewritten as its answer (see the module docstring), or ``None`` when it has no
    question word to replace.
    """
    text = " ".join(normalize(question).split())
    if lang == "zh":
        text = _TAIL_ZH.sub("", _LEAD_ZH.sub("", text, count=1)).strip()
        match = _ASK_ZH.search(text)
        if not match or not text[: match.start()].strip():
            return None
        filler = f"{number} 元" if match.group(0) == "多少钱" else number
        after = text[match.end() :].lstrip()
        unit = re.sub(r"^[-\d.,]+\s*", "", number)
        overlap = next(
            (k for k in range(min(len(unit), len(after)), 0, -1) if unit.endswith(after[:k])), 0
        )
        after = after[
            overlap:
        ]  # "几天年假" + "5 天" → "5 天年假"; "多少度" + "77 华氏度" → "77 华氏度"
        out = join_words(join_words(text[: match.start()].rstrip(), filler), after)
        return re.sub(r"(\d) ?人民币", r"\1 元人民币", out)
    text = _LEAD_EN.sub("", text.strip().rstrip("?.! ")).strip()
    bare = bool(re.fullmatch(r"-?[\d.,]+", number))
    patterns = (
        (
            r"how many (.+?) (?:are|is) (?:there )?((?:in|on|at|inside|within|of) .+)",
            lambda m: f"There {'is' if number == '1' else 'are'} {number} {m[1]} {m[2]}",
        ),
        (r"how many (.+?) (?:does|do|did) (.+?) have", lambda m: f"{m[2]} has {number} {m[1]}"),
        (
            (
                r"how (?:much|far|long|heavy|big|tall|high|large|wide|hot|cold) (?:is|are) (.+?) in"
                r" (.+)"
            ),
            lambda m: f"{m[1]} is {number}" + (f" {m[2]}" if bare else ""),
        ),
        (r"how much (?:is|are|does|do) (.+?)(?: cost| worth)?", lambda m: f"{m[1]} is {number}"),
        (r"(?:what is|what's|what are|whats) (.+)", lambda m: f"{m[1]} is {number}"),
        (r"how many (.+)", lambda m: f"{number} {m[1]}"),
    )
    for pattern, build in patterns:
        match = re.fullmatch(pattern, text, re.I)
        if match:
            out = build(match)
            return out[:1].upper() + out[1:]
    return None


# ---------------------------------------------------------------------------------------------
# What the call was about
# ---------------------------------------------------------------------------------------------


def _shown(value: Any, lang: str) -> str:
    if isinstance(value, (list, tuple)):
        return ("、" if lang == "zh" else ", ").join(_shown(v, lang) for v in value)
    text = str(value).strip()
    moment = parse_moment(text)
    if moment and moment.day:
        return moment.text(lang)
    if lang == "en" and text in CITIES:
        return CITIES[text]
    return display_name(
        text, lang, ("day", "weekday", "currency", "language", "temperature", "length", "weight")
    ) or show_text(text, lang)


def _pair_word(values: list[Any], lang: str) -> str:
    """How two role-paired values are joined: 美元兑人民币, 北京到上海, USD to CNY."""
    if lang != "zh":
        return " to "
    if any(c.family == "currency" for v in values for c in concepts_of(v)):
        return "兑"
    return "到"


def _span_of(start: Moment | None, end: Moment | None, lang: str) -> str:
    """A start/end pair as one span: "2026 年 3 月 13 日 15:00 到 16:00" (the day once when both
    share it).
    """
    if not start or not end:
        return (start or end).text(lang) if (start or end) else ""
    joint = " 到 " if lang == "zh" else " to "
    if start.day and start.day == end.day and end.clock:
        return start.text(lang) + joint + Moment(clock=end.clock, zone=end.zone).text(lang)
    return start.text(lang) + joint + end.text(lang)


# a parameter whose name or description says it holds a secret: never said back in an answer
_SECRET_PARAM = re.compile(
    r"密码|口令|密钥|令牌|验证码|(?<![a-z])pin(?![a-z])|passwords?|passwd|passcode|secret|"
    r"(?<![a-z])token(?![a-z])|"
    r"api[_ -]?key|access[_ -]?key|credential",
    re.I,
)


def without_secrets(spec: dict[str, Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """``arguments`` without the values of parameters that hold a secret (a password, a PIN, a
    token, a key — by the parameter's name or description): an answer confirms what was done, it
    does not repeat a secret the user typed into the chat."""
    params = {p.name: p for p in params_of(spec)}

    def secret(name: str) -> bool:
        param = params.get(name)
        said = f"{name} {param.description if param else ''}"
        return bool(_SECRET_PARAM.search(said))

    return {name: value for name, value in arguments.items() if not secret(name)}


def subject_phrase(
    spec: dict[str, Any], arguments: dict[str, Any], lang: str, *, with_text: bool = True
) -> str:
    """What a call was about, from its arguments (never a secret's value, ``without_secrets``):
    "北京明天", "订单号 OD20240615", "美元兑人民币".
    """
    params = {p.name: p for p in params_of(spec)}
    arguments = without_secrets(spec, arguments)
    parts: list[str] = []
    pair: dict[int, str] = {}
    moments: dict[int, Moment | None] = {}
    for name, value in arguments.items():
        if name.startswith("_") or value in (None, "", [], {}) or isinstance(value, bool):
            continue
        param = params.get(name)
        kind = classify(param) if param else "unknown"
        if kind in ("expression", "number") or isinstance(value, (int, float)):
            continue
        if kind == "text" or (isinstance(value, str) and len(value) > 30):
            if with_text and isinstance(value, str) and len(value) <= 16:
                parts.append(f"「{value}」" if lang == "zh" else f"“{value}”")
            continue
        if (
            kind == "datetime"
            and param
            and role_of(param) in (SOURCE, TARGET)
            and isinstance(value, str)
        ):
            moments[role_of(param)] = parse_moment(value)
            if moments[role_of(param)]:
                continue
        if (
            kind == "enum"
            and any(c.family in UNIT_FAMILIES for c in concepts_of(value))
            and role_of(param) == -1
        ):
            # a unit (celsius) is said with the numbers it applies to, not as what the call was
            # about
            continue
        shown = _shown(value, lang)
        if kind == "enum" and param and lang == "zh" and not re.search(f"[{CJK_RANGE}]", shown):
            paired = [w for w in enum_words(param, value) if re.search(f"[{CJK_RANGE}]", w)]
            shown = (
                paired[0] if paired else shown
            )  # "unpaid" → 未付款, the word its description gives
        role = role_of(param) if param else -1
        if param and role in (SOURCE, TARGET) and kind in ("enum", "currency", "city"):
            pair[role] = shown
            continue
        if kind == "pattern" and param:
            label = re.sub(r"^(?:the|a|an)\s+", "", param.label(), flags=re.I)
            if lang == "en" and set(re.findall(r"[a-z]+", label.lower())) & set(
                re.findall(r"[a-z]+", str(spec.get("name", "")).lower())
            ):
                # "book_desk" with "desk id D12": the tool's name already says it is a desk
                label = ""
            label_is_chinese = bool(re.search(f"[{CJK_RANGE}]", label))
            acronym = bool(
                re.fullmatch(r"[A-Z][A-Z0-9]{1,5}", label)
            )  # "ISBN" reads the same in both languages
            if (
                label
                and len(label) <= 8
                and label != shown
                and (acronym or label_is_chinese == (lang == "zh"))
            ):
                shown = join_words(label, shown) if lang == "zh" else f"{label} {shown}"
        parts.append(shown)
    if moments:
        parts.append(_span_of(moments.get(SOURCE), moments.get(TARGET), lang))
    if len(pair) == 2:
        values = [
            arguments[n]
            for n in arguments
            if params.get(n) and role_of(params[n]) in (SOURCE, TARGET)
        ]
        parts.insert(0, f"{pair[SOURCE]}{_pair_word(values, lang)}{pair[TARGET]}")
    else:
        parts[:0] = list(pair.values())
    if lang == "zh":
        out = ""
        for part in parts:
            out = (
                join_words(out, part)
                if not (out.endswith("」") or part.startswith("「"))
                else out + part
            )
        return out
    return " ".join(parts)


UNIT_FAMILIES = ("temperature", "length", "weight")


def conversion(
    spec: dict[str, Any], arguments: dict[str, Any], lang: str
) -> tuple[str, str, bool] | None:
    """A call that converts from one value to another of the same kind (currencies, units): the two
    as a reader names them and whether they are currencies — ``("美元", "人民币", True)`` for
    ``from_currency=USD, to_currency=CNY``.
    """
    params = {p.name: p for p in params_of(spec)}
    ends: dict[int, Any] = {}
    for name, value in arguments.items():
        param = params.get(name)
        if (
            param
            and role_of(param) in (SOURCE, TARGET)
            and isinstance(value, str)
            and classify(param) in ("enum", "currency", "literal", "unknown")
        ):
            ends[role_of(param)] = value
    if len(ends) != 2:
        return None
    families = [{c.family for c in concepts_of(v)} for v in ends.values()]
    shared = families[0] & families[1] & {"currency", *UNIT_FAMILIES}
    if not shared:
        return None
    return _shown(ends[SOURCE], lang), _shown(ends[TARGET], lang), "currency" in shared


def conversion_sentence(amount: str, pair: tuple[str, str, bool], value: str, lang: str) -> str:
    """ "250 美元能换 1800 人民币" / "5 英里等于 8.05 公里" / "250 USD is 1,800 CNY"."""
    source, target, money = pair
    if lang == "zh":
        return f"{amount} {source}{'能换' if money else '等于'} {value} {target}"
    return f"{amount} {source} is {value} {target}"


def action_phrase(spec: dict[str, Any], arguments: dict[str, Any], lang: str) -> str:
    """The call as an action, from the tool's name and arguments: "发送短信（客户ID C001）", "look
    up order status for OD20240615".
    """
    name = str(spec.get("name", "") or "tool")
    verb, obj = action_words(name, lang, str(spec.get("description", "") or ""))
    subject = subject_phrase(spec, arguments, lang, with_text=False)
    if lang == "zh":
        head = join_words(verb, obj) if verb else f"调用 {name}"
        return f"{head}（{subject}）" if subject else head
    head = f"{verb} {obj}".strip() if verb else f"call {name}"
    return f"{head} for {subject}" if subject else head


# ---------------------------------------------------------------------------------------------
# Messages and moments
# ---------------------------------------------------------------------------------------------

_PREFIX = re.compile(
    r"^\s*(?:error|错误|出错|failed|failure|exception|\w*error|工具执行失败|调用失败|执行失败)\s"
    r"*[:：]\s*(?=\S)",
    re.I,
)
_EN_TO_ZH = (
    (r"division by zero|divide by zero|divided by zero|zerodivision", "除数不能为零"),
    (r"\bnot found\b|does not exist|no such", "没有找到"),
    (r"timed? ?out", "超时了"),
    (r"permission denied|forbidden|not allowed|unauthori[sz]ed", "没有权限"),
    (r"invalid (?:argument|parameter|input)", "参数无效"),
    (r"rate limit", "请求太频繁"),
)
_ZH_TO_EN = (
    (r"除数不能为零|除以 ?0|除数为零", "division by zero"),
    (r"没有找到|不存在|找不到", "not found"),
    (r"超时", "timed out"),
    (r"没有权限|无权|权限不足", "permission denied"),
)


def clean_message(message: str, lang: str, mentions: list[str] = ()) -> str:
    """An error or refusal as the user needs it: no "Error:" prefix, its first sentence, a part that
    only repeats the call (``mentions``) dropped, in the answer's language when it is a common
    message.
    """
    text = " ".join(str(message or "").split())
    for _ in range(2):
        text = _PREFIX.sub("", text)
    text = re.split(r"(?<=[。！？!?])|(?<=\.)\s", text, maxsplit=1)[0].strip().rstrip("。.!！")
    split = re.search(r"：|: ", text)
    head, sep, tail = (
        (text[: split.start()], split.group(0), text[split.end() :]) if split else (text, "", "")
    )
    if sep and head.strip() and tail.strip():
        squashed = tail.replace(" ", "")
        if (
            any(m and m.replace(" ", "") in squashed for m in mentions)
            or len(head) >= len(tail) * 3
        ):
            text = head.strip()
        else:
            text = (
                f"{head.strip()}（{tail.strip()}）"
                if lang == "zh"
                else f"{head.strip()} ({tail.strip()})"
            )
    cjk = re.search(f"[{CJK_RANGE}]", text)
    if lang == "zh" and not cjk:
        for pattern, words in _EN_TO_ZH:
            if re.search(pattern, text, re.I):
                return words
    if lang == "en" and cjk:
        for pattern, words in _ZH_TO_EN:
            if re.search(pattern, text):
                return words
    return text


_LEAD_YES_NO = re.compile(
    r"^(?:(?:请问|请|帮我|帮忙|麻烦|查一下|查查|看一下|看看|问一下|我想知道)\s*)+"
)
_NEGATIONS_ZH = (
    ("是不是", "不是"),
    ("有没有", "没有"),
    ("能不能", "不能"),
    ("会不会", "不会"),
    ("可不可以", "不可以"),
    ("要不要", "不需要"),
    ("是否", "不"),
    ("是", "不是"),
    ("有", "没有"),
    ("能", "不能"),
    ("可以", "不可以"),
    ("会", "不会"),
    ("在", "不在"),
)
_AFFIRM_ZH = (
    ("是不是", "是"),
    ("有没有", "有"),
    ("能不能", "能"),
    ("会不会", "会"),
    ("可不可以", "可以"),
    ("要不要", "需要"),
    ("是否", ""),
)
_EN_YES_NO = re.compile(
    r"^(is|are|was|were|can|could|will|would|does|do|did|has|have|should)\s+(\S+(?:\s+the)?(?:\s+\S"
    r"+)??)\s+(.+)$",
    re.I,
)


_YES_NO_ZH = re.compile(
    r"吗$|嘛$|是不是|有没有|能不能|会不会|可不可以|要不要|是否|([\u4e00-\u9fff])不\1"
)
_YES_NO_EN = re.compile(
    r"^(?:is|are|was|were|can|could|will|would|does|do|did|has|have|should)\b", re.I
)


def asks_yes_no(question: str) -> bool:
    """Whether a question wants a yes or a no ("今天是不是工作日", "A301 有空吗", "Is the Louvre
    open today?").
    """
    text = " ".join(normalize(question).split()).strip().rstrip("?？。!！ ")
    return bool(_YES_NO_ZH.search(text) or _YES_NO_EN.match(text))


def yes_no_sentence(
    question: str, truth: bool, lang: str, pivot: frozenset[str] | set[str] = frozenset()
) -> str | None:
    """A yes/no question answered: "今天是不是工作日" + True → "是的，今天是工作日"; "Is the Louvre
    open today?" + True → "Yes, the Louvre is open today" (``pivot``: words of the field, where the
    verb goes). ``None`` when the question cannot be turned into its answer (then the facts are said
    as they are)."""
    text = " ".join(normalize(question).split()).strip().rstrip("?？。!！ ")
    if lang == "zh":
        text = _LEAD_YES_NO.sub("", text)
        text = re.sub(r"[吗嘛么呢]$", "", text).strip()
        for word, replacement in _AFFIRM_ZH if truth else _NEGATIONS_ZH:
            if word in text:
                return ("是的，" if truth else "不，") + text.replace(word, replacement, 1)
        a_not_a = re.search(r"([\u4e00-\u9fff])不\1", text)  # "空不空" → 空 / 不空
        if a_not_a:
            said = a_not_a.group(1) if truth else "不" + a_not_a.group(1)
            return (
                ("是的，" if truth else "不，")
                + text[: a_not_a.start()]
                + said
                + text[a_not_a.end() :]
            )
        return f"是的，{text}" if truth and text else None
    match = _YES_NO_EN.match(text)
    if not match:
        return None
    verb = match.group(0).lower()
    words = text[match.end() :].split()
    at = next(
        (i for i, w in enumerate(words) if w.lower().strip(",.") in {p.lower() for p in pivot}),
        None,
    )
    if at is None or at == 0:
        return None
    subject, rest = " ".join(words[:at]), " ".join(words[at:])
    negative = {
        "can": "cannot",
        "will": "will not",
        "does": "does not",
        "do": "do not",
        "did": "did not",
    }.get(verb, f"{verb} not")
    return f"Yes, {subject} {verb} {rest}" if truth else f"No, {subject} {negative} {rest}"


_ASKS_CLOCK = re.compile(r"几点|时间|时刻|钟|现在|当前|\bnow\b|\btime\b|clock", re.I)
_ASKS_DAY = re.compile(
    r"几号|日期|星期几|周几|礼拜几|哪天|哪一天|几月|今天|\bdate\b|\bday\b|today|weekday", re.I
)


def moment_sentence(moment: Moment, question: str, subject: str, lang: str) -> str:
    """ "现在是 2026 年 3 月 12 日（星期四）14:30"; "今天是 …" when only the day was asked for."""
    with_clock = bool(moment.clock) and (
        bool(_ASKS_CLOCK.search(question)) or not _ASKS_DAY.search(question)
    )
    if lang == "zh":
        lead = (
            ("现在是" if with_clock or not moment.day else "今天是")
            if not subject
            else f"{subject}现在是"
        )
        return join_words(lead, moment.text("zh", with_clock=with_clock))
    day = (
        Moment(moment.day, None, moment.weekday).text("en")
        if (moment.day or moment.weekday)
        else ""
    )
    where = f"In {subject}, it" if subject else "It"
    if with_clock and moment.clock:
        clock = Moment(clock=moment.clock, zone=moment.zone).text("en")
        return f"{where} is {clock}" + (f" on {day}" if day else "")
    return f"{'In ' + subject + ', today' if subject else 'Today'} is {day}"


def numbers_in(text: str) -> set[str]:
    return {format_number(n.value) for n in find_numbers(normalize(text))}


__all__ = [
    "conversion",
    "conversion_sentence",
    "expression_argument",
    "expression_words",
    "calculation_sentence",
    "answer_in_question",
    "subject_phrase",
    "action_phrase",
    "asks_yes_no",
    "clean_message",
    "moment_sentence",
    "numbers_in",
    "yes_no_sentence",
]
