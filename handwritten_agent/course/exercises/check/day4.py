"""Checkers for the Day 4 exercises (记忆): rounds, a window that passes a property check, a
summarizing compression, per-user search.

Every case that needs a model uses the offline course simulator; the window and the search are
checked on histories and users generated from fixed seeds, so a learner sees the same cases on every
run. The compression (4.3) has a module of its own, ``day4_compress``: it is judged on conversations
generated with planted facts. ``MEMORY_SCHEMA``/``memory_db`` build the SQLite database of exercise
4.4 (the notebook uses the same).

Left out: ranking in 4.4 (any order of the right memories passes).
"""

from __future__ import annotations

import copy
import json
import random
import re
import sqlite3
from collections.abc import Callable
from typing import Any

from .day4_compress import day4_compress
from .framework import ExerciseFailed, _brief, _callable, _Check, _short, exercise, refill

__all__ = ["day4_compress", "day4_search_memories", "day4_split_rounds", "day4_trim"]

MEMORY_SCHEMA = """
CREATE TABLE memories (id INTEGER PRIMARY KEY, user_id TEXT NOT NULL, text TEXT NOT NULL);
CREATE VIRTUAL TABLE memories_fts USING fts5(
    text, content='memories', content_rowid='id', tokenize='trigram'
);
CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts(rowid, text) VALUES (new.id, new.text);
END;
""".strip()


def memory_db(rows: list[tuple[str, str]]) -> sqlite3.Connection:
    """An in-memory database with ``MEMORY_SCHEMA`` and ``rows`` of ``(user_id, text)`` inserted in
    order.
    """
    db = sqlite3.connect(":memory:")
    db.executescript(MEMORY_SCHEMA)
    db.executemany("INSERT INTO memories (user_id, text) VALUES (?, ?)", rows)
    db.commit()
    return db


# ---------------------------------------------------------------------------------------------
# Generated conversations (the shapes the property checks need)
# ---------------------------------------------------------------------------------------------

_WORDS = [
    "北京",
    "明天",
    "天气",
    "预算",
    "5000 元",
    "我喜欢靠窗",
    "必须",
    "张伟",
    "budget",
    "42",
    "，",
    "。",
]


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(_WORDS) for _ in range(rng.randint(1, 10)))


def _history(rng: random.Random) -> list[dict[str, Any]]:
    """A valid conversation: 1–2 system messages, 1–8 rounds, parallel calls answered in any order,
    long results.
    """
    messages: list[dict[str, Any]] = [{"role": "system", "content": "你是助手。" + _text(rng)}]
    if rng.random() < 0.3:
        messages.append({"role": "system", "content": "规则：" + _text(rng)})
    number = 0
    rounds = rng.randint(1, 8)
    for index in range(rounds):
        messages.append({"role": "user", "content": "问题" + _text(rng)})
        for _ in range(rng.randint(0, 2)):
            calls = []
            for _ in range(rng.randint(1, 3)):
                number += 1
                calls.append(
                    {
                        "id": f"call_{number}",
                        "type": "function",
                        "function": {
                            "name": rng.choice(["get_weather", "calculator"]),
                            "arguments": json.dumps({"q": _text(rng)}, ensure_ascii=False),
                        },
                    }
                )
            messages.append({"role": "assistant", "content": None, "tool_calls": calls})
            for call in rng.sample(calls, len(calls)):
                body = (
                    _text(rng) if rng.random() < 0.7 else "数据 0123456789 " * rng.randint(10, 120)
                )
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": body})
        if index < rounds - 1 or rng.random() < 0.5:
            messages.append({"role": "assistant", "content": "回答" + _text(rng)})
    return messages


def _describe(messages: list[dict[str, Any]]) -> str:
    """A history in one line per message, for failure messages."""
    lines = []
    for i, m in enumerate(messages):
        if m.get("tool_calls"):
            lines.append(f"[{i}] assistant 调用 {', '.join(c['id'] for c in m['tool_calls'])}")
        elif m.get("role") == "tool":
            lines.append(f"[{i}] tool 回答 {m.get('tool_call_id')}")
        else:
            lines.append(f"[{i}] {m.get('role')}: {_brief(m.get('content'), 20)}")
    return "\n".join(lines) or "[]（一条消息也没有）"


def _shape(rounds: Any) -> str:
    """Rounds as their roles, e.g. ``2 轮：[user assistant(调用) tool tool assistant] [user
    assistant]`` — an empty round shows as ``[（空）]``, so ``[]`` and ``[[]]`` never look alike."""
    if not isinstance(rounds, list):
        return _short(rounds, 200)
    parts = []
    for round_ in rounds:
        if not isinstance(round_, list):
            parts.append(f"<{type(round_).__name__}>")
            continue
        roles = " ".join(
            (
                "assistant(调用)"
                if isinstance(m, dict) and m.get("tool_calls")
                else str(m.get("role"))
                if isinstance(m, dict)
                else type(m).__name__
            )
            for m in round_
        )
        parts.append(f"[{roles or '（空）'}]")
    return f"{len(rounds)} 轮：" + " ".join(parts) if parts else "0 轮：[]"


def _kept(messages: list[dict[str, Any]], kept: Any) -> str:
    """Which messages of ``messages`` a window kept, per round: ``头部 1/1，第 1 轮 0/5，第 2 轮
    2/2；共 3 条，40 tokens``.
    """
    from ....memory import count_tokens

    if not isinstance(kept, list):
        return _short(kept, 200)
    head, rounds = _rounds_of(messages)
    remaining = list(kept)

    def taken(group: list[dict[str, Any]]) -> int:
        count = 0
        for message in group:
            if message in remaining:
                remaining.remove(message)
                count += 1
        return count

    parts = [f"头部 {taken(head)}/{len(head)}"] + [
        f"第 {n} 轮 {taken(r)}/{len(r)}" for n, r in enumerate(rounds, 1)
    ]
    extra = f"，另有 {len(remaining)} 条不是原来的消息" if remaining else ""
    try:
        tokens = f"，{count_tokens(kept)} tokens"
    except Exception:  # noqa: BLE001 - a learner's list may hold anything
        tokens = ""
    return "，".join(parts) + f"；共 {len(kept)} 条{tokens}{extra}"


