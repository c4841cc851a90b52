"""Language as data: synonym groups and question endings read from ``vocabulary_data``.

``expand`` adds, for every synonym group one of whose members a text contains, the other members —
so a tool described in English ("Cancel an appointment") is matched by a Chinese request ("把预约撤
了"), a pinyin tool name by its Chinese verb, and a homophone typo (定 for 订) by the verb it stands
for. ``is_question`` tells a question ending in a particle (…放假不？ …有打印机没) or an A-not-A
form (开不开) from a statement, and ``asks`` also takes a question word (到哪了, 什么情况);
``asks_about_state`` tells a question whether something has happened (撤了吗) from a request to do
it, and ``asks_politely`` a request in a question's form (能不能帮我…); ``members`` lists every
member of the groups a text names.

Left out: word senses (a member of a group is taken in the group's sense wherever it appears) and
any learned similarity; the tables are small on purpose and grow by editing ``vocabulary_data``, not
the code.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .text import tokens
from .vocabulary_data import (
    A_NOT_A,
    LONE_CHARACTER_EXCEPTIONS,
    QUESTION_ENDINGS,
    QUESTION_WORDS,
    REQUEST_MARKERS,
    STATE_QUESTION,
    SYNONYM_GROUPS,
)

SYNONYMS: list[list[str]] = [list(group) for group in SYNONYM_GROUPS]
_ENDINGS = sorted(QUESTION_ENDINGS, key=len, reverse=True)
_QUESTION_END = re.compile("(?:" + "|".join(map(re.escape, _ENDINGS)) + r")\s*[?？。.!！~～]*\s*$")
_A_NOT_A = re.compile(A_NOT_A)
VOCABULARY_TOKENS = frozenset(
    tok for group in SYNONYMS for member in group for tok in tokens(member)
)
_ASCII_WORD = {
    m: re.compile(rf"(?<![a-z]){re.escape(m)}(?![a-z])") for g in SYNONYMS for m in g if m.isascii()
}


_LONE = {member: re.compile(words) for member, words in LONE_CHARACTER_EXCEPTIONS.items()}


def _contains(low: str, member: str) -> bool:
    if member.isascii():
        return bool(_ASCII_WORD[member].search(low))
    if member in _LONE:
        return member in _LONE[member].sub("", low)
    return member in low


@lru_cache(maxsize=2048)
def expand(text: str) -> str:
    """The other members of every synonym group ``text`` mentions, joined by spaces ("" when
    none).
    """
    low = text.lower()
    extra: list[str] = []
    for group in SYNONYMS:
        if any(_contains(low, member) for member in group):
            extra.extend(member for member in group if not _contains(low, member))
    return " ".join(extra)


@lru_cache(maxsize=2048)
def members(text: str) -> frozenset[str]:
    """Every member of every synonym group ``text`` mentions, those it contains included."""
    low = text.lower()
    return frozenset(
        member for group in SYNONYMS if any(_contains(low, m) for m in group) for member in group
    )


def is_question(text: str) -> bool:
    """A question mark, a question particle at the end, an A-not-A form ("开不开", "有没有"), or
    a word that asks yes or no ("是否已撤销")."""
    stripped = text.strip()
    return bool(
        re.search(r"[?？]\s*$|是否|可否|能否|有无", stripped)
        or _QUESTION_END.search(stripped)
        or _A_NOT_A.search(stripped)
    )


_WH = re.compile(QUESTION_WORDS)


def asks(text: str) -> bool:
    """A question by its form (``is_question``) or by a question word ("到哪了", "什么情况")."""
    return is_question(text) or bool(_WH.search(text))


_STATE = re.compile(STATE_QUESTION)
_REQUEST = re.compile(REQUEST_MARKERS, re.I)


def asks_politely(text: str) -> bool:
    """A request in a question's form ("能不能帮我…", "麻烦…好吗"): a request marker."""
    return bool(_REQUEST.search(text))


# a statement of what has or has not happened ("CD2207 已经退掉了", "还没有收到", "没有被取出")
_TELLS_STATE = re.compile(
    r"(?:已经|早就|已)[^，,。；;]{0,16}?了\s*[。！!.]?\s*$|还没有?[\u4e00-\u9fff]{1,6}|没有被|尚未"
)


# what someone did, told ("我帮AP2031退了钱", "他把会取消了"): the teller or a third person, then
# what was done to what, then 了 — no wish (要/想) and no request marker between
_TELLS_DONE = re.compile(
    r"^(?:(?:我们?|他们?|她们?|对方|同事|客户)(?:和|跟|与)?)+"
    r"(?:已经|早就|刚刚?|刚才|之前|昨天|前天|上周|今天)?"
    r"(?:帮|替|给|把)[^，,。；;:：要想请得]{1,12}?了(?![吧吗没])"
)


# "告诉他…", "跟她说…" starting a clause: the words of a message to someone
TOLD = re.compile(
    r"(?:^|(?<=[，,\s]))(?:(?:告诉|转告|通知|提醒)(?:一下)?(?:他们|她们|他|她|对方|大家)"
    r"|(?:跟|和)(?:他们|她们|他|她|对方|大家)说)"
)
# "发短信说…", "发条消息：…", or a clause that TOLD starts: what follows is the message's
_MESSAGE_BODY = re.compile(
    rf"(?<=[发送])[^，,。；;]{{0,12}}?(?:说(?!明)|[:：“\"「『])|{TOLD.pattern}"
)


