"""What a question asks about: its subject ("出发日期定在哪天？" → 出发日期), whether a tool
provides that thing, and whether it is a thing the user tells rather than one a tool looks up.

A question for a value names the thing whose value it wants and a question word (多少, 什么, 谁, 哪
天 …). Three readings follow from the subject:

- ``unprovided``: the words of the subject a tool's text does not cover. ``get_current_time``
  provides the current date, not "the departure date": a question about 出发日期 shares 日期 with
  it, but 出发 is nowhere in the tool's words, so the tool does not answer it. Values the call
  takes (a city, a day, an id), time words and the words that only make it a question are no part
  of what must be provided; a word the tool's intent stands for counts as its own ("现在" for a
  tool that tells the time, in any language).
- ``stated_by_user``: the subject is of a kind people tell an assistant about their own affairs —
  a person they deal with (同事, 联系人, 教练), a limit or a budget (上限, 最多, 预算), a decision
  (定在, 约好的), this trip or this time (这次, 本次). Such a question, with no tool for it, is
  answered from the conversation or said not to be there — never "no tool can do this".
- ``answering_line``: the known line (an earlier statement of the user's) that tells the subject's
  value: it holds the subject's head ("电话" of 客户联系人的电话) and most of its words.

Left out: word segmentation (a subject is compared by characters and bigrams), and subjects that
come after the question word ("我对什么过敏" keeps 过敏 by removing the question word, not by
grammar).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from .actions import without_reading_words
from .arguments import params_of
from .arguments.entities import find_cities, find_currencies, find_enum, find_people
from .dates import find_dates, find_times
from .lexicon import INTENTS, intents_in
from .text import CJK_RANGE, STOP_BIGRAMS, find_numbers, normalize
from .vocabulary import expand

# the words that ask for a value, with the copula or verb before them: what is left is the subject
_ASKING = re.compile(
    r"(?:是|定在|定于|定的是|订在|约在|约的是|在|叫|为|有|要|等于|相当于|折合|合|能换|换成|可以换)?\s*"
    r"(?:多少钱?|多大|多久|多长|多远|什么(?:时候|名字|地方|样的?)?|啥(?:时候)?|谁|哪(?:一?天|一?个|位"
    r"|里|儿|些|年|月|一?号)|几(?:月几号|月|号|点|天|个|页|位|岁|人|次|间)?|怎么样|如何)"
)
_PARTICLES = re.compile(r"[吗呢啊呀吧么嘛?？!！。.,，\s]+$")
# what opens a question without being its subject
_QUESTION_LEAD = re.compile(
    r"^(?:请问|问一下|我想知道|想知道|你知道|你还记得|还记得|记得|告诉我|帮我查一下|帮我看看|帮我)+"
)
# characters that carry no subject: particles, pronouns, deictics, degree and question words
_EMPTY = frozenset(
    "的了吗呢么嘛吧啊呀哦是有在我你他她它们这那个一和与及就还都也很要想请帮给把被次本该咱"
    "最大概约具体到底究竟总共计目前当又再问下"
)
# words that say a subject is the user's own business: people they deal with, limits, budgets,
# decisions, this trip or this time
_STATED_KIND = re.compile(
    r"这次|这趟|这回|本次|那次|上次|我们|咱们|咱|约好|订好|定好|说好|商量好|讲好|谈好|定在|定了|定的"
    r"|决定|确定|同行|同事|联系人|负责人|对接人|教练|老师|医生|朋友|领导|经理|上限|下限|最多|最少"
    r"|不超过|预算|截止|期限|出发|回程|返程|行程|过敏|忌口|偏好|喜欢"
)


# a relative clause before the subject's head ("约好的教练", "订过的酒店"): how it came about, not
# what it is
_RELATIVE = re.compile(r"(?:约|订|定|说|讲|谈|商量|安排|买|发)(?:好|过|了)的?")
# degree words in the subject ("每晚最多多少钱", "最多写几页"): the kind of limit, not the thing
_DEGREE = re.compile(r"最多|最少|最高|最低|至少|至多|大概|大约|一共|总共|平均")


# words that say nothing about what a tool does ("返回", "例如", "获取"): no character of theirs
# covers a subject
_SAYS_NOTHING = re.compile("|".join(sorted(STOP_BIGRAMS, key=len, reverse=True)))


# "百分之八", "八折": a number's own words
_PERCENT = re.compile(r"百分之|[一二两三四五六七八九\d]折")
# a remark in brackets ("（语言检查）"): no part of the question
_BRACKETED = re.compile(r"[（(][^）)]{0,20}[）)]")


def asked_subject(question: str) -> str | None:
    """The subject of a question for a value, without its question words ("客户联系人的电话是多
    少？" → 客户联系人的电话; "我对什么过敏？" → 我对过敏); None for no such question."""
    text = normalize(question).strip()
    text = _PARTICLES.sub("", text)
    text = _QUESTION_LEAD.sub("", _BRACKETED.sub(" ", text).strip())
    if not _ASKING.search(text):
        return None
    subject = _ASKING.sub(" ", text)
    subject = re.sub(r"\s+", " ", subject).strip(" ，,")
    subject = re.sub(r"\s+", " ", _DEGREE.sub(" ", subject)).strip()
    return subject or None


def head(subject: str) -> str:
    """The last two Chinese characters of the subject that carry something: its head noun ("电话"
    of 客户联系人的电话, "日期" of 出发日期)."""
    chars = [ch for ch in subject if re.fullmatch(f"[{CJK_RANGE}]", ch) and ch not in _EMPTY]
    return "".join(chars[-2:])


def stated_by_user(question: str) -> bool:
    """Whether a question asks about something of the kind the user tells (see the module
    docstring)."""
    subject = asked_subject(question)
    return subject is not None and bool(_STATED_KIND.search(normalize(question)))


def _bare(subject: str, values: list[Any], tool: dict[str, Any]) -> str:
    """The subject without the values a call takes (as given, or as the words that name them: 摄氏
    for ``"C"``, 美元 for ``"USD"``), numbers, ids, Latin words and time words."""
    text = subject
    for value in values:
        if isinstance(value, str) and value.strip():
            text = text.replace(normalize(value.strip()), " ")
    spans = [(n.start, n.end) for n in find_numbers(text)]
    spans += [m.span() for m in _PERCENT.finditer(text)]
    spans += [span for _, span in find_dates(text, date(2000, 1, 1))]
    spans += [span for _, span in find_times(text)]
    spans += [span for _, span in find_currencies(text, every=True)]
    spans += [span for _, span in find_cities(text, False, every=True)]
    spans += [span for _, span in find_people(text)]
    for param in params_of(tool):
        if param.enum:
            spans += [span for _, span in find_enum(param, text, every=True)]
    chars = list(text)
    for start, stop in spans:
        for index in range(start, min(stop, len(chars))):
            chars[index] = " "
    text = "".join(chars)
    text = re.sub(r"[A-Za-z0-9_\-.:/]+", " ", text)
    return re.sub(r"[今明后昨前]天|今晚|明早|现在|目前|当前|这周|下周|上周|本周", " ", text)


def unprovided(subject: str, tool: dict[str, Any], values: list[Any]) -> str:
    """The first two adjacent characters of ``subject`` that the tool's words do not cover ("出发"
    of 出发日期 for a tool that tells the current date and time), or "" when the tool provides the
    whole subject."""
    name = str(tool.get("name", "")).replace("_", " ")
    description = str(tool.get("description", "") or "")
    parameters = tool.get("parameters") or {}
    said = " ".join(
        f"{key} {schema.get('description', '')}"
        for key, schema in (parameters.get("properties") or {}).items()
        if isinstance(schema, dict)
    )
    words = f"{name} {description} {said}"
    words = _SAYS_NOTHING.sub(" ", normalize(f"{words} {expand(words)}").lower())
    covered = set(words)
    wanted = intents_in(words)
    for intent in wanted:  # "现在" for a tool that tells the time, in whatever language it is
        covered.update(ch for trigger in INTENTS[intent] for ch in trigger)
    text = _SAYS_NOTHING.sub(" ", _bare(without_reading_words(normalize(subject)), values, tool))
    runs = [r for r in re.findall(f"[{CJK_RANGE}]+", text) if set(r) - _EMPTY]
    if not runs:
        return ""
    run = runs[-1]  # the words around the head: what is asked about, not a label before it
    for index in range(len(run) - 1):
        pair = run[index : index + 2]
        if not (set(pair) & (covered | _EMPTY)):
            return pair
    return ""


def answering_line(question: str, lines: list[str]) -> str | None:
    """The known line that tells the value the question asks for: it holds the subject's head and
    at least half of the subject's bigrams (question words, deictics and particles aside) — and it
    tells, it does not ask."""
    subject = asked_subject(question)
    if subject is None:
        return None
    key = head(subject)
    if len(key) < 2:
        return None
    wanted = _bigrams(_RELATIVE.sub(" ", subject)) or _bigrams(subject)
    # lines that name the subject equally well are told apart by the rest of the question: "周会
    # 定在什么时候？" is told by "周会定在周一下午 3 点", not by "我们决定用企业微信开周会"
    asked = _bigrams(normalize(question))
    best: tuple[float, int, int, str] | None = None
    for index, line in enumerate(lines):
        plain = normalize(line)
        if key not in plain:
            continue
        said = _bigrams(plain)
        share = len(wanted & said) / len(wanted) if wanted else 0.0
        rank = (share, _tells_kind(question, plain), len(asked & said), index)
        if share >= 0.5 and (best is None or rank > best[:4]):
            best = (*rank, line)
    return best[4] if best else None


_ASKS_WHEN = re.compile(r"哪一?天|什么时候|啥时候|几点|几号|几月|哪年|\bwhen\b", re.I)
_ASKS_AMOUNT = re.compile(
    r"多少|几个|几位|几人|几间|几次|几页|多大|多久|多长|how (?:many|much)", re.I
)
_ASKS_WHO = re.compile(r"谁|哪位|\bwho\b", re.I)


def _tells_kind(question: str, line: str) -> bool:
    """Whether ``line`` holds a value of the kind the question asks for: a date or time for 哪天 /
    几点, a number for 多少, a person for 谁. A line that only names the subject tells nothing."""
    if _ASKS_WHEN.search(question):
        return bool(find_dates(line, date(2000, 1, 1)) or find_times(line))
    if _ASKS_AMOUNT.search(question):
        return bool(find_numbers(line))
    if _ASKS_WHO.search(question):
        return bool(find_people(line))
    return False


def _bigrams(text: str) -> set[str]:
    found = set()
    for run in re.findall(f"[{CJK_RANGE}]+", text):
        chars = [ch for ch in run if ch not in _EMPTY]
        found.update(a + b for a, b in zip(chars, chars[1:]))
    return found


__all__ = ["answering_line", "asked_subject", "head", "stated_by_user", "unprovided"]