# ---------------------------------------------------------------------------------------------
# 4.1 split_rounds
# ---------------------------------------------------------------------------------------------


def _call(call_id: str) -> dict[str, Any]:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": "get_weather", "arguments": '{"city": "北京"}'},
    }


def _split_cases() -> list[tuple[str, list[dict[str, Any]]]]:
    system = {"role": "system", "content": "你是助手。"}

    def user(text: str) -> dict[str, Any]:
        return {"role": "user", "content": text}

    def answer(text: str) -> dict[str, Any]:
        return {"role": "assistant", "content": text}

    def asks(*ids: str) -> dict[str, Any]:
        return {"role": "assistant", "content": None, "tool_calls": [_call(i) for i in ids]}

    def result(call_id: str) -> dict[str, Any]:
        return {"role": "tool", "tool_call_id": call_id, "content": f"{call_id} 的结果"}

    return [
        ("没有任何消息", []),
        ("只有 system 消息", [system]),
        (
            "两轮，没有工具",
            [system, user("你好"), answer("你好！"), user("你是谁？"), answer("我是助手。")],
        ),
        (
            "两个并行调用，结果乱序",
            [
                system,
                user("北京和上海天气？"),
                asks("a", "b"),
                result("b"),
                result("a"),
                answer("都晴"),
                user("谢谢"),
                answer("不客气"),
            ],
        ),
        (
            "三个并行调用",
            [
                system,
                user("三个城市"),
                asks("a", "b", "c"),
                result("a"),
                result("c"),
                result("b"),
                answer("好"),
            ],
        ),
        (
            "一轮里先后两次调用",
            [
                system,
                user("先查再算"),
                asks("a"),
                result("a"),
                asks("b"),
                result("b"),
                answer("算好了"),
                user("好"),
            ],
        ),
        (
            "开头两条 system 消息",
            [system, {"role": "system", "content": "规则"}, user("你好"), answer("你好")],
        ),
        (
            "第一条 user 之前有一条欢迎语",
            [
                system,
                answer("欢迎！有什么可以帮你？"),
                user("查天气"),
                asks("a"),
                result("a"),
                answer("晴"),
            ],
        ),
        (
            "对话中间有一条 system 消息",
            [
                system,
                user("你好"),
                answer("你好"),
                {"role": "system", "content": "提醒：简洁回答"},
                user("天气？"),
                answer("晴"),
            ],
        ),
        (
            "最后一轮还没有回答",
            [
                system,
                user("你好"),
                answer("你好"),
                user("查天气"),
                asks("a", "b"),
                result("a"),
                result("b"),
            ],
        ),
        (
            "连续两条 user 消息",
            [system, user("在吗"), user("查一下北京天气"), asks("a"), result("a"), answer("晴")],
        ),
    ]


def _rounds_hint(
    got: list[Any], messages: list[dict[str, Any]], expected: list[list[dict[str, Any]]]
) -> str:
    if any(isinstance(round_, list) and not round_ for round_ in got):
        return (
            "每一轮至少有一条消息：不要先放一个空的轮进去（rounds = [[]]）。"
            "没有消息（或只有头部）时返回 []——零轮。"
        )
    head = 0
    while head < len(messages) and messages[head].get("role") == "system":
        head += 1
    flat = [m for round_ in got for m in round_] if all(isinstance(r, list) for r in got) else []
    if any(m is messages[i] or m == messages[i] for i in range(head) for m in flat):
        return "开头的 system 消息（头部）不算一轮，不要放进任何一轮。"
    if flat != messages[head:]:
        missing = [i for i in range(head, len(messages)) if not any(m == messages[i] for m in flat)]
        if missing:
            return (
                f"有消息丢了：第 {missing} 条没有出现在任何一轮里。把所有轮拼起来，"
                "应该正好是头部之外的全部消息，顺序不变。"
            )
        return "把所有轮拼起来，应该正好是头部之外的全部消息：不能重复，也不能改顺序。"
    starts = [r[0] for r in got if r]
    if any(
        m.get("role") in ("tool", "assistant") and m not in [r[0] for r in expected] for m in starts
    ):
        return (
            "只有 user 消息开始新的一轮：带 tool_calls 的 assistant 消息和回答它的 tool 消息，"
            "都属于它们前面那条 user 消息的那一轮。"
        )
    if len(got) < len(expected):
        return "每一条 user 消息都开始新的一轮，连续两条 user 消息就是两轮。"
    return (
        "一轮从一条 user 消息开始，到下一条 user 消息之前为止；第一条 user 之前、"
        "头部之后的消息单独算一轮。"
    )


