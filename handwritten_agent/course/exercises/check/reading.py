"""What a message sent back to a model tells it, read the way a model acts on it — for checks that
must accept any wording (Exercise 3.3's message for an unknown tool).

``read_tool_message`` answers four questions a model's next step depends on: does the message say
the called name is not a tool; which tool names does it offer (each written as a name of its own);
does it say there is nothing at all to call; does it say to stop calling and answer. The last three
decide what the model does next (call an offered name, or answer in words), so a check can feed the
message to the simulator with exactly the tools it offers and watch what happens.

Chinese says "there is none" in many ways (没有任何工具、一个工具也没有、工具列表为空、可用的工具：
无、暂无可用工具 …): each is a negation (不/没/无/未/非/零/空) whose scope is "tools" in general,
not the one name called. The reading therefore looks for a negation word and a tool word in the same
clause and checks what the negation covers, instead of matching a list of phrasings.

Left out: irony, double negation ("不是没有工具"), and messages that spread one statement over
several sentences.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .framework import mentions

_CLAUSES = re.compile(r"[。！？!?；;，,\n]+|(?<=[^\d])\.\s")
_NEGATION = r"(?:不|没|無|无|未|非|别|勿|莫|否|零|空)"
_TOOL = r"(?:工具|函数|tool|function)"
_SCOPE = (
    r"(?:任何|任一|任意|其他|其它|别的|所有|全部|一个|一种|可用|可以用|可以调用|能用|能调用"
    r"|可调用|可供|当前|目前|现在|现有|已有|此时|暂|都)"
)
_REFERS_TO_IT = re.compile(r"这个|该|此|它|这一|上述|你(?:调用|叫|用)的")
_ANSWER_DIRECTLY = re.compile(
    r"直接(?:[^，。"
    r"；,;]{0,8})?(?:回答|回复|作答|答复|告诉|说明)|自己回答|用(?:文字|自然语言|你自己的知识)(?:"
    r"来)?(?:回答|回复)"
)
_EMPTY_LIST = re.compile(r"[:：]\s*(?:[。.，,；;!！]|$)|[\[（(【]\s*[\]）)】]")

# Where a negation says "no tools at all": before a general tool word ("没有(任何/可用的)工具", "无
# 工具可用"), or after one that is not followed by a name ("工具列表为空", "可用的工具：无", "可用工
# 具数量为 0", "一个工具都没有").
_NONE_PATTERNS = [
    re.compile(rf"{_NEGATION}[^，。；,;]{{0,8}}?{_TOOL}"),
    re.compile(
        rf"{_TOOL}(?:列表|清单|集合|箱)?[^，。"
        r"；,;A-Za-z_]{0,6}?(?:为空|是空的|空空|为\s*0|是\s*0|有\s*0|为零|数量为\s*(?:0|零))"
    ),
    re.compile(rf"{_TOOL}[^，。；,;A-Za-z_]{{0,4}}?[:：]\s*(?:无|没有|暂无|空|0\s*个|零个)"),
    re.compile(rf"一个(?:{_TOOL})?(?:都|也)(?:{_NEGATION})"),
    re.compile(rf"(?:其他|其它|别的|所有|全部|任何)的?{_TOOL}[^，。；,;]{{0,4}}?{_NEGATION}"),
]


@dataclass(frozen=True)
class ToolMessageReading:
    """What a model learns from a message about a tool call that named no tool."""

    denies_called: bool  # the called name is said not to exist / not to be a tool
    offered: tuple[
        str, ...
    ]  # tool names written in it, each as a name of its own (the called one excluded)
    says_none: bool  # it says there is no tool at all to call
    says_answer: bool  # it tells the model to stop calling and answer in words
    empty_list: bool  # it introduces a list and then lists nothing ("可用的工具有：。", "[]")

    @property
    def stops(self) -> bool:
        """With nothing offered, whether the model is told to stop rather than left to guess another
        name.
        """
        return not self.offered and (self.says_none or self.says_answer)


def clauses(text: str) -> list[str]:
    return [part.strip() for part in _CLAUSES.split(text) if part.strip()]


def _about(clause: str, name: str) -> bool:
    return mentions(clause, name) or bool(_REFERS_TO_IT.search(clause))


def _without(clause: str, name: str) -> str:
    return re.sub(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", " ", clause)


def denies(text: str, name: str) -> bool:
    """Some clause about ``name`` (or "这个工具") negates it: 不存在、没有这个工具、未知、找不到、不
    是可用的工具、拼错了 …
    """
    return any(
        _about(clause, name)
        and re.search(
            rf"{_NEGATION}|未知|错|unknown|invalid|not (?:a |an )?(?:valid )?tool", clause, re.I
        )
        for clause in clauses(text)
    )


def says_no_tools(text: str, name: str) -> bool:
    """Some clause says there are no tools at all — its negation covers tools in general, not only
    ``name``.
    """
    for clause in clauses(text):
        rest = _without(clause, name)
        if mentions(clause, name) and not re.search(_SCOPE, rest):
            # "工具 calculator 不存在" is about the name called, not about tools in general
            continue
        if any(pattern.search(rest) for pattern in _NONE_PATTERNS):
            if (
                re.search(rf"{_TOOL}\s*{_NEGATION}", rest)
                and not re.search(_SCOPE, rest)
                and not re.search(rf"{_NEGATION}[^，。]{{0,8}}?{_TOOL}", rest)
            ):
                # "该工具不可用": a negation after a tool word with no scope is about one tool
                continue
            return True
    return False


_REPLY = r"(?:回答|回复|作答|答复|应答|对话|聊天|answer|reply|respond|talk)"
_PLAIN_REPLY = [
    re.compile(
        rf"(?:{_NEGATION}|用不[上到着]|none of|no |not |without)[^，。"
        rf"；,;]{{0,10}}?(?:{_TOOL}|调用|call)",
        re.I,
    ),  # 不需要工具、用不上工具、无需调用、no tool
    re.compile(
        rf"(?:否则|不然|其他情况|其它情况|其余情况|otherwise|else)[^。；;]{{0,16}}?{_REPLY}", re.I
    ),
    re.compile(
        r"(?:直接|正常|照常|如常|用文字|用中文|文字|自然语言|普通|plain|directly|normally|in"
        rf" words)[^，。；,;]{{0,6}}?{_REPLY}",
        re.I,
    ),
]


def says_answer_without_tools(text: str) -> bool:
    """A tool prompt says what to do when no tool fits: answer in words (不需要工具时直接回答、用不
    上工具就正常回复、否则用中文回答、if no tool fits, reply normally …) — any clause whose negation
    covers tools or calls, or that tells the model to reply in words or otherwise."""
    return any(
        pattern.search(clause)
        for clause in re.split(r"[。！？!?；;\n]+", text)
        for pattern in _PLAIN_REPLY
    )


def read_tool_message(text: str, called: str, known_names: Iterable[str]) -> ToolMessageReading:
    """What ``text`` tells a model that called ``called``; ``known_names`` are the tool names it may
    offer.
    """
    offered = tuple(name for name in known_names if name != called and mentions(text, name))
    return ToolMessageReading(
        denies(text, called),
        offered,
        says_no_tools(text, called),
        bool(_ANSWER_DIRECTLY.search(text)),
        bool(_EMPTY_LIST.search(text)),
    )
