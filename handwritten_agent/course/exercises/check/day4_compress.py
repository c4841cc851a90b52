"""Checker for exercise 4.3: a summarizing ``compress_history(messages, client, budget)`` written by
hand.

The check judges what the learner's compression keeps, on conversations nobody has seen:

1. fixed cases: under the budget nothing changes and no model is asked; over it, one summary in a
   system message right after the system messages, the last two rounds kept whole, every older
   message — tool results too — in what the model is asked to summarize, a length limit that brings
   the request down to the low-water mark (the summary fills at most 60% of the room the budget
   leaves once the system messages and the last two rounds are counted), the earlier summary handed
   over at the next compression (one summary, never two), a head system message that only mentions
   the summary heading kept in the head, a history with nothing older than its last
   two rounds returned as it is, the input unchanged, and no use of the package's
   ``compress``/``Summarizer``;
2. three conversations generated from seeds — facts with values drawn at random (budgets, allergies,
   names, codes, decisions, tasks …), chatter and tool rounds, in a random order — run on the
   offline simulator with the learner's function as the memory policy; afterwards every planted fact
   is asked about and must be answered. Words in a prompt cannot pass this: each fact must reach the
   model, survive every later compression and fit.

The summarizer the check uses is the simulator made **wordy**: its summary is padded to the length
the request allows (with no limit stated, as long as the transcript), as a model that is not told a
limit writes at length. So a compression that aims just under the budget, or states no limit, shows
up.

Left out: grading the summary's wording, and budgets other than tokens counted by ``count_tokens``
(tools are not counted: the policy sees messages only).
"""

from __future__ import annotations

import copy
import json
import random
import types
from collections.abc import Callable
from datetime import datetime
from typing import Any

from .framework import (
    _brief,
    _callable,
    _Check,
    _short,
    exercise,
    full_width,
    offline_client,
    refill,
    typed,
)

__all__ = ["day4_compress"]

# the summary may fill this share of the room the budget leaves once the kept parts are counted
LOW_WATER = 0.6
# the result may exceed the low-water mark by 5% of the budget (counting the heading or not, padding
# steps)
TOLERANCE = 0.05
SYSTEM_PROMPT = "你是一个可以调用工具的助手，回答简洁。"
FILLER = "- 其余细节从略。"


# ---------------------------------------------------------------------------------------------
# A wordy summarizer: the simulator's summary, padded to the room it was given
# ---------------------------------------------------------------------------------------------


def stated_limit(instruction: str) -> int | None:
    """The summary's length limit the instruction states, in tokens (a limit in characters is
    converted), or ``None``.
    """
    from ...offline.simulator.summary import _limit, _token_limit

    text = " ".join(instruction.split()).lower()
    tokens, chars = _token_limit(text), _limit(text)
    if tokens is not None:
        return tokens
    return int(chars * 0.6) if chars is not None else None


class TooManySummaries(RuntimeError):
    """The learner's compression asked for far more summaries than the conversation needs."""


class Wordy:
    """A ``ChatModel``: tool requests go to ``client``; a summary request gets ``client``'s summary
    padded to its limit.

    Records every summary request (``requests``: the messages) and reply (``summaries``), in order.
    """

    def __init__(self, client: Any, limit: int = 400):
        self.client, self.limit = client, limit
        self.requests: list[list[dict[str, Any]]] = []
        self.summaries: list[str] = []
        self.stated: list[int | None] = []

    def complete(self, messages: Any, tools: Any = None, **options: Any) -> Any:
        from ....messages import ChatResult, Usage
        from ....tokens import estimate_tokens

        if tools:
            return self.client.complete(messages, tools=tools, **options)
        sent = json.loads(json.dumps(list(messages), ensure_ascii=False, default=str))
        self.requests.append(sent)
        if len(self.requests) > self.limit:
            raise TooManySummaries(f"写摘要的请求超过了 {self.limit} 次")
        instruction = "\n".join(
            str(m.get("content") or "") for m in sent if m.get("role") == "system"
        )
        transcript = "\n".join(
            str(m.get("content") or "") for m in sent if m.get("role") != "system"
        )
        limit = stated_limit(instruction)
        reply = self.client.complete(messages, **options)
        text = (reply.content or "").strip()
        target = limit if limit is not None else estimate_tokens(transcript)
        while estimate_tokens(f"{text}\n{FILLER}") <= target:
            text += f"\n{FILLER}"
        self.summaries.append(text)
        self.stated.append(limit)
        return ChatResult(content=text, finish_reason="stop", usage=Usage(0, estimate_tokens(text)))