@exercise
def day4_split_rounds(
    check: _Check,
    split_rounds: Callable[[list[dict[str, Any]]], list[list[dict[str, Any]]]],
) -> None:
    """Exercise 4.1: ``split_rounds(messages) -> list of rounds``; tool calls stay with their
    results.
    """
    __tracebackhide__ = True
    from ....memory import split_rounds as reference

    _callable(check.exercise, split_rounds)
    rng = random.Random(41)
    cases = _split_cases() + [(f"随机生成的对话 #{n}", _history(rng)) for n in range(1, 41)]
    for case, messages in cases:
        before = copy.deepcopy(messages)
        got = check.call(case, split_rounds, messages)
        expected = reference(before)
        if not isinstance(got, list) or not all(
            isinstance(r, list) and all(isinstance(m, dict) for m in r) for r in got
        ):
            raise check.fail(
                case,
                given=_describe(before),
                expected="一个列表，每个元素是一轮（消息字典的列表）",
                got=_short(got, 200),
                hint=(
                    "返回 list[list[dict]]，例如 [[user消息, assistant消息], [user消息,"
                    " ...]]；没有轮就返回 []。"
                ),
            )
        if messages != before:
            raise check.fail(
                case,
                given=_describe(before),
                expected="输入的消息列表保持不变",
                got=_describe(messages),
                hint="不要修改传进来的列表（pop、del、insert、改字典都算）：新建列表来放每一轮。",
            )
        if got != expected:
            raise check.fail(
                case,
                given=_describe(before),
                expected=_shape(expected),
                got=_shape(got),
                hint=_rounds_hint(got, before, expected),
            )
        if not case.startswith("随机"):
            check.ok(case, _shape(got))
    check.ok("40 段随机生成的对话（并行调用、乱序结果、长结果）", "全部和参考答案一致")
    _same_list_again(
        check, split_rounds, reference, [messages for _, messages in _split_cases()[2:5]]
    )
    _empty_users(check, split_rounds, reference)
    check.done()


def _empty_users(check: _Check, fn: Callable[..., Any], reference: Callable[..., Any]) -> None:
    """An empty user message, one of full-width spaces only, and one with no content key: each
    still starts a round, as the rule says (silent when right)."""
    system = {"role": "system", "content": "你是助手。"}
    conversations = [
        [
            system,
            {"role": "user", "content": "你好"},
            {"role": "assistant", "content": "你好！"},
            {"role": "user", "content": ""},
            {"role": "assistant", "content": "你想说什么？"},
        ],
        [
            {"role": "user", "content": "\u3000\u3000"},
            {"role": "assistant", "content": "请问有什么需要？"},
            {"role": "user"},
            {"role": "assistant", "content": "我在。"},
            {"role": "user", "content": "ＯＫ，谢谢"},
        ],
        [
            system,
            {"role": "user", "content": "帮我看看"},
            {"role": "assistant", "content": ""},
            {"role": "user", "content": "还在吗？"},
            {"role": "assistant", "content": None},
            {"role": "assistant", "content": "在的。"},
        ],
    ]
    check.independent(
        "空的 user 消息也开始一轮，空的 assistant 回复也留在轮里",
        [
            (
                f"第 {number} 段对话",
                lambda c=content: fn(copy.deepcopy(c)),
                reference(copy.deepcopy(content)),
                _describe(content),
            )
            for number, content in enumerate(conversations, 1)
        ],
        hint=(
            "一轮从一条 user 消息开始，不管它的内容是不是空的（空字符串、只有全角空格、没有 content"
            "）：只看 role，不看 content；空的 assistant 回复也是消息，不能跳过——"
            "所有轮拼起来要正好是头部之外的全部消息。"
        ),
    )


def _same_list_again(
    check: _Check,
    fn: Callable[..., Any],
    reference: Callable[..., Any],
    contents: list[list[dict[str, Any]]],
    *args: Any,
) -> None:
    """``fn`` on one list object given other messages in place between calls, then on a new list
    (silent when right): an answer that remembers its result by ``id(messages)`` or in a global
    fails."""
    kept: list[dict[str, Any]] = []

    def on_kept(content: list[dict[str, Any]]) -> Callable[[], Any]:
        return lambda: fn(refill(kept, copy.deepcopy(content)), *args)

    runs: list[tuple[Any, ...]] = [
        (
            f"同一个列表对象，第 {number} 段对话（id 不变）",
            on_kept(content),
            reference(copy.deepcopy(content), *args),
            _describe(content),
        )
        for number, content in enumerate(contents, 1)
    ]
    runs.append(
        (
            "一个新的列表，又是第 1 段对话",
            lambda: fn(copy.deepcopy(contents[0]), *args),
            reference(copy.deepcopy(contents[0]), *args),
            _describe(contents[0]),
        )
    )
    check.independent("同一个列表换了内容再调用", runs)


# ---------------------------------------------------------------------------------------------
# 4.2 trim: a window that passes a property check
# ---------------------------------------------------------------------------------------------


