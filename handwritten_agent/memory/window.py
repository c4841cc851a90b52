"""The window: drop whole rounds, oldest first, until the request fits the budget.

``trim_messages`` is the reference articles' 截断/滑动窗口 done so that the result is always a
conversation the API accepts: it works on rounds (``rounds.split_rounds``), never on single
messages, so a tool call and its results go together or not at all. It keeps

- the head (the system messages at the start), always;
- the last ``keep_last_rounds`` rounds, always — the latest user message is in the last one;
- as many older rounds as fit, newest first.

**The budget is not the API's ``max_tokens``.** In the Chat Completions API ``max_tokens`` (now
``max_completion_tokens``) caps the *reply*. The budget here caps the *request*: what the model
reads must leave room in its context window for the reply, and the course's token count is an
estimate, so ``context_budget(context_window, reserved_output)`` = window − reserved reply − a
safety margin.

**Low-water mark.** With ``low_water=1.0`` (the default) a request over the budget loses just enough
rounds to fit, so in a long conversation every new round drops one old round and the start of the
request changes on every call — which defeats a provider's prompt cache (it reuses only an unchanged
prefix). With ``low_water=0.6`` the older rounds kept may fill only 60% of the room the budget
leaves once the head and the last ``keep_last_rounds`` rounds are counted: more is dropped at once,
and the following rounds are appended to an unchanged prefix until the budget is reached again.

When even that does not fit — one round can hold a huge tool result, and inside one agent run the
rounds are not finished yet — it shortens the longest tool results in what it keeps, marking each
("…（已截断，原文 N 字）"), before it gives up with ``ContextTooLong``, whose message says what to
raise or shorten. The input list is never changed.

Left out: dropping messages inside a round (a round is kept whole or dropped whole), and shortening
anything but tool results (the user's words and the model's answers are never cut).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..tokens import count_message_tokens
from .rounds import Message, join, pairing_problems, split_head, split_rounds

TRUNCATION_MARK = "…（已截断，原文 {n} 字）"
MIN_TOOL_RESULT_CHARS = 60  # a tool result is never shortened below this many characters
MIN_STRING_CHARS = 24  # nor a string inside a JSON result


class ContextTooLong(ValueError):
    """The messages cannot fit ``budget`` even after dropping every round the memory policy may
    drop.
    """

    def __init__(self, message: str, *, tokens: int, budget: int):
        super().__init__(message)
        self.tokens, self.budget = tokens, budget


def context_budget(context_window: int, reserved_output: int, *, margin: float = 0.1) -> int:
    """The tokens a request may use: the model's context window, minus the reply's room, minus a
    margin.

    ``reserved_output`` is what you pass as the request's ``max_tokens`` (the reply's cap);
    ``margin`` is a fraction of the window kept free because the course counts tokens with an
    estimate, and another provider's tokenizer counts differently.
    """
    if not 0 <= margin < 1:
        raise ValueError(
            f"margin 是上下文窗口里留作余量的比例，应在 0 到 1 之间，收到的是 {margin}。"
        )
    budget = int(context_window * (1 - margin)) - int(reserved_output)
    if budget <= 0:
        raise ValueError(
            f"上下文窗口 {context_window} 个 token，给回复留 {reserved_output} 个、再留"
            f" {margin:.0%} 余量之后，"
            "请求已经没有空间了：调小回复的上限（max_tokens），或者换一个窗口更大的模型。"
        )
    return budget


def _check_low_water(low_water: float) -> None:
    if not 0 < low_water <= 1:
        raise ValueError(
            "low_water 是超出预算后，剩余空间里最多用掉的比例，应在 0 到 1 之间（1"
            f" 表示刚好放下），收到的是 {low_water}。"
        )


def shorten_text(text: str, limit: int) -> str:
    """``text`` cut to about ``limit`` characters, with a mark that says how long the original
    was.
    """
    if len(text) <= limit:
        return text
    mark = TRUNCATION_MARK.format(n=len(text))
    return text[: max(0, limit - len(mark))] + mark


def shorten_content(text: str, limit: int) -> str:
    """A tool result cut to about ``limit`` characters. A JSON result stays valid JSON: its longest
    strings are cut (each marked) until it fits; only when that cannot work is the text cut as text.
    """
    try:
        value = json.loads(text)
    except ValueError:
        return shorten_text(text, limit)
    if not isinstance(value, (dict, list)):
        return shorten_text(text, limit)
    leaves: list[tuple[Any, Any, str]] = []  # (container, key, original string)

    def collect(node: Any) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, child in items:
            if isinstance(child, str):
                leaves.append((node, key, child))
            elif isinstance(child, (dict, list)):
                collect(child)

    collect(value)
    caps = [len(original) for _, _, original in leaves]
    for _ in range(64 * max(1, len(leaves))):
        dumped = json.dumps(value, ensure_ascii=False)
        if len(dumped) <= limit:
            return dumped
        shrinkable = [i for i, cap in enumerate(caps) if cap > MIN_STRING_CHARS]
        if not shrinkable:
            break
        longest = max(shrinkable, key=lambda i: caps[i])
        caps[longest] = max(MIN_STRING_CHARS, caps[longest] // 2)
        container, key, original = leaves[longest]
        container[key] = shorten_text(original, caps[longest])
    return shorten_text(text, limit)


def _check_input(messages: list[Message]) -> None:
    problems = pairing_problems(messages)
    if problems:
        raise ValueError(
            "输入的消息列表本身就不合法（API 会拒绝它），先修好再裁剪：" + "；".join(problems[:3])
        )


def _shorten_tool_results(
    kept: list[Message], fits: Callable[[list[Message]], bool]
) -> list[Message]:
    """Halve the longest tool result (cut from its original text) until the messages fit or none can
    get shorter.
    """
    kept = [dict(m) for m in kept]
    originals = {
        i: m["content"]
        for i, m in enumerate(kept)
        if m.get("role") == "tool" and isinstance(m.get("content"), str)
    }
    limits = {i: len(text) for i, text in originals.items()}
    for _ in range(64 * max(1, len(originals))):  # bound: each pass halves one result's limit
        if fits(kept):
            break
        shrinkable = [i for i in originals if limits[i] > MIN_TOOL_RESULT_CHARS]
        if not shrinkable:
            break
        longest = max(shrinkable, key=lambda i: (len(kept[i]["content"]), -i))
        limits[longest] = max(MIN_TOOL_RESULT_CHARS, limits[longest] // 2)
        kept[longest]["content"] = shorten_content(originals[longest], limits[longest])
    return kept


def trim_messages(
    messages: list[Message],
    budget: int,
    *,
    keep_last_rounds: int = 1,
    tools: list[dict[str, Any]] | None = None,
    low_water: float = 1.0,
) -> list[Message]:
    """The messages with whole oldest rounds dropped so that the request fits ``budget`` tokens.

    ``tools`` (the schemas the request will offer) count toward the budget when given. A request
    over the budget keeps older rounds only up to the low-water mark (see the module docstring).
    Raises ``ContextTooLong`` when the head and the last ``keep_last_rounds`` rounds do not fit even
    with their tool results shortened, and ``ValueError`` when the input is not a valid
    conversation.
    """
    if keep_last_rounds < 1:
        raise ValueError(
            "keep_last_rounds 至少是 1（最新的一轮里有用户最新的问题），收到的是"
            f" {keep_last_rounds}。"
        )
    _check_low_water(low_water)
    _check_input(messages)

    def fits(candidate: list[Message], limit: float = budget) -> bool:
        return count_message_tokens(candidate, tools) <= limit

    if fits(messages):
        return [dict(m) for m in messages]
    head, _ = split_head(messages)
    rounds = split_rounds(messages)
    must = len(rounds) - min(keep_last_rounds, len(rounds))
    start = must
    fixed = count_message_tokens(join(head, rounds[must:]), tools)
    mark = fixed + low_water * (
        budget - fixed
    )  # the low-water mark: a share of the room the kept part leaves
    # keep older rounds, newest first, while they fit under the mark: the head plus the most recent
    # rounds
    while start > 0 and fits(join(head, rounds[start - 1 :]), mark):
        start -= 1
    kept = join(head, rounds[start:])
    if fits(kept):
        return [dict(m) for m in kept]
    shortened = _shorten_tool_results(kept, fits)
    if fits(shortened):
        return shortened
    needed = count_message_tokens(shortened, tools)
    head_tokens = count_message_tokens(head, tools)
    raise ContextTooLong(
        f"放不下：只保留 system 消息和最近 {min(keep_last_rounds, len(rounds))}"
        f" 轮（工具结果也已截短），仍然需要约 {needed} 个 token，超过了预算 {budget} 个 token（其中"
        f" system 消息{'和工具说明' if tools else ''}约 {head_tokens} 个）。请调大预算（budget），"
        "或者减小 keep_last_rounds，或者缩短 system prompt 和用户消息。",
        tokens=needed,
        budget=budget,
    )


class Window:
    """A memory policy for ``Agent(memory=...)``: ``trim_messages`` with a fixed budget."""

    def __init__(
        self,
        budget: int,
        *,
        keep_last_rounds: int = 1,
        tools: list[dict[str, Any]] | None = None,
        low_water: float = 1.0,
    ):
        _check_low_water(low_water)
        self.budget, self.keep_last_rounds, self.tools, self.low_water = (
            budget,
            keep_last_rounds,
            tools,
            low_water,
        )

    def __call__(self, messages: list[Message]) -> list[Message]:
        return trim_messages(
            messages,
            self.budget,
            keep_last_rounds=self.keep_last_rounds,
            tools=self.tools,
            low_water=self.low_water,
        )

    def __repr__(self) -> str:
        return (
            f"Window(budget={self.budget}, keep_last_rounds={self.keep_last_rounds},"
            f" low_water={self.low_water})"
        )


__all__ = [
    "ContextTooLong",
    "MIN_TOOL_RESULT_CHARS",
    "TRUNCATION_MARK",
    "Window",
    "context_budget",
    "shorten_content",
    "shorten_text",
    "trim_messages",
]