# ---------------------------------------------------------------------------------------------
# Conversations nobody has seen: planted facts with random values, chatter, tool rounds
# ---------------------------------------------------------------------------------------------

FOODS = ["芒果", "虾", "牛奶", "香菜", "芝麻", "鸡蛋", "菠萝", "蟹"]
SEATS = ["靠过道", "靠窗", "前排", "安静车厢"]
PEOPLE = ["周敏", "吴昊", "郑琳", "孙悦", "马骁", "钱程", "何静", "高远"]
HOMES = ["苏州", "武汉", "长沙", "昆明", "大连", "合肥", "福州", "济南"]
TASKS = ["续签合同", "预约体检", "交季度总结", "更新通讯录", "退还押金", "寄出样品"]
APPS = ["飞书", "钉钉", "腾讯会议", "企业微信"]
DISLIKES = ["红眼航班", "转机", "早上开会", "坐大巴"]
WEATHER_CITIES = ["北京", "上海", "广州", "深圳", "杭州", "成都"]
CHATTER = [
    "哈哈，今天真是忙得团团转。",
    "嗯嗯好的。",
    "谢谢你啊，帮了大忙。",
    "今天心情真不错呢。",
    "好吧，那就这样吧。",
    "辛苦了辛苦了。",
]

Planted = tuple[
    str, str, tuple[str, ...]
]  # what the user says, what they ask later, the words the answer must contain


def _facts(rng: random.Random) -> list[Callable[[], Planted]]:
    n = rng.randint
    return [
        lambda: (
            f"我的预算上限是 {(v := n(21, 98) * 100)} 元。",
            "我的预算上限是多少？",
            (str(v),),
        ),
        lambda: (f"我对{(v := rng.choice(FOODS))}过敏。", "我对什么过敏？", (v,)),
        lambda: (f"我喜欢{(v := rng.choice(SEATS))}的座位。", "我喜欢什么样的座位？", (v,)),
        lambda: (f"客户联系人是{(v := rng.choice(PEOPLE))}。", "客户联系人是谁？", (v,)),
        lambda: (
            f"周会定在周{rng.choice('一二三四五')}下午 {(v := n(2, 5))} 点。",
            "周会定在什么时候？",
            (f"{v} 点",),
        ),
        lambda: (f"记得提醒我{(v := rng.choice(TASKS))}。", "你要提醒我做什么？", (v,)),
        lambda: (f"我的工号是 E{(v := n(1000, 9999))}。", "我的工号是多少？", (f"E{v}",)),
        lambda: (f"我住在{(v := rng.choice(HOMES))}。", "我住在哪个城市？", (v,)),
        lambda: (
            f"我每天最多工作 {(v := n(6, 9))} 小时。",
            "我每天最多工作几个小时？",
            (f"{v} 小时",),
        ),
        lambda: (f"我们决定用{(v := rng.choice(APPS))}开周会。", "我们决定用什么开周会？", (v,)),
        lambda: (f"我讨厌{(v := rng.choice(DISLIKES))}。", "我讨厌什么？", (v,)),
        lambda: (f"项目代号是 PX-{(v := n(10, 99))}。", "项目代号是什么？", (f"PX-{v}",)),
    ]


def _tool_request(rng: random.Random) -> str:
    kind = rng.randrange(4)
    if kind == 0:
        return f"{rng.choice(WEATHER_CITIES)}{rng.choice(['今天', '明天'])}天气怎么样？"
    if kind == 1:
        return f"{rng.randint(12, 99)} 乘以 {rng.randint(3, 19)} 等于多少？"
    if kind == 2:
        return f"{rng.randint(2, 9) * 50} 美元能换多少人民币？"
    return "现在几点了？"


def generated_conversation(
    seed: int, *, facts: int = 8, tools: int = 6, chatter: int = 4
) -> tuple[list[str], list[Planted]]:
    """The user's messages in order, and the planted facts (the last two rounds are tool rounds: no
    fact is in them).
    """
    rng = random.Random(seed)
    planted = [make() for make in rng.sample(_facts(rng), facts)]
    kinds = ["fact"] * facts + ["tool"] * tools + ["chat"] * chatter
    rng.shuffle(kinds)
    pending = list(planted)
    texts = [
        (
            pending.pop(0)[0]
            if kind == "fact"
            else _tool_request(rng)
            if kind == "tool"
            else rng.choice(CHATTER)
        )
        for kind in kinds
    ]
    return texts + [_tool_request(rng), _tool_request(rng)], planted


# ---------------------------------------------------------------------------------------------
# Reading a learner's result
# ---------------------------------------------------------------------------------------------