def _rounds_of(
    messages: list[dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[list[dict[str, Any]]]]:
    from ....memory import split_head, split_rounds

    return split_head(messages)[0], split_rounds(messages)


def _middle_system(
    check: _Check, trim: Callable[..., Any], system: dict[str, Any], rounds: list[Any]
) -> None:
    """A system message in the middle of the conversation belongs to its round: it stays where it
    is while its round is kept and goes with it (silent when right)."""
    from ....memory import count_tokens

    note = {"role": "system", "content": "（系统提示：用户切换到了“简洁模式”，回答不超过两句。）"}
    messages = [system] + rounds[0] + rounds[1][:1] + [note] + rounds[1][1:] + rounds[2]
    keep_two = count_tokens([system] + rounds[1] + [note] + rounds[2])
    keep_one = count_tokens([system] + rounds[2]) + 2
    check.independent(
        "对话中间的 system 消息属于它所在的那一轮",
        [
            (
                f"budget={budget}",
                lambda budget=budget: trim(copy.deepcopy(messages), budget),
                _expected_trim(copy.deepcopy(messages), budget),
                f"{_describe(messages)}\nbudget={budget}",
            )
            for budget in (keep_two, keep_one)
        ],
        hint=(
            "只有开头连续的 system 消息是头部；对话中间的 system 消息留在它所在的那一轮里、"
            "在原来的位置：不要把它挪到开头，它那一轮被丢掉时它也一起丢掉。"
        ),
    )


def _expected_trim(
    messages: list[dict[str, Any]],
    budget: int,
    *,
    count: Callable[[list[dict[str, Any]]], int] | None = None,
    fits: Callable[[int, int], bool] = lambda tokens, budget: tokens <= budget,
) -> list[dict[str, Any]] | None:
    """The reference: head plus the longest run of newest rounds that fits; ``None`` when even the
    last round does not.

    ``count`` and ``fits`` replace the token count and the comparison, to recognise a learner's
    variant of them.
    """
    from ....memory import count_tokens

    count = count or count_tokens
    head, rounds = _rounds_of(messages)
    for start in range(len(rounds)):
        candidate = head + [m for round_ in rounds[start:] for m in round_]
        if fits(count(candidate), budget):
            return candidate
    return None if rounds else (head if fits(count(head), budget) else None)


def _needed_tokens(messages: list[dict[str, Any]]) -> int:
    """What the error must report: the tokens of the head plus the latest round (the least that must
    be sent).
    """
    from ....memory import count_tokens

    head, rounds = _rounds_of(messages)
    return count_tokens(head + (rounds[-1] if rounds else []))


def _summed_per_message(messages: list[dict[str, Any]]) -> int:
    from ....memory import count_tokens

    return sum(count_tokens([message]) for message in messages)


def _trim_hint(
    messages: list[dict[str, Any]],
    got: list[dict[str, Any]],
    budget: int,
    expected: list[dict[str, Any]] | None,
    probe: Callable[[int], Any] = lambda budget: None,
) -> str:
    """What is wrong with ``got``; ``probe(budget)`` runs the learner's trim again on the same
    history, to tell apart two mistakes that give the same result here (``<`` instead of ``<=``, or
    tokens summed message by message).
    """
    from ....memory import count_tokens, pairing_problems

    head, rounds = _rounds_of(messages)
    problems = pairing_problems(got)
    if problems:
        return f"结果里工具调用和结果没有配对（{problems[0]}）：按“轮”整轮丢弃，不要按条丢。"
    if got[: len(head)] != head:
        return "开头的 system 消息必须原样保留在最前面。"
    if count_tokens(got) > budget:
        return (
            f"结果有 {count_tokens(got)} 个 token，超过了预算"
            f" budget={budget}：继续丢最早的轮；最新的一轮也放不下时 raise ContextTooLong。"
        )
    latest = [m for m in messages if m.get("role") == "user"][-1:]
    if latest and latest[0] not in got:
        return "最新的 user 消息必须保留：丢的是最早的轮，不是最新的。"
    body = got[len(head) :]
    suffixes = [[m for r in rounds[start:] for m in r] for start in range(len(rounds) + 1)]
    if body not in suffixes and body and body == messages[len(messages) - len(body) :]:
        return (
            "你是按条丢的：一轮要么整轮保留、要么整轮丢弃。现在某一轮开头的 user 消息被丢了，"
            "它后面的调用和回答却还在。"
        )
    if body not in suffixes:
        if any(body == [m for r in rounds[:end] for m in r] for end in range(len(rounds) + 1)):
            return "保留的是最早的几轮：应该从最早的开始丢，留下最近的轮。"
        if all(m in messages for m in got):
            return (
                "保留的轮必须是最近的、连在一起的若干轮（不能跳过中间的一轮去留更早的），"
                "每一轮原样保留，不改内容。"
            )
        return "消息的内容被改动了：每一轮原样保留（这道题不要截短工具结果），只决定留哪几轮。"
    if expected is not None and len(got) < len(expected):
        strict = (
            got == _expected_trim(messages, budget, fits=lambda tokens, budget: tokens < budget)
            and count_tokens(expected) == budget
        )
        summed = got == _expected_trim(messages, budget, count=_summed_per_message)
        if (
            strict and summed
        ):  # both mistakes drop the same rounds at this budget: one token more tells them apart
            strict = probe(budget + 1) == _expected_trim(messages, budget + 1)
            summed = not strict
        if strict:
            return f"正好等于预算（{budget}）也算放得下：比较时用 <=，不是 <。"
        if summed:
            return (
                f"你是逐条消息分别计数再相加的（这样是 {_summed_per_message(expected)} tokens），"
                f"可整个列表其实是 {count_tokens(expected)} tokens：count_tokens"
                " 每调用一次都会多算一次回复的开销。对整个列表调用一次 count_tokens(kept)。"
            )
        return "丢多了：还有更早的轮放得下。从最新的轮往前加，加到放不下为止。"
    return "对照题目要求再检查一遍。"


def _probe(
    check: _Check, trim: Callable[..., Any], messages: list[dict[str, Any]], budget: int
) -> Any:
    """The learner's trim on a copy of ``messages`` with another budget (None when it raises or
    hangs)."""
    return check.probe(trim, copy.deepcopy(messages), budget)


def _check_too_long(
    check: _Check, case: str, error: Any, messages: list[dict[str, Any]], budget: int
) -> None:
    """The ContextTooLong says what is needed: ``tokens`` is head + latest round, ``budget`` the
    budget, and the text says so.
    """
    from ....memory import count_tokens

    needed = _needed_tokens(messages)
    tokens, reported = getattr(error, "tokens", None), getattr(error, "budget", None)
    if tokens != needed or reported != budget:
        if tokens == count_tokens(messages):
            hint = (
                "tokens"
                f" 报的是整段对话的大小（{tokens}）：要报的是至少需要多少——头部加最新的一轮，"
                f"{needed}"
                " 个 token。"
            )
        elif tokens == needed - budget:
            hint = (
                f"tokens 是需要的总数（{needed}），不是超出的部分（{needed - budget}）："
                "超出多少写在说明文字里。"
            )
        elif reported != budget:
            hint = f"budget 要原样报出传进来的预算 {budget}。"
        else:
            hint = (
                "tokens 要报头部加最新的一轮需要的 token 数：count_tokens(head + rounds[-1]) ="
                f" {needed}。"
            )
        raise check.fail(
            case,
            given=f"budget={budget}\n{_describe(messages)}",
            expected=f"ContextTooLong(tokens={needed}, budget={budget})",
            got=(
                f"ContextTooLong(tokens={tokens!r}, budget={reported!r})：{_brief(str(error), 120)}"
            ),
            hint=hint,
        ) from None
    text = str(error)
    if not _CHINESE_TEXT.search(
        text
    ):  # the figures are judged above, from the attributes; the words are the learner's own
        raise check.fail(
            case,
            expected="一句中文说明（放不下、差多少、怎么办）",
            got=f"ContextTooLong：{_brief(text, 160) or '（空的）'}",
            hint=(
                '这条错误是给开发者看的：说清楚差多少、怎么办，例如 f"需要 {needed} 个 token，'
                '超过了预算 {budget}，请调大预算或缩短 system prompt"。'
            ),
        ) from None


_CHINESE_TEXT = re.compile(r"[\u4e00-\u9fff]")


@exercise
def day4_trim(
    check: _Check, trim: Callable[[list[dict[str, Any]], int], list[dict[str, Any]]]
) -> None:
    """Exercise 4.2: ``trim(messages, budget)``: whole oldest rounds dropped; ``ContextTooLong``
    when the last round does not fit.
    """
    __tracebackhide__ = True
    from ....memory import ContextTooLong, count_tokens

    _callable(check.exercise, trim)

    def run(case: str, messages: list[dict[str, Any]], budget: int) -> None:
        before = copy.deepcopy(messages)
        expected = _expected_trim(before, budget)
        try:
            got = check.run(case, trim, messages, budget, given=f"budget={budget}")
        except NotImplementedError:
            raise check.not_done() from None
        except ExerciseFailed:  # a hang or an exit, already in words
            raise
        except ContextTooLong as error:
            if messages != before:
                raise check.fail(
                    case,
                    given=_describe(before),
                    expected="输入的消息列表保持不变",
                    got="被改成了：" + _kept(before, messages),
                    hint="不要修改传进来的列表：新建一个列表返回。",
                ) from None
            if expected is not None:
                raise check.fail(
                    case,
                    given=f"budget={budget}\n{_describe(before)}",
                    expected=f"{len(expected)} 条消息（{count_tokens(expected)} tokens，放得下）",
                    got="抛出了 ContextTooLong",
                    hint=(
                        "只有连头部加最新的一轮都放不下时才 raise ContextTooLong；放得下就丢掉更早"
                        "的轮再返回。"
                    ),
                ) from None
            _check_too_long(check, case, error, before, budget)
            return
        except Exception as exc:  # noqa: BLE001 - a learner bug becomes a readable failure
            if "toolong" in type(exc).__name__.lower().replace("_", ""):
                hint = (
                    "放不下时抛的是课程包里的 ContextTooLong（from handwritten_agent.memory import"
                    " ContextTooLong），不要自己定义一个同名的类。"
                )
            elif not _rounds_of(before)[1]:
                hint = (
                    "这段对话只有头部（system 消息），一轮也没有：rounds 是空列表，取 rounds[-1]"
                    f" 或 rounds[0] 会出错（{type(exc).__name__}）。"
                )
            else:
                hint = (
                    f"你的函数在这段对话上出错了（{type(exc).__name__}）：在上面的单元格里用同样的"
                    f"输入单独调用它，"
                    "看是哪一行。"
                )
            raise check.fail(
                case,
                given=f"budget={budget}\n{_describe(before)}",
                expected="一个消息列表，或 ContextTooLong",
                got=f"抛出了异常 {type(exc).__name__}: {exc}",
                hint=hint,
            ) from exc
        if messages != before:
            raise check.fail(
                case,
                given=_describe(before),
                expected="输入的消息列表保持不变",
                got="被改成了：" + _kept(before, messages),
                hint="不要修改传进来的列表（del、pop、remove 都算）：新建一个列表返回。",
            )
        if not isinstance(got, list) or not all(isinstance(m, dict) for m in got):
            raise check.fail(
                case, expected="消息字典的列表", got=_short(got, 200), hint="返回 list[dict]。"
            )
        if expected is None:
            raise check.fail(
                case,
                given=f"budget={budget}\n{_describe(before)}",
                expected="raise ContextTooLong（头部加最新的一轮就超出预算了）",
                got=f"返回了 {len(got)} 条消息、{count_tokens(got)} tokens",
                hint=(
                    '最新的一轮不能丢，也不要截短它：这时 raise ContextTooLong("…说明差多少…",'
                    " tokens=..., budget=budget)。"
                    if _rounds_of(before)[1]
                    else (
                        "这段对话只有头部（system 消息），连它都放不下：头部不能丢，"
                        "这时也要 raise ContextTooLong，tokens 报头部需要的 token 数。"
                    )
                ),
            )
        if got != expected:
            same_shape = _kept(before, expected) == _kept(before, got)
            raise check.fail(
                case,
                given=f"budget={budget}\n{_describe(before)}",
                expected=_kept(before, expected),
                got=_kept(before, got)
                + ("（保留的消息对，但顺序或内容变了）" if same_shape else ""),
                hint=_trim_hint(
                    before,
                    got,
                    budget,
                    expected,
                    probe=lambda budget: _probe(check, trim, before, budget),
                ),
            )

    system = {"role": "system", "content": "你是助手。"}
    rounds = [
        [
            {"role": "user", "content": "北京和上海明天天气怎么样？"},
            {"role": "assistant", "content": None, "tool_calls": [_call("w1"), _call("w2")]},
            {"role": "tool", "tool_call_id": "w2", "content": "上海：阴，10 到 17 度，东北风 2 级"},
            {"role": "tool", "tool_call_id": "w1", "content": "北京：多云，4 到 15 度，南风 2 级"},
            {"role": "assistant", "content": "北京多云，上海阴。"},
        ],
        [
            {"role": "user", "content": "我的预算上限是 5000 元。"},
            {"role": "assistant", "content": "好的，记下了。"},
        ],
        [
            {"role": "user", "content": "17 乘以 9 等于多少？"},
            {"role": "assistant", "content": None, "tool_calls": [_call("c1")]},
            {"role": "tool", "tool_call_id": "c1", "content": "153"},
            {"role": "assistant", "content": "17 × 9 = 153。"},
        ],
    ]
    history = [system] + [m for r in rounds for m in r]
    last_two = [system] + rounds[1] + rounds[2]
    last_one = [system] + rounds[2]
    fixed = [
        ("预算足够：原样返回", history, count_tokens(history) + 50),
        ("恰好等于预算：原样返回", history, count_tokens(history)),
        ("差一点：丢掉最早的一轮（带两个并行调用）", history, count_tokens(history) - 1),
        ("丢到只剩最新的一轮", history, count_tokens(last_one) + 5),
        ("最近两轮正好放下", history, count_tokens(last_two)),
        (
            "开头两条 system 消息都保留",
            [system, {"role": "system", "content": "规则：简洁"}] + rounds[1] + rounds[2],
            count_tokens([system, {"role": "system", "content": "规则：简洁"}] + rounds[2]) + 3,
        ),
        (
            "最新的一轮放不下 → ContextTooLong，报出需要的 token 数",
            history,
            count_tokens(last_one) - 1,
        ),
        ("预算极小 → ContextTooLong", history, 10),
        (
            "只有 system 消息，也放不下 → ContextTooLong",
            [system, {"role": "system", "content": "规则：回答要简洁，使用中文。"}],
            12,
        ),
    ]
    for case, messages, budget in fixed:
        run(case, messages, budget)
        check.ok(case, f"budget={budget}")

    _same_list_again(
        check,
        trim,
        _expected_trim,
        [[system] + rounds[0] + rounds[1], [system] + rounds[2], [system] + rounds[1] + rounds[2]],
        10_000,
    )
    _middle_system(check, trim, system, rounds)

    case = "性质检查：300 段随机对话 × 随机预算"
    rng = random.Random(42)
    for n in range(300):
        messages = _history(rng)
        total = count_tokens(messages)
        run(f"{case}（第 {n + 1} 段）", messages, rng.randint(max(10, total // 10), total + 20))
    check.ok(
        case,
        "配对完整、头部和最新问题都在、不超预算、只丢最早的整轮且不多丢、放不下才报错、输入不变",
    )
    check.done()


# ---------------------------------------------------------------------------------------------
# 4.4 search_memories: one user's memories, never anyone else's
# ---------------------------------------------------------------------------------------------


def _independent_searches(check: _Check, search_memories: Callable[..., Any]) -> None:
    """The same question on a fresh database with other rows, a database that gained a row, and
    user ids that differ only in case or width: each answered from *that* database (silent when
    right)."""

    def on(rows: list[tuple[str, str]], user: str, query: str) -> Callable[[], Any]:
        def run() -> Any:
            db = memory_db(rows)
            try:
                return search_memories(db, user, query)
            finally:
                db.close()

        return run

    kept = memory_db([("张三", "我住在杭州西湖区")])

    def grown() -> Any:
        kept.execute(
            "INSERT INTO memories (user_id, text) VALUES (?, ?)", ("张三", "下周去杭州出差")
        )
        kept.commit()
        return search_memories(kept, "张三", "杭州")

    people = [
        ("alice", "我对芒果过敏"),
        ("Alice", "我对花生过敏"),
        ("ａｌｉｃｅ", "我对海鲜过敏"),
        ("张三", "我住在杭州西湖区"),
        ("张三丰", "我住在杭州滨江区"),
    ]
    try:
        check.independent(
            "换一个数据库、换一个用户再查",
            [
                ("中文用户名 张三 查 杭州", on(people, "张三", "杭州"), ["我住在杭州西湖区"]),
                (
                    "新的数据库：张三的记忆不同，同样查 杭州",
                    on([("张三", "我在杭州滨江区上班")], "张三", "杭州"),
                    ["我在杭州滨江区上班"],
                ),
                (
                    "用户 alice（还有大小写、全角不同的 Alice、ａｌｉｃｅ）",
                    on(people, "alice", "过敏"),
                    ["我对芒果过敏"],
                ),
                ("用户 Alice", on(people, "Alice", "过敏"), ["我对花生过敏"]),
                (
                    "同一个数据库",
                    lambda: search_memories(kept, "张三", "杭州"),
                    ["我住在杭州西湖区"],
                ),
                ("同一个数据库又存了一条", grown, ["我住在杭州西湖区", "下周去杭州出差"]),
            ],
            same=lambda want, got: isinstance(got, list) and sorted(map(str, got)) == sorted(want),
            hint=(
                "user_id 要完全相等（WHERE user_id = ?，不要 LIKE、lower()"
                " 或前缀匹配）；结果每次都从传进来的数据库里查。"
            ),
        )
    finally:
        kept.close()


@exercise
def day4_search_memories(check: _Check, search_memories: Callable[..., list[str]]) -> None:
    """Exercise 4.4: ``search_memories(db, user_id, query, k=5) -> list[str]`` over
    ``MEMORY_SCHEMA``.
    """
    __tracebackhide__ = True
    _callable(check.exercise, search_memories)

    rows = [
        ("alice", "我住在杭州西湖区"),
        ("alice", "我对花生过敏"),
        ("alice", "我喜欢靠窗的座位"),
        ("bob", "我住在杭州滨江区"),
        ("bob", "我对花生过敏，也对芒果过敏"),
        ("bob", "alice 是我的同事"),
        ("alice", '他说"好"就算定了'),
        ("alice", "I'm fine，今天不用提醒"),
        ("alice", "折扣是 100% 真的"),
        ("alice", "周报用 Markdown AND 表格"),
        ("alice", "备份放在 D:\\备份\\2024"),
        ("alice", "准备周五的周报"),
        ("alice", "备注：太好了!"),
        ("alice", "这次真不错了"),
    ]
    rows += [("alice", f"第 {n} 次出差的预算是 {1000 + n} 元") for n in range(1, 7)]

    def ask(
        case: str, user: str, query: str, k: int | None = None, data: list[tuple[str, str]] = rows
    ) -> list[str]:
        db = memory_db(data)
        crash_hint = (
            "单引号把拼出来的 SQL 弄坏了（这也是 SQL 注入的入口）：SQL 里只写 ?，值通过 execute"
            " 的第二个参数传进去。"
            if "'" in query
            else (
                "FTS5 的 MATCH 会把双引号、AND、OR"
                " 当成查询语法：把查询词放进双引号当作一个短语（里面的双引号写两遍）。"
                if re.search(r"\"|AND|OR", query)
                else "先在上面的单元格里单独调用你的函数，看看是哪一行出的错。"
            )
        )
        try:
            got = (
                check.call(case, search_memories, db, user, query, hint=crash_hint)
                if k is None
                else check.call(case, search_memories, db, user, query, k, hint=crash_hint)
            )
        finally:
            db.close()
        if not isinstance(got, list) or not all(isinstance(item, str) for item in got):
            raise check.fail(
                case,
                given=(user, query),
                expected='文本（str）的列表，例如 ["我对花生过敏"]',
                got=_short(got, 200),
                hint="fetchall() 返回的是元组：取每一行的第一个值，例如 [row[0] for row in rows]。",
            )
        if len(got) != len(set(got)):
            twice = sorted({text for text in got if got.count(text) > 1})
            raise check.fail(
                case,
                given=(user, query),
                expected="不重复的结果：每条记忆文本只出现一次",
                got=f"{got}（重复的：{twice}）",
                hint=(
                    "同一段文字可能存了不止一次（也可能 MATCH 和 LIKE 都找到了）：在 SQL 里去重，"
                    "SELECT DISTINCT text … LIMIT ?（先去重再取 k 条）。"
                ),
            )
        owners = {text: owner for owner, text in data}
        foreign = [text for text in got if owners.get(text, user) != user]
        if foreign:
            raise check.fail(
                case,
                given=(user, query),
                expected=f"只有 {user} 自己的记忆",
                got=got,
                hint=(
                    f"返回了别人的记忆 {foreign}：每条 SQL 都要带 WHERE user_id = ?，参数用 ?"
                    " 绑定。"
                ),
            )
        return got

    expectations = [
        ("三个字以上的词：杭州西湖", "alice", "杭州西湖", None, ["我住在杭州西湖区"]),
        ("两个字的词也要找到：花生", "alice", "花生", None, ["我对花生过敏"]),
        ("两个字的词：座位", "alice", "座位", None, ["我喜欢靠窗的座位"]),
        ("别人也有的词只返回自己的：杭州", "bob", "杭州", None, ["我住在杭州滨江区"]),
        ("点名别人也拿不到别人的：alice", "bob", "alice", None, ["alice 是我的同事"]),
        ("没有匹配：返回空列表", "alice", "咖啡", None, []),
        ("k=1：排在前面的别人的记忆不能占名额", "bob", "花生", 1, ["我对花生过敏，也对芒果过敏"]),
        (
            "k=1，三个字以上的词：排在前面的别人的记忆不能占名额",
            "bob",
            "花生过敏",
            1,
            ["我对花生过敏，也对芒果过敏"],
        ),
        (
            "查询里有反斜杠：它是 LIKE 的转义字符，也要转义",
            "alice",
            "\\",
            None,
            ["备份放在 D:\\备份\\2024"],
        ),
        ("反斜杠后面跟着一个字", "alice", "\\备", None, ["备份放在 D:\\备份\\2024"]),
        ("查询里有 !（有人拿它当 ESCAPE 的字符）", "alice", "了!", None, ["备注：太好了!"]),
        ("查询里有双引号", "alice", '"好"', None, ['他说"好"就算定了']),
        ("查询里有单引号", "alice", "I'm", None, ["I'm fine，今天不用提醒"]),
        ("查询里有 % ：只匹配真的含 % 的", "alice", "100%", None, ["折扣是 100% 真的"]),
        ("查询里有 FTS 的运算符 AND", "alice", "Markdown AND", None, ["周报用 Markdown AND 表格"]),
        ("单独一个 %：不能把所有记忆都返回", "alice", "%", None, ["折扣是 100% 真的"]),
    ]

    def expect(
        case: str,
        user: str,
        query: str,
        k: int | None,
        wanted: list[str],
        data: list[tuple[str, str]] = rows,
    ) -> None:
        got = ask(case, user, query, k, data)
        if sorted(got) != sorted(wanted):
            hint = (
                "k 条的名额只能给这个用户的记忆：user_id 的条件要写在 SQL 里（和 LIMIT"
                " 同一条语句），不能先 LIMIT 再在 Python 里过滤"
                + (
                    "——MATCH 那条语句也一样：JOIN memories，在同一条 SQL 里写 user_id = ? 和"
                    " LIMIT ?。"
                    if len(query) >= 3
                    else "。"
                )
                if k is not None and len(got) < len(wanted)
                else (
                    "LIKE 的转义字符 \\ 自己也要转义：先 replace('\\\\', '\\\\\\\\')，再转义 % 和"
                    " _（顺序不能反），"
                    "否则查询里的 \\ 会把后面的字符（或者你补在末尾的 %）变成普通字符。"
                    if "\\" in query
                    else (
                        f"如果你用 ESCAPE '{query[-1]}'，这个转义字符自己也要转义（写两遍），再转义"
                        f" % 和 _；不然查询里的 {query[-1]} 会把你补在末尾的 % 变成普通字符。"
                        if re.search(r"[!^#|/~]$", query)
                        else (
                            "两个字的词 trigram 索引查不到：少于 3 个字时退回 LIKE '%词%'。"
                            if len(query) < 3 and not got and wanted
                            else (
                                "% 转义了，顺序却反了：先把转义字符 \\ 自己替换成 \\\\，再转义 % 和"
                                " _。反过来的话，给 % 加上的 \\ 会被再次加倍，查询变成了“一个真的"
                                "反斜杠，后面跟一个通配符”，真的含 % 的记忆反而查不到。"
                                if "%" in query and len(got) < len(wanted)
                                else "LIKE 里的 % 和 _ 是通配符：查询里的 % 要转义"
                                "（例如 replace('%', '\\\\%') 并写 ESCAPE '\\\\'）"
                                "，否则会匹配所有记忆。"
                                if "%" in query
                                else (
                                    "FTS5 的 MATCH 会把引号、AND、OR"
                                    " 当成语法：把查询放进双引号（里面的双引号写两遍）当作一个短"
                                    "语，或者用 LIKE。"
                                    if re.search(r"[\"]|AND", query)
                                    else (
                                        "SQL 里只写 ?，值通过参数传进去；单引号不需要任何处理。"
                                        if "'" in query
                                        else "结果里应该正好是包含这个词的、这个用户的记忆。"
                                    )
                                )
                            )
                        )
                    )
                )
            )
            raise check.fail(case, given=(user, query), expected=wanted, got=got, hint=hint)
        check.ok(case, _brief(got, 40) if got else "[]")

    for case, user, query, k, wanted in expectations:
        expect(case, user, query, k, wanted)
    for case, k, expected_count in (
        ("k=2：最多 2 条", 2, 2),
        ("k 不传：默认最多 5 条", None, 5),
        ("k=10：有几条给几条", 10, 6),
    ):
        got = ask(case, "alice", "出差", k)
        if len(got) != expected_count or not all("出差" in text for text in got):
            raise check.fail(
                case,
                given=("alice", "出差", k),
                expected=f"{expected_count} 条含“出差”的记忆",
                got=got,
                hint="用 LIMIT ? 限制条数（参数绑定 k），k 的默认值是 5。",
            )
        check.ok(case, f"{len(got)} 条")

    def limited(k: int) -> Callable[[], Any]:
        def run() -> Any:
            db = memory_db(rows)
            try:
                return search_memories(db, "alice", "出差", k)
            finally:
                db.close()

        return run

    check.independent(
        "k 的边界",
        [("k=0：一条也不要", limited(0), [], ("alice", "出差", 0))],
        hint="最多 k 条：k=0 就是一条也不返回——LIMIT ? 直接绑定 k，不要写 k or 默认值。",
    )
    saved_twice = rows + [("alice", "我喜欢靠窗的座位")]  # the user saved this one twice
    expect(
        "同一条记忆存了两次：只返回一次（两个字，LIKE）",
        "alice",
        "靠窗",
        None,
        ["我喜欢靠窗的座位"],
        saved_twice,
    )
    expect(
        "同一条记忆存了两次：只返回一次（三个字，MATCH）",
        "alice",
        "靠窗的",
        None,
        ["我喜欢靠窗的座位"],
        saved_twice,
    )

    # Copies of one memory at both ends, so a LIMIT before removing duplicates keeps only copies in
    # either order
    repeated = [("alice", "我喜欢靠窗的座位")] * 2 + [("alice", "靠窗的位置要安静一点")]
    repeated += [("alice", "我喜欢靠窗的座位")] * 2 + [("bob", "我也喜欢靠窗的座位")]
    distinct = ["我喜欢靠窗的座位", "靠窗的位置要安静一点"]
    for case, query in (
        ("同一条记忆存了四次，k=2：先去重再取 2 条（两个字，LIKE）", "靠窗"),
        ("同一条记忆存了四次，k=2：先去重再取 2 条（三个字，MATCH）", "靠窗的"),
    ):
        got = ask(case, "alice", query, 2, repeated)
        if sorted(got) != sorted(distinct):
            raise check.fail(
                case,
                given=("alice", query, 2),
                expected=f"{distinct}（两条不同的记忆都匹配，k=2 就给 2 条）",
                got=got,
                hint=(
                    "先去重再取 k 条：SELECT DISTINCT text … LIMIT ?。先 LIMIT 再在 Python 里去重，"
                    "重复的几行占掉了名额，结果就比 k 条少。"
                    if len(got) < len(distinct) and set(got) <= set(distinct)
                    else "这两条不同的记忆都含查询词，k=2 时两条都要返回，别的不要。"
                ),
            )
        check.ok(case, _brief(got, 40))

    _independent_searches(check, search_memories)

    case = "隔离：20 个用户、200 次查询，跨用户的结果为 0"
    rng = random.Random(44)
    users = [f"user{n}" for n in range(20)]
    facts = ["住在{}", "预算是 {} 元", "喜欢{}", "对{}过敏", "电话是 138{}"]
    fill = ["杭州", "上海", "花生", "靠窗", "绿茶", "5000", "8000"]
    data = []
    for n in range(300):
        user = rng.choice(users)
        data.append(
            (user, f"{user} {rng.choice(facts).format(rng.choice(fill))} #{n}")
        )  # every text differs
    found = 0
    for _ in range(200):
        user = rng.choice(users)
        query = rng.choice(fill + ["住在", "预算", "过敏", rng.choice(users)])
        found += len(ask(case, user, query, 5, data))
    if found == 0:
        raise check.fail(
            case,
            expected="能找到每个用户自己的记忆",
            got="200 次查询一条也没找到",
            hint="检查 WHERE 条件和查询词的匹配方式。",
        )
    check.ok(case, f"共返回 {found} 条，全部属于提问的用户")
    check.done()
