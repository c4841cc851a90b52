"""Final answers that claim an action no tool performed: "已为您预订" when nothing was booked.

Small models (and large ones, now and then) end a run by saying the work is done — 已预订, 已发送,
提交成功 — when the tool that would have done it was never called, failed, or was refused at the
confirmation. The user believes it; the database says otherwise. The loop cannot know what the words
mean, but it knows what ran: every tool call of the run, whether it executed, whether it succeeded,
and which tools have side effects.

- ``find_claims(answer)`` finds the phrases that state a completed action: 已(为您)预订, 预订成功,
  成功提交, 发送了, "has been booked" … (a negation just before — 没有, 未, 无法 — is not a claim).
- ``unbacked_claims(answer, done, side_effect_tools)`` keeps the claims no successful side-effect
  call of this run backs. A claim is backed by a call that succeeded and whose tool's name or
  description mentions the claimed action (预订 → a tool described as "预订会议室"); a claimed
  action no side-effect tool mentions at all is backed by any successful side-effect call. Pure: the
  answer, ``(tool name, succeeded)`` for each call that ran, and the side-effect tools'
  descriptions.
- ``ClaimCheck`` is a hook (``Agent(..., hooks=[ClaimCheck.from_registry(registry)])``): it holds
  the side-effect tools of a registry, and its ``review_answer(answer, run, context)`` returns the
  note to send the model (the loop appends it as a user message after the assistant's answer and
  asks again) when the final answer makes unbacked claims, at most once per run — or None, and the
  answer stands. The note says what really happened (nothing ran, the call failed with …, the call
  was refused), repeats the user's request (a small model otherwise answers the note instead of the
  user), and asks the model to do what is still to be done with the tools, or to answer from the
  tool results as they are.

Left out: judging whether a claim is *true in detail* (right room, right time — the evaluation's
database checks do that), claims about reading or querying (no side effect, nothing to fake), and
languages other than Chinese and English.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .run import RunResult, ToolCallRecord

NOTE_MARK = "【系统检查】"

# A claimed action → the words that name it (the first is how the note names it). Side-effect
# actions only.
ACTIONS: dict[str, tuple[str, ...]] = {
    "预订": ("预订", "预定", "订好", "订下", "订了"),
    "发送": ("发送", "发出", "寄出", "发好", "发了"),
    "提交": ("提交", "递交"),
    "创建": ("创建", "新建"),
    "删除": ("删除",),
    "修改": ("修改", "更改", "更新"),
    "支付": ("支付", "付款", "转账"),
    "下单": ("下单", "订购", "采购了"),
    "通知": ("通知",),
    "登记": ("登记", "报名"),
}
ENGLISH: dict[str, str] = {
    "book": "预订",
    "reserve": "预订",
    "send": "发送",
    "email": "发送",
    "submit": "提交",
    "file": "提交",
    "create": "创建",
    "delete": "删除",
    "update": "修改",
    "pay": "支付",
    "order": "下单",
}
_EN_PAST = {
    "booked": "book",
    "reserved": "reserve",
    "sent": "send",
    "emailed": "email",
    "submitted": "submit",
    "filed": "file",
    "created": "create",
    "deleted": "delete",
    "updated": "update",
    "paid": "pay",
    "ordered": "order",
    "placed": "order",
}

_WORDS = sorted({word for words in ACTIONS.values() for word in words}, key=len, reverse=True)
_WORD = "(?:" + "|".join(map(re.escape, _WORDS)) + ")"
_FOR = r"(?:为您|为你|帮您|帮你|给您|给你|替您|替你)?"
_CLAIM = re.compile(
    rf"已经?{_FOR}(?:成功)?(?:地)?(?P<a>{_WORD})"  # 已预订 / 已经为您成功提交
    rf"|(?P<b>{_WORD})(?:成功|完成|完毕|好了|妥当)"  # 预订成功 / 发送完成
    rf"|成功(?:地)?{_FOR}(?P<c>{_WORD})"  # 成功预订 / 成功为您提交
    rf"|{_FOR}(?P<d>{_WORD})了(?!吗|么|没|\?|？)"  # 帮您预订了（不是“预订了吗”）
)
_EN_CLAIM = re.compile(
    r"\b(?:i have|i've|we have|we've|has been|have been|was|were|successfully)\s+(?:\w+\s+)?"
    r"(?P<v>" + "|".join(_EN_PAST) + r")\b",
    re.IGNORECASE,
)
_NEGATION = re.compile(
    r"(?:没有|没|未|未能|无法|不能|不会|不|尚未|还没|并未|并没有|暂未|别|未曾|not|never|n't)\s*\S"
    r"{0,3}$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Claim:
    """One phrase of an answer stating that an action was done: the phrase and the action's name."""

    phrase: str
    action: str


def _canonical(word: str) -> str:
    return next(action for action, words in ACTIONS.items() if word in words)