def _is_summary(message: Any) -> bool:
    from ....memory import SUMMARY_HEADING

    return (
        isinstance(message, dict)
        and isinstance(message.get("content"), str)
        and message["content"].startswith(SUMMARY_HEADING)
    )


def _head(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The leading system messages that are not a summary (what must come back first, unchanged)."""
    head = []
    for message in messages:
        if message.get("role") != "system":
            break
        if not _is_summary(message):
            head.append(message)
    return head


def _roles(messages: Any) -> str:
    if not isinstance(messages, list):
        return _short(messages, 120)
    shown = []
    for m in messages:
        if not isinstance(m, dict):
            shown.append(type(m).__name__)
        elif _is_summary(m):
            shown.append(f"{m.get('role')}(摘要)")
        else:
            shown.append("assistant(调用)" if m.get("tool_calls") else str(m.get("role")))
    return " ".join(shown) + f"（{len(messages)} 条）"


def _structure(messages: list[dict[str, Any]], got: Any, budget: int) -> str | None:
    """What is wrong with the result of a compression (``None``: nothing)."""
    from ....memory import count_tokens, pairing_problems, split_rounds

    if not isinstance(got, list) or not all(isinstance(m, dict) for m in got):
        return f"要返回消息字典的列表，收到的是 {_short(got, 80)}"
    head = _head(messages)
    if got[: len(head)] != head:
        return "开头的 system 消息（之前的摘要除外）要原样放在最前面"
    summaries = [i for i, m in enumerate(got) if _is_summary(m)]
    if any(m.get("role") != "system" for m in got if _is_summary(m)):
        return (
            "摘要放进了 assistant/user 消息：模型会把它当成自己说过的话（或用户的新要求）。用"
            " summary_message(text) 放进 system 消息"
        )
    if len(summaries) > 1:
        return (
            f"结果里有 {len(summaries)} 条摘要：之前的摘要要交给模型、合进新摘要，"
            "而不是留着它再加一条"
        )
    if summaries != [len(head)]:
        return "压缩后要有一条摘要（summary_message(...)），紧跟在开头的 system 消息后面"
    recent = [m for r in split_rounds(messages)[-2:] for m in r]
    if got[len(head) + 1 :] != recent:
        problems = pairing_problems(got)
        if problems:
            return f"工具调用和结果没有配对（{problems[0]}）：按“轮”保留，最近两轮整轮原样保留"
        return "摘要后面应该正好是最近两轮，原样保留（不多不少、不改内容）"
    if count_tokens(got) > budget:
        return f"压缩后仍有 {count_tokens(got)} 个 token，超过了预算 {budget}"
    return None


# ---------------------------------------------------------------------------------------------
# What the task forbids: the package's own compress
# ---------------------------------------------------------------------------------------------


def _package_uses(fn: Any) -> list[str]:
    """Where the learner's code (and its helpers in the same notebook) reaches the package's
    ``compress``/``Summarizer``.
    """
    from ....memory import summary as package

    forbidden = {id(package.compress): "compress", id(package.Summarizer): "Summarizer"}
    module = getattr(fn, "__module__", None)
    found: list[str] = []
    seen: set[int] = set()

    def scan(code: types.CodeType, namespace: dict[str, Any], where: str) -> None:
        if id(code) in seen:
            return
        seen.add(id(code))
        import dis

        for instruction in dis.get_instructions(code):
            name = instruction.argval
            if not isinstance(name, str):
                continue
            if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                value = namespace.get(name)
                if id(value) in forbidden:
                    found.append(f"{where} 用了课程包的 {forbidden[id(value)]}")
                elif isinstance(value, types.ModuleType) and value.__name__.startswith(
                    "handwritten_agent.memory"
                ):
                    for attribute in ("compress", "Summarizer"):
                        if attribute in code.co_names:
                            found.append(f"{where} 用了 {value.__name__}.{attribute}")
                elif isinstance(value, types.FunctionType) and value.__module__ == module:
                    scan(value.__code__, value.__globals__, value.__qualname__)
        for constant in code.co_consts:
            if isinstance(constant, types.CodeType):
                scan(constant, namespace, where)

    function = getattr(fn, "__func__", fn)
    if isinstance(function, types.FunctionType):
        scan(function.__code__, function.__globals__, function.__qualname__)
    return list(dict.fromkeys(found))


# ---------------------------------------------------------------------------------------------
# The fixed cases
# ---------------------------------------------------------------------------------------------


def _call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)},
    }


def _fixed_history() -> list[dict[str, Any]]:
    """Nine rounds: facts, a tool round whose result holds values only the tool said, chatter; then
    two tool rounds.
    """
    system = {"role": "system", "content": SYSTEM_PROMPT}
    track = [
        {"time": f"3 月 {day} 日 {hour}:00", "place": place}
        for day, hour, place in [
            (9, 8, "深圳"),
            (9, 21, "深圳转运中心"),
            (10, 6, "广州转运中心"),
            (10, 23, "长沙转运中心"),
            (11, 9, "武汉转运中心"),
            (11, 22, "合肥转运中心"),
            (12, 7, "杭州转运中心"),
        ]
    ]
    history = [
        system,
        {"role": "user", "content": "我的预算上限是 4300 元。"},
        {"role": "assistant", "content": "好的，知道了。"},
        {"role": "user", "content": "帮我查一下快递到哪了？"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [_call("call_e1", "track_parcel", {"number": "SF20260312"})],
        },
        {
            "role": "tool",
            "tool_call_id": "call_e1",
            "content": json.dumps(
                {
                    "success": True,
                    "data": {
                        "status": "已到达杭州转运中心",
                        "courier": "顺丰",
                        "code": "HZ-7731",
                        "track": track,
                    },
                    "error": None,
                },
                ensure_ascii=False,
            ),
        },
        {"role": "assistant", "content": "快递已到达杭州转运中心，编码 HZ-7731。"},
        {"role": "user", "content": "我对芝麻过敏。"},
        {"role": "assistant", "content": "好的，知道了。"},
        {"role": "user", "content": "哈哈，今天真是忙得团团转。"},
        {"role": "assistant", "content": "辛苦了！有需要随时找我。"},
        {"role": "user", "content": "客户联系人是郑琳。"},
        {"role": "assistant", "content": "好的，知道了。"},
        {"role": "user", "content": "我们决定用飞书开周会。"},
        {"role": "assistant", "content": "好的，知道了。"},
        {"role": "user", "content": "记得提醒我续签合同。"},
        {"role": "assistant", "content": "好的，到时候提醒你续签合同。"},
        {"role": "user", "content": "我喜欢靠过道的座位。"},
        {"role": "assistant", "content": "好的，知道了。"},
    ]
    for n, (a, b) in enumerate([(37, 6), (58, 3)], 1):
        history += [
            {"role": "user", "content": f"{a} 乘以 {b} 等于多少？"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [_call(f"call_c{n}", "calculator", {"expression": f"{a} * {b}"})],
            },
            {
                "role": "tool",
                "tool_call_id": f"call_c{n}",
                "content": json.dumps({"success": True, "data": a * b, "error": None}),
            },
            {"role": "assistant", "content": f"{a} 乘以 {b} 等于 {a * b}。"},
        ]
    return history


OLDER_VALUES = (
    ("第 1 轮用户说的预算", "4300"),
    ("工具结果里的快递状态", "已到达杭州转运中心"),
    ("工具结果里的编码", "HZ-7731"),
    ("第 3 轮用户说的过敏", "芝麻"),
    ("第 5 轮用户说的联系人", "郑琳"),
)


def _run(
    check: _Check,
    case: str,
    compress: Callable[..., Any],
    messages: list[dict[str, Any]],
    client: Any,
    budget: int,
) -> Any:
    """The learner's compression of ``messages``; its exceptions and a changed input become
    failures.
    """
    from ....memory import count_tokens

    before = copy.deepcopy(messages)
    got = check.call(
        case,
        compress,
        messages,
        client,
        budget,
        given=f"budget={budget}，{_roles(before)}，{count_tokens(before)} tokens",
        hint=lambda exc: (
            "ContextTooLong 不是这道题要的：这道题只压缩，不截断；"
            "最近两轮之外没有更早的轮时原样返回。"
            if "TooLong" in type(exc).__name__
            else (
                "每次压缩只请求模型一次；压到预算的 60% 之后，接下来几轮都不需要再压缩。"
                if isinstance(exc, TooManySummaries)
                else "先在上面的单元格里用同样的输入单独调用你的函数，看看是哪一行出的错。"
            )
        ),
    )
    if messages != before:
        raise check.fail(
            case,
            expected="输入的消息列表保持不变",
            got=f"被改成了：{_roles(messages)}",
            hint=(
                "不要修改传进来的列表和字典（pop、del、insert、改 content 都算）："
                "新建一个列表返回。"
            ),
        )
    if not isinstance(got, list) or not all(isinstance(m, dict) for m in got):
        raise check.fail(
            case,
            expected="消息字典的列表（list[dict]）",
            got=typed(got),
            hint=(
                "返回压缩后的消息列表：放得下时原样返回 messages，压缩时返回 head +"
                " [summary_message(摘要)] + 最近两轮。"
            ),
        )
    return got


def _shown_limit(wordy: Wordy) -> str:
    stated = wordy.stated[0] if wordy.stated else None
    return "没有说" if stated is None else f"{stated} 个 token"


def _limit_hint(stated: int | None, room: int, budget: int) -> str:
    if stated is None:
        return (
            "写摘要的请求里没有说长度上限，模型就会写得很长：用 budget_line(上限) "
            "把上限写进提示词，"
            "上限 = (预算 − 固定部分) × 60%，固定部分是摘要以外原样保留的：system 消息、摘要的标"
            "题、最近两轮。"
        )
    if stated > room + TOLERANCE * budget:
        return (
            f"你告诉模型摘要最多 {stated} 个 token：这是刚好放下，不是低水位。上限 = (预算 −"
            f" 固定部分) × 60%，这里约是 {room}；"
            "剩下的 40% 留给接下来的几轮，它们不用再压缩，请求的开头也保持不变。"
        )
    return (
        "固定部分（system 消息、摘要的标题和说明、最近两轮）也要算进去：fixed = count_tokens(head +"
        ' [summary_message("")] + 最近两轮)。'
    )


def _fixed_cases(check: _Check, compress: Callable[..., Any]) -> None:
    from ....memory import count_tokens, summary_message
    from ....messages import ChatResult
    from ....scripted import FunctionClient

    history = _fixed_history()
    asked: list[list[dict[str, Any]]] = []

    def marker(text: str) -> FunctionClient:
        def reply(messages: list[dict[str, Any]], tools: Any) -> ChatResult:
            asked.append(messages)
            return ChatResult(content=text)

        return FunctionClient(reply, max_calls=50)

    case = "不用课程包的 compress / Summarizer"
    uses = _package_uses(compress)
    if uses:
        raise check.fail(
            case,
            expected="自己写的压缩",
            got="；".join(uses),
            hint=(
                "这道题要自己写：可以用 split_rounds、render_transcript、summary_message、"
                "budget_line 这些零件，"
                "但不能直接调用课程包的 compress 或 Summarizer。"
            ),
        )
    check.ok(case)

    case = "预算足够：原样返回，不请求模型"
    for budget in (count_tokens(history), count_tokens(history) + 500):
        asked.clear()
        got = _run(check, case, compress, history, marker("- 不该出现"), budget)
        if got != history or asked:
            raise check.fail(
                case,
                given=f"budget={budget}，对话 {count_tokens(history)} tokens",
                expected="原样返回，一次也不请求模型",
                got=f"{_roles(got)}，请求了模型 {len(asked)} 次",
                hint=(
                    "先用 count_tokens(messages) 判断：不超过预算（等于也算放得下）就直接返回，不要"
                    "写摘要。"
                ),
            )
    check.ok(case, "等于预算、低于预算都原样返回")

    case = "超出预算：一条摘要紧跟 system 消息，最近两轮原样保留"
    budget = count_tokens(history) - 1
    asked.clear()
    got = _run(check, case, compress, history, marker("- 用户的预算上限是 4300 元"), budget)
    problem = _structure(history, got, budget)
    if problem or len(asked) != 1:
        raise check.fail(
            case,
            given=f"budget={budget}，{_roles(history)}",
            expected=(
                f"{_roles(_head(history) + [summary_message('…')] + history[-8:])}，请求模型 1 次"
            ),
            got=f"{_roles(got)}，请求了模型 {len(asked)} 次",
            hint=problem or "超出预算时请求模型一次，写一段摘要。",
        )
    check.ok(case, _roles(got))

    case = "较早的轮都交给了模型：用户的话和工具结果"
    sent = json.dumps(asked[0], ensure_ascii=False)
    missing = [(what, value) for what, value in OLDER_VALUES if value not in sent]
    if missing:
        in_tool = any(what.startswith("工具结果") for what, _ in missing)
        raise check.fail(
            case,
            expected="写摘要的请求里有较早每一轮的用户消息和工具结果",
            got="缺了：" + "、".join(f"{what}（{value}）" for what, value in missing),
            hint=(
                "工具结果也要交给模型（render_transcript(较早的轮) 会把每个调用和它的结果放在一"
                "起）：快递的状态只在工具结果里。"
                if in_tool
                else "最近两轮之前的每一轮都要交给模型：render_transcript(rounds[:-2])。"
            ),
        )
    check.ok(case, "快递状态（只在工具结果里）、预算、过敏、联系人")
    _independent_compressions(check, compress)

    case = "告诉模型长度上限：压到低水位，剩余空间的 60%"
    for budget in (count_tokens(history) - 1, int(count_tokens(history) * 0.8)):
        wordy = Wordy(offline_client())
        got = _run(check, case, compress, history, wordy, budget)
        problem = _structure(history, got, budget)
        fixed = count_tokens(_head(history) + [summary_message("")] + history[-8:])
        room = int(LOW_WATER * (budget - fixed))
        if problem is None and count_tokens(got) > fixed + room + TOLERANCE * budget:
            problem = _limit_hint(wordy.stated[0] if wordy.stated else None, room, budget)
        if problem:
            raise check.fail(
                case,
                given=f"budget={budget}，固定部分 {fixed} tokens；这里的模型会用满你允许的长度",
                expected=(
                    f"压缩后约 {fixed + room} tokens 以内（固定部分 {fixed} + 剩余空间"
                    f" {budget - fixed} 的 60%）"
                ),
                got=(
                    f"{count_tokens(got)} tokens（告诉模型的上限：{_shown_limit(wordy)}）"
                    if isinstance(got, list) and all(isinstance(m, dict) for m in got)
                    else _short(got, 80)
                ),
                hint=problem,
            )
    check.ok(case, "两个预算下都压到了低水位")

    case = "第二次压缩：之前的摘要交给模型，结果里只有一条摘要"
    first = _run(
        check,
        case,
        compress,
        history,
        marker("- 暗号 QX-58，用户的预算上限是 4300 元"),
        count_tokens(history) - 1,
    )
    more = first + [
        {"role": "user", "content": "我每天最多工作 7 小时。"},
        {"role": "assistant", "content": "好的，知道了。"},
        {"role": "user", "content": "我讨厌转机。"},
        {"role": "assistant", "content": "好的，知道了。"},
    ]
    asked.clear()
    second = _run(check, case, compress, more, marker("- 第二次的摘要"), count_tokens(more) - 1)
    problem = _structure(more, second, count_tokens(more) - 1)
    handed = asked and "QX-58" in json.dumps(asked[0], ensure_ascii=False)
    if problem or not handed:
        raise check.fail(
            case,
            given=_roles(more),
            expected="之前摘要里的内容（暗号 QX-58）出现在第二次写摘要的请求里；结果只有一条摘要",
            got=f"{_roles(second)}；第二次的请求里{'有' if handed else '没有'}之前的摘要",
            hint=problem
            or (
                "之前的摘要不在 rounds 里（它是开头的一条 system 消息）：先把它取出来，"
                "render_transcript(较早的轮, previous_summary=之前的摘要文字) 会把它一起交给模型，"
                "否则第一次压缩记下的事在第二次压缩时就丢了。"
            ),
        )
    check.ok(case, _roles(second))

    case = "开头的 system 消息提到了摘要的标题：它仍是开头的消息，不是之前的摘要"
    from ....memory import SUMMARY_HEADING

    told = {
        "role": "system",
        "content": (
            f"{SYSTEM_PROMPT}以“{SUMMARY_HEADING}”开头的 system 消息是较早对话的摘要，"
            "把它当作已知的事实。"
        ),
    }
    mentioning = [told] + history[1:]
    budget = count_tokens(mentioning) - 1
    got = _run(check, case, compress, mentioning, marker("- 用户的预算上限是 4300 元"), budget)
    problem = _structure(mentioning, got, budget)
    if problem:
        raise check.fail(
            case,
            given=f"开头的 system 消息：{told['content']}",
            expected=_roles(_head(mentioning) + [summary_message("…")] + mentioning[-8:]),
            got=_roles(got) if isinstance(got, list) else _short(got, 80),
            hint=(
                f"之前的摘要是内容以 {SUMMARY_HEADING} 开头的 system 消息："
                "用 content.startswith(SUMMARY_HEADING) 认它，不要用 in——一条在中间提到这个标题"
                "的 system 消息是开头的指示，要原样留在最前面。"
                + (f"（{problem}）" if problem else "")
            ),
        )
    check.ok(case, "开头的 system 消息原样保留，摘要只有一条")

    case = "最近两轮之外没有更早的轮：原样返回"
    short = [history[0]] + history[-8:]
    asked.clear()
    got = _run(check, case, compress, short, marker("- 不该出现"), count_tokens(short) - 5)
    if got != short or asked:
        raise check.fail(
            case,
            given=_roles(short),
            expected="原样返回，不请求模型（没有可以总结的轮）",
            got=f"{_roles(got)}，请求了模型 {len(asked)} 次",
            hint="只有最近两轮时没有更早的轮可以总结：原样返回（放不下的问题交给滑动窗口）。",
        )
    check.ok(case, "两轮都保留")


def _other_conversation(number: int) -> list[dict[str, Any]]:
    """A conversation of six plain rounds (Chinese, full-width and mixed text), the same shape for
    every ``number`` and other contents: a cache under a key that leaves out what was said hits."""
    people = ("张三", "Ｌｉｓａ", "王五_Wang")
    cities = ("乌鲁木齐", "ＳＨＡＮＧＨＡＩ", "成都 Chengdu")
    texts = [
        f"我叫{people[number % 3]}，订单号 ZX-{number}{number}7。",
        f"我住在{cities[number % 3]}。",
        f"我的预算是 {full_width(str(3100 + 17 * number))} 元。",
        f"第 {number} 段对话：下周二开会。",
        f"请记住暗号“{'甲乙丙'[number % 3]}-{number}”。",
        "今天先到这里，谢谢！",
    ]
    history = [{"role": "system", "content": SYSTEM_PROMPT}]
    for text in texts:
        history += [
            {"role": "user", "content": text},
            {"role": "assistant", "content": f"好的，记下了：{text[:12]}"},
        ]
    return history


def _independent_compressions(check: _Check, compress: Callable[..., Any]) -> None:
    """Three conversations in a row — another conversation, then the same list given other
    contents: each is compressed on its own (no summary from another conversation reaches the
    model, the summary is this request's, the last two rounds are its own). Silent when right."""
    from ....memory import count_tokens
    from ....messages import ChatResult
    from ....scripted import FunctionClient

    asked: list[str] = []
    codes: list[str] = []

    def client() -> FunctionClient:
        def reply(messages: list[dict[str, Any]], tools: Any) -> ChatResult:
            asked.append(json.dumps(messages, ensure_ascii=False))
            codes.append(f"摘要编号 Q{len(codes) + 1}7")
            return ChatResult(content=f"- {codes[-1]}：用户说过的事")

        return FunctionClient(reply, max_calls=5)

    kept: list[dict[str, Any]] = []

    def outcome(messages: list[dict[str, Any]]) -> Callable[[], dict[str, Any]]:
        def run() -> dict[str, Any]:
            before = len(asked)
            got = compress(messages, client(), count_tokens(messages) - 1)
            mine = codes[before:]
            others = codes[:before]
            summary = (
                next((m for m in got if _is_summary(m)), None) if isinstance(got, list) else None
            )
            return {
                "摘要是这一次模型写的": bool(
                    mine and summary and any(code in str(summary.get("content")) for code in mine)
                ),
                "写摘要的请求里有别的对话的摘要": any(
                    code in request for request in asked[before:] for code in others
                ),
                "最近两轮": [m.get("content") for m in got[-4:] if isinstance(m, dict)]
                if isinstance(got, list)
                else typed(got, 80),
            }

        return run

    def wanted(messages: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "摘要是这一次模型写的": True,
            "写摘要的请求里有别的对话的摘要": False,
            "最近两轮": [m["content"] for m in messages[-4:]],
        }

    runs = []
    for number in (1, 2, 3):
        conversation = _other_conversation(number)
        target = conversation if number == 1 else kept
        if number > 1:  # the same list object, given another conversation
            runs.append(
                (
                    f"同一个列表换成第 {number} 段对话" if number == 3 else f"另一段对话 #{number}",
                    (lambda c=conversation: outcome(refill(kept, c))()),
                    wanted(conversation),
                    f"{_roles(conversation)}，budget = 它的 token 数 − 1",
                )
            )
        else:
            runs.append(
                (
                    "第 1 段对话",
                    outcome(target),
                    wanted(conversation),
                    f"{_roles(conversation)}，budget = 它的 token 数 − 1",
                )
            )
    check.independent(
        "另一段对话、同一个列表换了内容：各压各的",
        runs,
        hint=(
            "每次压缩只依据这一次传进来的 messages：之前的摘要只从输入开头的 system 消息里取"
            "（没有就是 None），不要把上一次的摘要、结果存在全局变量里，也不要按轮数、长度或"
            " id(messages) 缓存。"
        ),
    )


# ---------------------------------------------------------------------------------------------
# The generated conversations
# ---------------------------------------------------------------------------------------------


def _lost_hint(statement: str, values: tuple[str, ...], wordy: Wordy) -> str:
    """Why ``statement`` was lost: never sent, never summarized (the prompt), or dropped at a later
    compression (not rolled).
    """
    from ...offline.simulator.summary import GROUPS, _group_of

    core = statement.rstrip("。")
    sent = [
        i
        for i, request in enumerate(wordy.requests)
        if core in json.dumps(request, ensure_ascii=False)
    ]
    if not sent:
        return (
            f"“{statement}”从来没有出现在写摘要的请求里：它在较早的轮里，被压缩掉之前要交给模型。"
        )
    kept = [
        i for i, summary in enumerate(wordy.summaries) if all(value in summary for value in values)
    ]
    if not kept:
        prompt = next(
            (
                str(m.get("content") or "")
                for m in wordy.requests[sent[0]]
                if m.get("role") == "system"
            ),
            "",
        )
        group = _group_of(statement, set(GROUPS))
        if group and not GROUPS[group][1].search(prompt):
            return (
                f"“{statement}”交给了模型，但摘要没有留下它：它属于「{GROUPS[group][0]}」，"
                "你的摘要提示词没有要求保留这类信息"
                "（可以直接用 SUMMARY_PROMPT）。"
            )
        return f"“{statement}”交给了模型，但摘要没有留下它：检查告诉模型的长度上限是不是太小了。"
    later = [i for i in range(kept[-1] + 1, len(wordy.requests))]
    if later and not all(
        value in json.dumps(wordy.requests[later[0]], ensure_ascii=False) for value in values
    ):
        return (
            f"“{statement}”进了第 {kept[-1] + 1} 次的摘要，"
            "下一次压缩时却没有交给模型：之前的摘要要作为 previous_summary "
            "一起交给模型（滚动摘要），否则每压缩一次就丢一批。"
        )
    return (
        f"“{statement}”在后来的压缩里丢了：检查告诉模型的长度上限，"
        "以及之前的摘要有没有一起交给模型。"
    )


def _generated_case(
    check: _Check, compress: Callable[..., Any], seed: int, budget: int
) -> tuple[int, int, int]:
    """One generated conversation with the learner's compression as the memory policy; (facts kept,
    facts, compressions).
    """
    from ....memory import Conversation, count_tokens, split_rounds
    from ....scenarios import basic_registry

    client = offline_client()
    wordy = Wordy(client, limit=30)
    registry = basic_registry(now=datetime(2026, 3, 12, 14, 30))
    texts, planted = generated_conversation(seed)
    case = f"没见过的对话 #{seed}：{len(texts)} 轮，埋下 {len(planted)} 件事，预算 {budget}"

    def policy(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        got = _run(check, case, compress, messages, wordy, budget)
        if count_tokens(messages) <= budget:
            if got != messages:
                raise check.fail(
                    case,
                    expected="不超过预算时原样返回",
                    got=_roles(got),
                    hint="先判断放不放得下，放得下就原样返回。",
                )
            return got
        if len(split_rounds(messages)) <= 2 and got == messages:
            return (
                got  # nothing older than the last two rounds: returned as it is, as the task says
            )
        problem = _structure(messages, got, budget)
        if problem:
            raise check.fail(
                case,
                given=f"第 {len(wordy.requests)} 次压缩，budget={budget}，{_roles(messages)}",
                expected="system 消息、一条摘要、最近两轮",
                got=_roles(got),
                hint=problem,
            )
        return got

    talk = Conversation(wordy, registry, memory=policy, system_prompt=SYSTEM_PROMPT)
    for text in texts:
        talk.ask(text)
    lost = []
    for statement, question, words in planted:
        follow = Conversation(client, registry, system_prompt=SYSTEM_PROMPT)
        follow.messages = copy.deepcopy(talk.messages)
        answer = follow.ask(question).answer or ""
        if not all(word in answer for word in words):
            lost.append((statement, question, answer))
    if lost:
        statement, question, answer = lost[0]
        raise check.fail(
            case,
            given="、".join(s for s, _, _ in planted),
            expected=f"压缩之后 {len(planted)} 件事都答得出来",
            got=f"答出 {len(planted) - len(lost)} 件；问“{question}”，回答：{_brief(answer, 80)}",
            hint=_lost_hint(statement, next(w for s_, _, w in planted if s_ == statement), wordy),
        )
    return len(planted), len(planted), len(wordy.requests)


@exercise
def day4_compress(check: _Check, compress_history: Callable[..., list[dict[str, Any]]]) -> None:
    """Exercise 4.3: ``compress_history(messages, client, budget)``, judged on fixed cases and on
    generated conversations.
    """
    __tracebackhide__ = True
    _callable(check.exercise, compress_history)
    _fixed_cases(check, compress_history)
    for seed, budget in ((4301, 1000), (4302, 900), (4303, 1100)):
        kept, total, compressions = _generated_case(check, compress_history, seed, budget)
        check.ok(
            f"没见过的对话 #{seed}（预算 {budget}）",
            f"压缩 {compressions} 次，{kept}/{total} 件事都答得出来",
        )
    check.done()