# what the teller did with a plain verb ("我约了周六的课", "我们已经订过了", "I booked court C3"),
# unless a wish or an order follows it ("我订了 3 张，想再加 1 张", "I booked it but need …")
_DID = re.compile(
    r"^(?:我们?|他们?|她们?)(?:已经|早就|刚刚?|刚才|之前|昨天|前天|上周|今天)?"
    r"(?:(?![要想请得需能会可该打准希别不没])[\u4e00-\u9fff]){1,2}?[了过](?![吧吗没])"
    r"|^(?:i|we)(?:'ve|\s+have|\s+had)?\s+(?:already\s+|just\s+)?"
    r"(?!(?:want|need|hop|lik|wonder|plann|intend|wish|decid)ed\b)"
    r"(?:[a-z]{3,}ed|made|paid|sent|bought|took|got|gave)\b",
    re.I,
)
# what was done to someone's thing, told in the passive ("你的预约123被取消了", "订单已被退回"):
# the thing is someone's, or 已 says it is done; a later clause may still order. A bare "PO7781
# 被取消了" stays an order, as people write one
_DONE_TO = re.compile(
    r"(?:(?:你|您|我|他|她)们?的[^，,。；;被]{1,12}|已经?)被[\u4e00-\u9fff]{1,6}?了?"
    r"(?=\s*(?:[，,。；;！!.]|$))"
)
_WISH_AFTER = re.compile(
    r"[想要]|希望|打算|准备|一下|吧|\b(?:want|need|would like|'d like|can you|could you|help)\b",
    re.I,
)


# what an assistant says of the action it takes ("好的，…我正在取消预约", "我这就为您取消", "感谢您
# 注册新用户"): a message in the assistant's voice
_ASSISTANT_SAYS = re.compile(
    r"(?:我|这边)(?:正在|这就|马上|立即|立刻|现在就)(?:[为帮给替](?:您|你))?"
    r"|^(?:好的[，,]\s*)?(?:感谢|谢谢)(?:您|你)(?!们)"
)


# the one addressed is served: their things ("你的预约编号"), done for them ("为您"), thanked
_SERVES_YOU = re.compile(r"(?:你|您)的|[为帮给替](?:您|你)|(?:感谢|谢谢)(?:您|你)")


def assistant_says(text: str) -> str | None:
    """The action a message in an assistant's voice says it takes ("取消预约", "注册新用户"): it
    serves the one it addresses and says nothing of the speaker's own, and nothing else in it asks
    for anything (no request marker, no wish, no question); else None."""
    said = _ASSISTANT_SAYS.search(text)
    rest = _ASSISTANT_SAYS.sub("", text)
    if not said or _REQUEST.search(rest) or re.search(r"[要想需?？]", rest):
        return None
    if not _SERVES_YOU.search(text) or re.search(r"我的|我是", text):
        return None  # "我是张三，我的客户ID是…，我正在登记客户": the customer speaking
    action = re.split(r"[，,。；;！!\s]", text[said.end() :], maxsplit=1)[0]
    return action if re.fullmatch(r"[\u4e00-\u9fff]{2,12}", action) else None


def tells_state(text: str) -> bool:
    """A statement whether something has happened, not a request to do it: it triggers no side
    effect either. A request marker ("已经付了，帮我退了") keeps it a request; what a message is to
    say ("发短信告诉他报告已经出来了") is no statement of the sender's."""
    head = _MESSAGE_BODY.split(text, maxsplit=1)[0]
    return (
        not is_question(text)
        and bool(_TELLS_STATE.search(head) or _TELLS_DONE.search(head.strip()) or _did(head))
        and not _REQUEST.search(re.sub(r"我们?帮", "", text))  # "我帮他退了" tells
    )


def _did(text: str) -> bool:
    from .actions import ordered_verb  # actions reads this module's groups

    done = _DID.search(text.strip()) or _DONE_TO.search(text.strip())
    if not done:
        return False
    rest = text.strip()[done.end() :]
    clauses = [c.strip() for c in re.split(r"[，,。；;]", rest)[1:] if c.strip()]
    # "我借了 LN3300，续借": a later clause that orders something makes it a request
    return not _WISH_AFTER.search(rest) and not any(ordered_verb(c) for c in clauses)


def asks_about_state(text: str) -> bool:
    """A question whether something has happened ("PO7781 撤了吗", "是不是已经作废了？"), not a
    request to do it: it triggers no side effect. A request marker ("帮我撤了吧？") keeps it a
    request."""
    asked = _CONFIRM.sub("", text)  # "能否确认已经作废": asks to be told, not to void
    return is_question(text) and bool(_STATE.search(text)) and not _REQUEST.search(asked)


_CONFIRM = re.compile(
    r"(?:能否|能不能|可否|可不可以|可以|请|帮我|麻烦)+\s*确认(?:一下)?(?=\s*(?:已经|已|是否|有没有))"
)


__all__ = [
    "SYNONYMS",
    "VOCABULARY_TOKENS",
    "asks",
    "asks_about_state",
    "tells_state",
    "TOLD",
    "asks_politely",
    "expand",
    "is_question",
    "members",
]
