"""A scripted 20-round conversation with ten planted facts, for measuring what a memory policy
keeps.

Half of the rounds use tools (weather, exchange rate, calculator, clock), the other half plant one
fact each — numbers, names, preferences, constraints, a decision, an open task — the kind of thing a
user says once and expects the assistant to still know twenty rounds later. ``PLANTED`` pairs each
with a question about it and the words a correct answer must contain.

``ask_planted(conversation)`` asks the ten questions at the end of a conversation and reports which
answers still contain the fact. The Day 4 notebook and the tests use it to compare the window (the
old rounds are simply gone) with summary compression (the summary keeps them).

Left out: grading answers by meaning — an answer counts when it contains the expected words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Planted:
    statement: str  # what the user says, once
    question: str  # what the user asks later
    expected: tuple[str, ...]  # words a correct answer contains (all of them)


PLANTED: tuple[Planted, ...] = (
    Planted("这次出差的预算上限是 8000 元。", "这次出差的预算上限是多少？", ("8000",)),
    Planted("酒店每晚不超过 600 元。", "酒店每晚最多多少钱？", ("600",)),
    Planted("我对花生过敏。", "我对什么过敏？", ("花生",)),
    Planted("我喜欢靠窗的座位。", "我喜欢什么样的座位？", ("靠窗",)),
    Planted("同行的同事是张伟和李娜。", "这次同行的同事是谁？", ("张伟", "李娜")),
    Planted("出发日期定在 3 月 20 日。", "出发日期定在哪天？", ("3 月 20 日",)),
    Planted("客户联系人是王芳，电话 13812345678。", "客户联系人的电话是多少？", ("13812345678",)),
    Planted("报告必须用中文写，不超过 5 页。", "报告最多写几页？", ("5 页",)),
    Planted("记得提醒我在 3 月 25 日前提交报销单。", "我要在哪天之前提交报销单？", ("3 月 25 日",)),
    Planted("我只喝绿茶，不喝咖啡。", "我喝咖啡吗？", ("不喝咖啡",)),
)

TOOL_ROUNDS: tuple[str, ...] = (
    "北京明天天气怎么样？",
    "那上海呢？",
    "100 美元能换多少人民币？",
    "17 乘以 9 等于多少？",
    "刚才那个结果乘以 2",
    "现在几点了？",
    "广州今天天气怎么样？",
    "50 欧元能换多少人民币？",
    "深圳明天天气怎么样？",
    "(3 + 5) / 2 等于多少？",
)


def rounds() -> list[str]:
    """The 20 user messages in order: a tool round, then a planted fact, and so on."""
    messages: list[str] = []
    for tool_round, planted in zip(TOOL_ROUNDS, PLANTED):
        messages += [tool_round, planted.statement]
    return messages


@dataclass(frozen=True)
class Recall:
    planted: Planted
    answer: str

    @property
    def kept(self) -> bool:
        return all(word in self.answer for word in self.planted.expected)


def ask_planted(conversation: Any) -> list[Recall]:
    """Ask every planted question in ``conversation`` (a ``Conversation``); which answers still have
    the fact.
    """
    return [Recall(planted, conversation.ask(planted.question).answer or "") for planted in PLANTED]


__all__ = ["PLANTED", "Planted", "Recall", "TOOL_ROUNDS", "ask_planted", "rounds"]