def find_claims(answer: str) -> list[Claim]:
    """Every phrase of ``answer`` that states a completed side-effect action (negated ones
    excluded), in order.
    """
    claims: list[Claim] = []
    for match in _CLAIM.finditer(answer):
        if _NEGATION.search(answer[max(0, match.start() - 6) : match.start()]):
            continue
        word = next(group for group in match.group("a", "b", "c", "d") if group)
        claims.append(Claim(match.group(0), _canonical(word)))
    for match in _EN_CLAIM.finditer(answer):
        if _NEGATION.search(answer[max(0, match.start() - 12) : match.start()]) or re.search(
            r"\bnot\b", match.group(0), re.I
        ):
            continue
        claims.append(Claim(match.group(0), ENGLISH[_EN_PAST[match.group("v").lower()]]))
    return claims


def _mentions(action: str, text: str) -> bool:
    """True when a tool's name or description names ``action`` (a Chinese word in it, or an English
    word of its name).
    """
    english = set(re.findall(r"[a-z]+", text.lower()))
    return any(word in text for word in ACTIONS[action]) or any(
        en in english for en, zh in ENGLISH.items() if zh == action
    )


def unbacked_claims(
    answer: str, done: Iterable[tuple[str, bool]], side_effect_tools: Mapping[str, str]
) -> list[Claim]:
    """The claims of ``answer`` that no successful side-effect call backs.

    ``done``: ``(tool name, succeeded)`` for each call that actually ran in this run (not refused,
    not answered from an earlier identical call); ``side_effect_tools``: name → description of the
    tools with side effects.
    """
    succeeded = [name for name, ok in done if ok and name in side_effect_tools]
    unbacked = []
    for claim in find_claims(answer):
        related = [
            name
            for name, description in side_effect_tools.items()
            if _mentions(claim.action, f"{name} {description}")
        ]
        backers = [name for name in succeeded if name in related] if related else succeeded
        if not backers:
            unbacked.append(claim)
    return unbacked


def _what_happened(records: Sequence[ToolCallRecord], side_effect_tools: Mapping[str, str]) -> str:
    """What the side-effect calls of a run really did, in one Chinese sentence."""
    facts = []
    for record in records:
        name = record.call.name
        if name not in side_effect_tools or record.repeated:
            continue
        if not record.executed:
            facts.append(f"{name} 没有执行（{record.result.error or '被拒绝'}）")
        elif not record.result.success:
            facts.append(f"{name} 执行失败（{record.result.error or '没有说明原因'}）")
        else:
            facts.append(f"{name} 执行成功")
    return (
        "；".join(facts)
        if facts
        else "这次运行没有调用任何会产生实际效果的工具（预订、发送、提交之类）"
    )


class ClaimCheck:
    """The side-effect tools of a registry, and the hook that sends a final answer with unbacked
    claims back once.
    """

    def __init__(self, side_effect_tools: Mapping[str, str]):
        self.side_effect_tools = dict(side_effect_tools)

    @classmethod
    def from_registry(cls, registry: Iterable[Any]) -> ClaimCheck:
        """From a ``ToolRegistry`` (or any iterable of ``Tool``s): the tools marked
        ``side_effects=True``.
        """
        return cls(
            {
                tool.name: tool.description
                for tool in registry
                if getattr(tool, "side_effects", False)
            }
        )

    def check(self, answer: str, records: Sequence[ToolCallRecord]) -> list[Claim]:
        """``unbacked_claims`` over a run's tool-call records."""
        done = [(r.call.name, r.result.success) for r in records if r.executed and not r.repeated]
        return unbacked_claims(answer, done, self.side_effect_tools)

    def review_answer(self, answer: str, run: RunResult, context: Any = None) -> str | None:
        """The hook: the note for the model when ``answer`` claims what the run did not do — once
        per run; else None.
        """
        if already_noted(run.messages):
            return None
        claims = self.check(answer, run.tool_calls)
        if not claims:
            return None
        said = "、".join(dict.fromkeys(f"“{claim.phrase}”" for claim in claims))
        request = user_request(run.messages)
        again = f"用户的请求是：“{request}”。" if request else ""
        return (
            f"{NOTE_MARK}你刚才的回答说{said}，"
            f"但实际情况是：{_what_happened(run.tool_calls, self.side_effect_tools)}。{again}请重新"
            f"处理这个请求：还需要办理的事，"
            "现在就调用相应的工具；只是查询、或者办不了、失败了、被拒绝了，"
            "就只按上面的工具结果如实回答用户，不要说没有做成的事已经做了。"
        )


def user_request(messages: Sequence[dict[str, Any]]) -> str:
    """The text of the last user message that is not a note: the request the run is answering."""
    for message in reversed(messages):
        content = message.get("content")
        if (
            message.get("role") == "user"
            and isinstance(content, str)
            and not content.startswith(NOTE_MARK)
        ):
            return content
    return ""


def already_noted(messages: Sequence[dict[str, Any]]) -> bool:
    """True when the current run (the messages after the last user message that is not a note)
    already got a note.
    """
    for message in reversed(messages):
        if message.get("role") == "user":
            content = message.get("content")
            if not (isinstance(content, str) and content.startswith(NOTE_MARK)):
                return False
            return True
    return False


__all__ = [
    "ACTIONS",
    "Claim",
    "ClaimCheck",
    "NOTE_MARK",
    "already_noted",
    "find_claims",
    "unbacked_claims",
    "user_request",
]
