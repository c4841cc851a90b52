"""What the prompt already says about the user: injected memories, a summary, earlier statements.

A model answers "我的预算上限是多少？" from what it was told earlier: a block of memories put into
the prompt (a system message headed "关于用户的已知信息"), a summary of older rounds (a system
message with 摘要 in its heading), or the user's own words in an earlier round. This module gives
the simulator the same ability, as three rules applied when the planner found no call to make
(a tight summary lists each group on one line, "【约束】a；b"; its items are read one by one):

1. **Fill from what is known.** A request that lacks a required argument ("明天我那边天气怎么样？")
   is planned again with each known line that bears on it added in brackets; the first that makes
   the call possible is used ("我住在杭州" gives ``city=杭州``).
2. **Answer from what is known.** A question that shares words with known lines is answered with
   the best of them ("根据你之前告诉我的：预算上限是 5000 元"); a question about the user or the
   earlier conversation with nothing known that fits says so instead of guessing.
3. **Acknowledge a statement.** A sentence that tells a fact, preference, constraint or task
   about the user ("我不吃辣。", "我的预算上限是 5000 元。") and asks for nothing gets a short
   acknowledgement — instead of the fallback reply, and instead of a tool call the planner read
   into its words (a statement asks for no tool).

A question for a value ("出发日期定在哪天？") is read by its subject (``subjects``): a known line
that tells that subject's value answers it before any tool is called (a clock tells today's date,
not the departure date); a line about another thing of the same kind ("出发日期是…" for 回程日期)
never does; and a question about a thing of the kind people tell (同行的同事, 预算上限, 这次…) that
nothing known answers says so, like a question about "我".

Relevance is the overlap of character bigrams and words (``text.tokens``), with words that only say
"this is a question" (多少, 什么, 记得 …) left out.

Left out: resolving contradictions between known lines (the newest memory is not preferred), and
inference ("不吃辣" does not answer "能吃火锅吗").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ....messages import message_text
from .actions import READ, request_actions, without_reading_words
from .lexicon import ACTION_FORM, ASKS_FOR_SOMETHING, NOT_A_REQUEST, REQUEST_WORDS, is_small_talk
from .lexicon import REMEMBER_PREFIX as _REMEMBER_PREFIX
from .planner import Plan
from .subjects import answering_line, asked_subject, head, stated_by_user
from .summary import GROUPS, _has_name
from .text import CJK_RANGE, language, normalize, tokens
from .vocabulary import is_question

KNOWN_HEADINGS = re.compile(r"已知信息|长期记忆|摘要|记忆|known facts|memory|summary", re.I)
ABOUT_USER = re.compile(
    r"我|我们|咱们|之前|刚才|以前|记得|说过|提过|\b(?:my|i|me|we|our|remember|earlier|before)\b",
    re.I,
)
_QUESTION_TOKENS = frozenset(
    "多少 是多 几个 什么 哪个 哪里 哪儿 记得 还记 得我 说过 过吗 之前 以前 刚才 告诉 知道 是什 么呢"
    " 吗 呢 我 的".split()
)
_BULLET = re.compile(r"^\s*(?:[-•*]|\d+[.、])\s*")
_COMPACT = re.compile(r"^\s*【[^】]{1,8}】(?!\s*$)(.+)$")


def known_lines(messages: list[dict[str, Any]]) -> list[str]:
    """Known lines: bullet lines of memory/summary system messages, then the user's earlier
    sentences.
    """
    last_user = _last_user(messages)
    lines: list[str] = []
    for index, message in enumerate(messages):
        text = message_text(message)
        if message.get("role") in ("system", "developer"):
            if KNOWN_HEADINGS.search(text.split("\n", 1)[0]):
                for number, line in enumerate(text.splitlines()):
                    compact = number > 0 and _COMPACT.match(
                        line
                    )  # a tight summary lists a group on one line: "【约束】a；b"
                    if compact:
                        lines.extend(
                            item.strip() for item in compact.group(1).split("；") if item.strip()
                        )
                    elif _BULLET.match(line):
                        lines.append(_BULLET.sub("", line).strip())
        elif message.get("role") == "user" and index < last_user:
            lines.extend(
                _REMEMBER_PREFIX.sub("", s.strip())
                for s in re.split(r"(?<=[。！？!?；;])|\n", text)
                if len(s.strip()) > 1 and not _is_question(s)
            )  # what the user asked is not what they told
    return list(dict.fromkeys(line for line in lines if line))


def _last_user(messages: list[dict[str, Any]]) -> int:
    return max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)


def _terms(text: str) -> set[str]:
    return {t for t in tokens(text) if t not in _QUESTION_TOKENS}


def relevant(question: str, lines: list[str]) -> list[str]:
    """The known lines that bear on ``question``, best first (at most three)."""
    wanted = _terms(question)
    numbers = set(re.findall(r"\d+", normalize(question)))
    scored = []
    for index, line in enumerate(lines):
        if normalize(line).strip("？?") == normalize(question).strip("？?"):
            continue  # the same question asked before is not an answer to it
        score = len(wanted & _terms(line)) + len(numbers & set(re.findall(r"\d+", normalize(line))))
        if score:
            scored.append((score, index, line))
    if not scored:
        return []
    best = max(score for score, _, _ in scored)
    chosen = sorted(
        (item for item in scored if item[0] >= max(1, best * 0.6)),
        key=lambda item: (-item[0], -item[1]),
    )
    return [line for _, _, line in chosen[:3]]


def _coverage(question: str, line: str) -> float:
    wanted = _terms(question)
    return len(wanted & _terms(line)) / len(wanted) if wanted else 0.0


def _second_person(line: str) -> str:
    line = re.sub(r"^(?:用户说过?|用户提到)[:：]?", "", line.strip())
    line = re.sub(r"用户的|我的", "你的", line)
    return re.sub(r"用户|我(?!们)", "你", line)


def _is_question(text: str) -> bool:
    return is_question(text) or bool(
        re.search(
            r"[?？]|吗|呢|什么|多少|哪|几|谁|怎么|是否|\b(?:what|which|who|how|when|where|do"
            r" you|did i)\b",
            text,
            re.I,
        )
    )


def _statement_groups(text: str) -> set[str]:
    """The summary groups a statement belongs to; empty for a question or a request ("请记住：…"
    asks only that the statement be kept, so its prefix is not a request's 请)."""
    text = _REMEMBER_PREFIX.sub("", text.strip())
    if (
        _is_question(text)
        or is_small_talk(text)
        or REQUEST_WORDS.search(NOT_A_REQUEST.sub("", text))
    ):
        return set()
    found = {
        group
        for group, (_, _, pattern) in GROUPS.items()
        if group != "names" and pattern.search(text)
    }
    return found | ({"names"} if _has_name(text) else set())


# what says an action already happened ("我已经取消了", "上周改过了"): told, not asked for
_ALREADY = re.compile(
    r"已经|已(?=[\u4e00-\u9fff])|过了|了\s*[。！!.]?\s*$|\b(?:already|have|had|did)\b", re.I
)


# "周会定在周一下午 3 点": a thing and where or when it is set, with no one asked to set it — an
# earlier line of this form tells the value a later question asks for, whether it was said as news
# or as an order (said now, it may still be an order: it is never acknowledged as mere news)
_SETTLED = re.compile(
    r"^\s*[^帮请把让给要想需麻烦？?]{1,16}?(?:定|订|约|安排|排|改|放)(?:在|于|为|到)"
)


def _wants_something_done(text: str) -> bool:
    """Whether a sentence without a question mark still asks for something to be done: the form of
    an order ("把明天的会改到周五"), a request's words, or a verb that changes things said of the
    future ("我要取消明天的会"). "请记住：…" asks only to be remembered; "我已经取消了" tells.
    """
    stripped = text.strip()
    if _REMEMBER_PREFIX.match(stripped):
        return False
    body = normalize(stripped)
    if ACTION_FORM.search(body) or ASKS_FOR_SOMETHING.search(body):
        return True
    return bool(request_actions(body) - {READ}) and not _ALREADY.search(body)


def _tells_about_user(text: str) -> bool:
    """A statement that asks for nothing: a constraint, preference, decision, task or people, or a
    number said about "我". A sentence that asks for something done is never one, however much it
    says about the user: acknowledging it ("好的，知道了：你要取消明天的会") would read as if it
    were taken care of.
    """
    if _wants_something_done(text):
        return False
    groups = _statement_groups(
        text
    )  # a place or a name alone ("成都天气") tells nothing about the user
    return bool(groups - {"facts", "names"}) or bool(groups and re.search(r"我|我们|咱们", text))


def answer_from_known(
    plan: Plan, user_text: str, messages: list[dict[str, Any]], replan: Callable[[str], Plan]
) -> Plan:
    """``plan`` revised by the three rules of the module docstring."""
    zh = language(user_text) == "zh"
    lines = known_lines(messages)
    subject = asked_subject(user_text) if _is_question(user_text) else None
    if subject is not None and plan.kind in ("call", "clarify", "fallback"):
        told = [line for line in lines if not _wants_something_done(line) or _SETTLED.match(line)]
        line = answering_line(user_text, told)  # what the user said is so, not what they asked for
        if line is not None:
            # "出发日期定在哪天？" after "出发日期是 3 月 20 日": the user said the value; no tool
            # tells it better (a clock tells today's date, not that one)
            return _from_known([line], zh)
    found = relevant(user_text, lines) if lines else []
    if subject is not None:
        # "回程日期是哪天？" is not answered by "出发日期是 3 月 20 日": a line that lacks a word of
        # the subject is about something else
        found = [line for line in found if not _lacks_a_word(subject, line)]
    answers = (
        bool(found) and _coverage(user_text, found[0]) >= 0.5
    )  # the best line is about what is asked
    if plan.kind == "call":
        if (
            _tells_about_user(user_text)
            and not request_actions(user_text) - {READ}
            and not _REMEMBER_PREFIX.match(user_text.strip())  # "请记住：…" asks for its tool
        ):
            return _acknowledge(
                user_text, zh
            )  # a statement about the user asks for no tool (one with a verb to act on does)
        if answers and _is_question(user_text) and _coverage(user_text, found[0]) >= 0.6:
            return _from_known(found, zh)  # the conversation already holds the answer
        return plan
    if plan.kind not in ("fallback", "clarify"):
        return plan
    if found and plan.kind == "clarify" and not answers:
        for line in found:
            revised = replan(f"{user_text}（{line}）")
            if revised.kind in ("call", "final"):
                return revised
    if _is_question(user_text):
        if found:
            return _from_known(found, zh)
        earlier = any(
            m.get("role") == "user" for m in messages[: _last_user(messages)]
        )  # rounds before this one, though none of them told anything (a window kept questions)
        about_user = ABOUT_USER.search(user_text) or stated_by_user(user_text)
        if (lines or earlier) and about_user and plan.kind == "fallback":
            return Plan(
                [],
                (
                    "在我能看到的对话、摘要和记忆里，没有找到这方面的信息。你可以再告诉我一次。"
                    if zh
                    else (
                        "I could not find that in the conversation, summary or memories I can see."
                        " Could you tell me again?"
                    )
                ),
                "final",
            )
        return plan
    if _tells_about_user(user_text):
        return _acknowledge(user_text, zh)
    return plan


def _lacks_a_word(subject: str, line: str) -> bool:
    """Whether ``line`` is about another thing of the same kind: it holds the subject's head, and
    two adjacent characters of the subject that carry something are both missing from it ("回程" of
    回程日期 in "出发日期是 3 月 20 日")."""
    plain = normalize(line)
    if head(subject) not in plain:
        return False
    chars = [
        ch
        for ch in without_reading_words(normalize(subject))
        if re.fullmatch(f"[{CJK_RANGE}]", ch) or ch == " "
    ]
    return any(
        a != " " and b != " " and a not in plain and b not in plain and not {a, b} & _NOTHING
        for a, b in zip(chars, chars[1:])
    )


# characters that say nothing of what is asked about (particles, pronouns, deictics)
_NOTHING = frozenset(
    "的了吗呢么嘛吧啊呀哦是有在我你他她它们这那个一和与及就还都也很要想请帮给把被次本咱"
)


def _from_known(found: list[str], zh: bool) -> Plan:
    # a summary's list marks and group headings ("【约束】") are not said
    bullet = re.compile(r"^\s*(?:[-*•·]|\d+[.、])\s*|^\s*【[^】]{1,8}】\s*")
    facts = "；".join(_second_person(bullet.sub("", line)).rstrip("。.；;") for line in found)
    return Plan(
        [],
        f"根据你之前告诉我的：{facts}。" if zh else f"From what you told me earlier: {facts}.",
        "final",
    )


def _acknowledge(user_text: str, zh: bool) -> Plan:
    restated = _second_person(_REMEMBER_PREFIX.sub("", user_text.strip())).rstrip("。.!！")
    # "知道了", not "记下了": nothing was stored — the statement stays in this conversation, and
    # only a memory tool keeps it longer
    return Plan([], f"好的，知道了：{restated}。" if zh else f"Got it: {restated}.", "final")


__all__ = ["answer_from_known", "known_lines", "relevant"]
