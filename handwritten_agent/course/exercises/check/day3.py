"""Checkers for the Day 3 exercises (原生 tools 与 ReAct 循环).

A tool's description (3.1) is judged by its structure, not its phrasing: read alone (the name
hidden, the parameters left out) the simulator must tie it to an exchange request; it has a clause
saying when to use the tool (a situation or a quoted example request); each parameter's note says
what it is apart from its examples, and the two notes differ.

Left out: judging how an answer is worded — where a check needs the model's final answer it looks
for the facts (the numbers), never for sentences.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from ....messages import ChatResult, ToolCall, canonical_arguments
from .framework import (
    _CHINESE,
    STATE_HINT,
    _brief,
    _callable,
    _Check,
    _Recorder,
    _short,
    attribute,
    exercise,
    full_width,
    mentions,
    near_names,
    offline_client,
    typed,
    value_difference,
)

_NOW = datetime(2026, 3, 12, 14, 30)


def _registry() -> Any:
    from ....scenarios import basic_registry

    return basic_registry(now=_NOW)


# ---------------------------------------------------------------------------------------------
# 3.1 an exchange-rate tool
# ---------------------------------------------------------------------------------------------


def _names_a_currency(description: str) -> bool:
    """An example is a value the model can copy: the description names a currency (a code or a
    Chinese name), whatever words lead to it (例如、比如、如、括号里、“USD 这样的代码”…)."""
    from ....scenarios.exchange import currency_code

    words = re.findall(r"[A-Za-z]{3}|[\u4e00-\u9fff]{2,4}", description)
    pieces = [
        word[i:j] for word in words for i in range(len(word)) for j in range(i + 2, len(word) + 1)
    ] + words
    return any(currency_code(piece) for piece in pieces)


_WHEN = re.compile(
    r"(?<![实及同准按定小临暂随即])时(?![间区刻段长效代])|如果|若(?!干)|当.{1,30}?时|需要|之前|之后|先用|先调|先查|用于|用来|适用|场景|遇到|问到|问起|想知道|想查|"
    r"回答|用户(?:问|想|要)|[“\"「『‘'][^”\"」』’']{2,}[”\"」』’']|"
    r"\b(?:when|if|before|whenever|use (?:it|this)|asks?|questions?)\b",
    re.I,
)
"""A clause that says when to use a tool: a situation (时、如果、当、遇到、用户问 …) or an example
request in quotes — the grammar of "when", not the words of one answer."""
_EXAMPLE_WORDS = re.compile(
    r"例如|比如|譬如|诸如|像是|这样的|之类|等等|或者|或|和|与|及|"
    r"\b(?:e\.g\.|such as|for example|for instance|like|or|and)\b|[\s\W\d_]+",
    re.I,
)


def _currency_words() -> re.Pattern[str]:
    from ....scenarios.exchange import CNY_PER_UNIT, DISPLAY_NAMES, NAMES

    words = sorted(
        {*CNY_PER_UNIT, *DISPLAY_NAMES.values(), *(name for name in NAMES if len(name) > 1)},
        key=len,
        reverse=True,
    )
    return re.compile(
        "|".join(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])" for word in words), re.I
    )


def _meaning(description: str, name: str) -> str:
    """What a parameter's description says besides its examples: the currencies it names, the
    words that lead to them (例如、比如 …), the parameter's own name and punctuation removed."""
    text = _currency_words().sub(" ", description.replace(name, " "))
    return _EXAMPLE_WORDS.sub("", text)


def _description_problem(made: Any, names: list[str]) -> tuple[str, str, str] | None:
    """(what is missing, what was read, hint) when the description does not say what the tool does,
    when to use it, or what each of its two parameters means; None when it does.

    "What it does" is read by the simulator, as a model reads it: the description alone — the name
    hidden, the parameters left out — must point it at this tool for an exchange request."""
    from ...offline.simulator.choose import MIN_SCORE, profile, score

    description = str(made.description or "")
    alone = profile(
        {
            "type": "function",
            "function": {
                "name": "tool_x",
                "description": description,
                "parameters": {"type": "object", "properties": {}},
            },
        }
    )
    requests = ("100 美元能换多少人民币", "200 人民币能换多少日元")
    if any(score(request, alone) < MIN_SCORE for request in requests):
        return (
            "描述本身（不看工具名和参数）说清工具做什么：查什么、对什么",
            f"描述：{_short(description, 120)}",
            "模型先读描述再决定用哪个工具：写出动作和对象，例如“查询两种货币之间的汇率”。"
            "“处理数据”“一个有用的工具”这类话，模型读不出它和汇率有关，换一个工具名就选不中了。",
        )
    if not _WHEN.search(description):
        return (
            "描述里说什么时候用它（什么样的问题、什么情况下）",
            f"描述：{_short(description, 120)}",
            "在描述里加一句什么时候用，例如：用户问“100 美元能换多少人民币”这类问题时，"
            "先用它查汇率。",
        )
    properties = made.parameters.get("properties") or {}
    meanings = {}
    for name in names[:2]:
        text = str((properties.get(name) or {}).get("description", ""))
        meanings[name] = _meaning(text, name)
        if len(_CHINESE.findall(meanings[name])) < 2 and not re.search(
            r"[A-Za-z]{3,}", meanings[name]
        ):
            return (
                f"参数 {name} 的说明除了例子，还说出它是什么（要换出的还是要换成的货币）",
                f"{name}: {_short(text, 80)}",
                f"只有例子不够：{name} 的说明先说它是什么，例如“要换出的货币，货币代码或中文名，"
                "例如：USD 或 美元”。",
            )
    first, second = names[:2]
    if meanings[first] == meanings[second]:
        return (
            "两个参数的说明分得清哪个是要换出的、哪个是要换成的货币",
            f"{first} 和 {second} 的说明除了例子都是：{_short(meanings[first], 60)!r}",
            "两个参数说明一样，模型就分不清方向：分别写“要换出的货币”和“要换成的货币”。",
        )
    return None


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def _numbers(value: Any, depth: int = 0) -> list[tuple[str, float]]:
    """Every number in a tool's result, with the key it came from ("" when none): dicts, lists and
    text.
    """
    if depth > 5:
        return []
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [("", float(value))] if math.isfinite(value) else []
    if isinstance(value, str):
        return [("", float(x)) for x in _NUMBER.findall(value.replace(",", ""))]
    if isinstance(value, dict):
        return [
            (str(key) if not inner_key else inner_key, number)
            for key, inner in value.items()
            for inner_key, number in _numbers(inner, depth + 1)
        ]
    if isinstance(value, (list, tuple)):
        return [item for inner in value for item in _numbers(inner, depth + 1)]
    return []


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-3, abs_tol=1e-9)


def _rate_in(data: Any) -> tuple[float | None, list[float]]:
    """The rate a result states: the number under a key that says rate (汇率, rate …) if there is
    one, else the only number; and every number found (for the hint)."""
    found = _numbers(data)
    named = [number for key, number in found if re.search(r"rate|汇率|比率|兑换", key, re.I)]
    if len(named) == 1:
        return named[0], [n for _, n in found]
    if len(found) == 1:
        return found[0][1], [found[0][1]]
    return None, [n for _, n in found]


def _rate_hint(
    got: float | None, numbers: list[float], source: str, target: str, rates: dict[str, float]
) -> str:
    right = rates[source] / rates[target]
    if got is None and not numbers:
        return "结果里要有汇率这个数字：返回一个数，或一个带 rate 键的 dict。"
    if got is None:
        return (
            f"结果里有好几个数 {numbers[:6]}，看不出哪个是汇率：把汇率放在 rate"
            " 键下（或者只返回汇率这一个数）。"
        )
    if _close(got, 1 / right):
        return (
            f"方向反了：1 {source} 能换多少 {target} 是 CNY_PER_UNIT[{source}] /"
            f" CNY_PER_UNIT[{target}]，你算的是倒数。"
        )
    if _close(got, rates[source]) and target != "CNY":
        return (
            f"你返回的是 1 {source} 合多少人民币，没有用到要换成的货币 {target}：要再除以"
            f" CNY_PER_UNIT[{target}]。"
        )
    if _close(got, rates[target]) or _close(got, 1 / rates[source]):
        return (
            "这是某一种货币对人民币的价格，不是两种货币之间的汇率：用 CNY_PER_UNIT[换出] /"
            " CNY_PER_UNIT[换成]。"
        )
    if _close(round(right, 2), got) or _close(round(right, 1), got):
        return (
            "汇率四舍五入得太粗了：至少保留 4 位有效数字（例如 round(rate, 6)），否则金额会差很多。"
        )
    return (
        f"1 {source} 应该换 {right:.6g} {target}：CNY_PER_UNIT[{source}] / CNY_PER_UNIT[{target}]。"
    )


@exercise
def day3_exchange_rate_tool(check: _Check, build_exchange_tool: Callable[[], Any]) -> None:
    """Exercise 3.1: ``build_exchange_tool() -> Tool``; the Agent must choose it for "100 美元能换多
    少人民币".
    """
    __tracebackhide__ = True
    from ....agent import Agent
    from ....scenarios import calculator
    from ....scenarios.exchange import CNY_PER_UNIT
    from ....tools import Tool, ToolRegistry

    _callable(check.exercise, build_exchange_tool)
    case = "用 @tool 定义工具"
    made = check.call(
        case,
        build_exchange_tool,
        hint="@tool 在定义时就会检查：每个参数要有类型注解，文档字符串要有描述和 Args: 部分。",
    )
    if not isinstance(made, Tool):
        raise check.fail(
            case,
            expected="一个 Tool（用 @tool 装饰的函数）",
            got=typed(made),
            hint=(
                "在 build_exchange_tool 里定义 @tool 装饰的函数，然后 return 它（不带括号）。"
                if not callable(made)
                else "这个函数没有被 @tool 装饰：在 def 上面一行写 @tool。"
            ),
        )
    if made.name in ("get_exchange_rate", "calculator"):
        raise check.fail(
            case,
            expected="一个你自己命名的新工具",
            got=made.name,
            hint=(
                "请自己写一个工具，并换一个名字（例如 query_exchange_rate），"
                "不要直接用课程包里现成的。"
            ),
        )
    properties = made.parameters.get("properties") if isinstance(made.parameters, dict) else None
    properties = properties if isinstance(properties, dict) else {}
    names = list(properties)
    required = made.parameters.get("required") or []
    if (
        len(names) < 2
        or any(name not in required for name in names[:2])
        or any(name in required for name in names[2:])
    ):
        raise check.fail(
            case,
            expected="两个必填参数：先是要换出的货币，再是要换成的货币",
            got=f"参数 {names}，必填 {required}",
            hint=(
                "函数签名写成 (from_currency: str, to_currency: str)：第一个参数是换出的货币，"
                "第二个是换成的货币，都不要默认值。"
            ),
        )
    check.ok(case, f"{made.name}({', '.join(names)})")

    case = "每个参数的说明里都有例子"
    missing = [
        name
        for name in names[:2]
        if not _names_a_currency(str((properties.get(name) or {}).get("description", "")))
    ]
    if missing:
        raise check.fail(
            case,
            expected="两个参数的说明里都有一个可以照着填的例子（一种货币的代码或中文名）",
            got="；".join(
                f"{name}: {_short((properties.get(name) or {}).get('description', ''), 80)}"
                for name in missing
            ),
            hint=(
                f"在 Args: 里给 {'、'.join(missing)} 的说明加上例子，例如“要换出的货币，"
                "货币代码或中文名，例如：USD 或 美元”。"
                "模型（和模拟器）照着例子填参数。"
            ),
        )
    check.ok(case)

    problem = _description_problem(made, names)
    if problem is not None:  # a case added later: it prints nothing when it passes
        wanted, read, hint = problem
        raise check.fail(
            "描述说清楚做什么、什么时候用，参数说明说清楚是什么",
            expected=wanted,
            got=read,
            hint=hint,
        )

    registry = ToolRegistry([made, calculator])
    source, target = names[0], names[1]
    pairs = [  # (case, from, to, (codes))
        ("美元 → 人民币（货币代码）", "USD", "CNY", ("USD", "CNY")),
        ("人民币 → 美元（换成的不是人民币）", "CNY", "USD", ("CNY", "USD")),
        ("欧元 → 日元（两边都不是人民币）", "EUR", "JPY", ("EUR", "JPY")),
        ("中文名：美元 → 日元", "美元", "日元", ("USD", "JPY")),
        ("小写代码：usd → hkd", "usd", "hkd", ("USD", "HKD")),
        ("同一种货币：英镑 → 英镑", "GBP", "GBP", ("GBP", "GBP")),
    ]
    seen: list[tuple[dict[str, str], Any]] = []  # earlier calls, to recognise a result kept

    def kept(data: Any) -> str:
        """A state hint when ``data`` is what an earlier call with other arguments returned."""
        earlier = next((args for args, value in seen if value == data), None)
        return (
            ""
            if earlier is None
            else f"这正是前面用 {json.dumps(earlier, ensure_ascii=False)} 调用时的结果："
            "工具把结果存了起来，换了参数还返回旧的。" + STATE_HINT
        )

    for label, first, second, (code_from, code_to) in pairs:
        case = f"直接调用工具：{label}"
        arguments = {source: first, target: second}
        result = registry.dispatch(made.name, arguments)
        right = CNY_PER_UNIT[code_from] / CNY_PER_UNIT[code_to]
        if not result.success:
            raise check.fail(
                case,
                given=arguments,
                expected=f"成功，汇率 {right:.6g}",
                got=f"失败：{result.error}",
                hint=(
                    "用 currency_code(text) 把代码或中文名（大小写都行）换成货币代码，再查 "
                    "CNY_PER_UNIT。"
                ),
            )
        rate, numbers = _rate_in(result.data)
        if rate is None or not _close(rate, right):
            hint = _rate_hint(rate, numbers, code_from, code_to, CNY_PER_UNIT)
            if (
                rate is not None
                and _close(rate, 1 / right)
                and re.search(r"to|target|quote|dest|换成|目标", source, re.I)
            ):
                hint = (
                    f"参数顺序反了：第一个参数 {source} 看名字是“要换成的货币”。练习要求第一个参数"
                    f"是要换出的货币、"
                    "第二个是要换成的货币，例如 (from_currency, to_currency)。"
                )
            raise check.fail(
                case,
                given=arguments,
                expected=f"汇率 {right:.6g}（1 {code_from} = {right:.6g} {code_to}）",
                got=_short(result.data, 200),
                hint=kept(result.data) or hint,
            )
        seen.append((arguments, result.data))
        check.ok(case, f"1 {code_from} = {rate:g} {code_to}")

    # a small rate (silent when right): rounding to a few decimals leaves too few digits
    case = "直接调用工具：日元 → 英镑（很小的汇率，至少 4 位有效数字）"
    arguments = {source: "JPY", target: "GBP"}
    result = registry.dispatch(made.name, arguments)
    right = CNY_PER_UNIT["JPY"] / CNY_PER_UNIT["GBP"]
    rate, numbers = _rate_in(result.data) if result.success else (None, [])
    if not result.success or rate is None or not _close(rate, right):
        raise check.fail(
            case,
            given=arguments,
            expected=f"汇率 {right:.6g}（至少 4 位有效数字）",
            got=f"失败：{result.error}" if not result.success else _short(result.data, 200),
            hint=(
                "round(rate, 4) 对很小的汇率只剩一两位有效数字（0.0053）：保留 4 位有效数字要用"
                ' round(rate, 6) 或 float(f"{rate:.6g}")，或者不四舍五入。'
                if rate is not None and rate and _close(round(right, 4), rate)
                else _rate_hint(rate, numbers, "JPY", "GBP", CNY_PER_UNIT)
            ),
        )

    for label, arguments, bad in (
        ("不认识的货币（换出）", {source: "火星币", target: "CNY"}, "火星币"),
        ("不认识的货币（换成）", {source: "USD", target: "XYZ"}, "XYZ"),
    ):
        case = f"直接调用工具：{label}"
        result = registry.dispatch(made.name, arguments)
        if result.success:
            raise check.fail(
                case,
                given=arguments,
                expected="调用失败（raise ToolError），错误说明里提到这个货币",
                got=f"成功：{_short(result.data, 160)}",
                hint=kept(result.data)
                or (
                    "currency_code() 返回 None 时 raise"
                    ' ToolError(f"不认识的货币“{text}”…")：不要返回 0、None 或一个带 error 的 dict'
                    " 假装成功。"
                ),
            )
        if bad not in (result.error or "") or not _CHINESE.search(result.error or ""):
            raise check.fail(
                case,
                given=arguments,
                expected=f"中文错误说明里提到“{bad}”",
                got=result.error,
                hint=(
                    "错误说明是给模型看的：用中文说清楚哪个货币不认识（把它原样写进去），最好再列出"
                    "支持的货币代码。"
                ),
            )
        check.ok(case, _brief(result.error, 50))

    for request, code_from, code_to, amount in (
        ("100 美元能换多少人民币", "USD", "CNY", 100),
        ("200 人民币能换多少日元", "CNY", "JPY", 200),
        ("100 美元能换多少欧元？", "USD", "EUR", 100),
    ):
        case = f"Agent 回答“{request}”"
        right = CNY_PER_UNIT[code_from] / CNY_PER_UNIT[code_to]
        total = amount * right
        run = Agent(offline_client(), registry, max_steps=6).run(request)
        used = [record for record in run.tool_calls if record.call.name == made.name]
        if not used:
            asked = (
                ", ".join(f"{r.call.name}({r.call.arguments})" for r in run.tool_calls)
                or "没有调用任何工具"
            )
            raise check.fail(
                case,
                expected=f"调用你的工具 {made.name}",
                got=f"{asked}；回答：{_short(run.answer, 160)}",
                hint=(
                    "模型（模拟器）是按工具名、描述和参数描述来选工具和填参数的：描述要写清楚“查询"
                    "汇率”，"
                    "参数描述要说明填什么并给例子（例如 USD、CNY）。"
                ),
            )
        record = used[0]
        if not record.result.success:
            raise check.fail(
                case,
                expected="工具调用成功",
                got=f"{record.call.name}({record.call.arguments}) → {record.result.error}",
                hint=(
                    "看看模型填的参数和你的函数期望的是否一致：模型可能填货币代码（USD），也可能填"
                    "中文名（美元），"
                    "用 currency_code() 两种都能认。"
                ),
            )
        rate, numbers = _rate_in(record.result.data)
        if rate is None or not _close(rate, right):
            swapped = rate is not None and _close(rate, 1 / right)
            raise check.fail(
                case,
                expected=f"工具结果里的汇率是 {right:.6g}（1 {code_from} = {right:.6g} {code_to}）",
                got=f"{record.call.arguments} → {_short(record.result.data, 160)}",
                hint=(
                    "模型把两个参数填反了：参数说明要写清楚哪个是“要换出的货币”、"
                    "哪个是“要换成的货币”。"
                    if swapped
                    else _rate_hint(rate, numbers, code_from, code_to, CNY_PER_UNIT)
                ),
            )
        answer = run.answer or ""
        said = [float(x) for x in _NUMBER.findall(answer.replace(",", ""))]
        if run.stop_reason != "final" or not any(
            math.isclose(x, total, rel_tol=2e-3) for x in said
        ):
            raise check.fail(
                case,
                expected=f"最终回答里有换算结果 {total:.6g}",
                got=f"stop_reason={run.stop_reason}，回答：{_short(answer, 200)}",
                hint=(
                    "工具返回汇率，模型再用计算器乘上金额：确认工具结果里有汇率，"
                    "而且计算器也注册了。"
                ),
            )
        check.ok(case, f"{amount} {code_from} ≈ {total:.6g} {code_to}")
    check.done()


# ---------------------------------------------------------------------------------------------
# 3.2 run_loop
# ---------------------------------------------------------------------------------------------


def _loop_shape(got: Any) -> str | None:
    if not isinstance(got, tuple) or len(got) != 2:
        return f"应该返回一个二元组 (stop_reason, messages)，实际是 {typed(got, 120)}"
    reason, messages = got
    if not isinstance(reason, str):
        return (
            f'stop_reason 应该是 str（"final"、"max_steps" 或 "error"），实际是 {typed(reason, 80)}'
        )
    if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
        return f"messages 应该是 dict 的 list，实际是 {typed(messages, 120)}"
    return None


_ECHO = "先把模型的回复原样追加：messages.append(reply.to_message())。"
_ANSWER_ALL = (
    'for call in reply.tool_calls: 每个调用追加一条 {"role": "tool", "tool_call_id": call.id, '
    '"content": result.to_content()}——每个调用都要回，顺序和调用一致。'
)


def _echo_problem(sent: list[dict[str, Any]], reply: Any) -> tuple[str, str] | None:
    """What is wrong with how a request after a tool-call reply echoes that reply and answers its
    calls: (problem, hint).
    """
    wanted = reply.to_message()
    ids = [call.id for call in reply.tool_calls]
    sent = [m for m in sent if isinstance(m, dict)]
    assistants = [
        m
        for m in sent
        if m.get("role") == "assistant"
        and isinstance(m.get("tool_calls"), list)
        and m["tool_calls"]
    ]
    echoed = next(
        (
            m
            for m in assistants
            if [c.get("id") if isinstance(c, dict) else None for c in m["tool_calls"]] == ids
        ),
        None,
    )
    if echoed is None:
        if not assistants:
            return (
                "请求里没有带 tool_calls 的 assistant 消息",
                "工具结果前面必须有发起这些调用的 assistant 消息：" + _ECHO + "然后 " + _ANSWER_ALL,
            )
        have = [
            [c.get("id") if isinstance(c, dict) else c for c in m["tool_calls"]] for m in assistants
        ]
        return (
            f"assistant 消息里的 tool_calls 的 id 是 {have[-1]}，应该是 {ids}",
            "回传的 assistant 消息要和模型的回复一模一样（全部调用、原来的 id）：" + _ECHO,
        )
    difference = value_difference(wanted.get("tool_calls"), echoed.get("tool_calls"))
    if difference:
        return (
            f"回传的 assistant 消息 tool_calls{difference}",
            "不要自己重新拼 assistant 消息（json.dumps 之后参数文本就变了）：" + _ECHO,
        )
    position = sent.index(echoed)
    following = sent[position + 1 : position + 1 + len(ids)]
    answered = [m.get("tool_call_id") for m in following if m.get("role") == "tool"]
    if answered != ids:
        missing = [i for i in ids if i not in answered]
        made_up = [i for i in answered if i not in ids]
        problem = (
            f"assistant 消息后面紧跟的 tool 消息的 tool_call_id 是 {answered}，应该是 {ids}"
            + (f"（缺少 {', '.join(missing)}）" if missing else "（顺序要和调用一致）")
        )
        if made_up:
            return (
                problem,
                f"tool_call_id 要用模型给的 call.id，不要自己编（{', '.join(made_up)} 不是模型发出"
                f"的 id）。",
            )
        if missing and answered:
            return (
                problem,
                f"一次回复里有 {len(ids)} 个调用，只回了 {len(answered)} 个：" + _ANSWER_ALL,
            )
        return problem, _ANSWER_ALL
    return None


class _BreaksAt:
    """A scripted model whose ``at``-th call fails the way a network does (``ConnectionError`` with
    a Chinese message), not by running out of script."""

    def __init__(self, replies: list[Any], at: int):
        from ....scripted import ScriptedClient

        self.script, self.at, self.calls = ScriptedClient(replies), at, 0

    def complete(self, messages: Any, tools: Any = None, **options: Any) -> Any:
        self.calls += 1
        if self.calls >= self.at:
            raise ConnectionError(
                f"第 {self.calls} 次调用模型时连接断开了（检查故意让这次调用失败，看循环怎么收场）"
            )
        return self.script.complete(messages, tools, **options)


class _RaisingRegistry:
    """The course registry, except that dispatching ``name`` raises (a registry written by someone
    else that lets a tool's exception through)."""

    TEXT = "天气服务连接超时（已重试 3 次，上游 weather.example 没有响应）"

    def __init__(self, name: str):
        self.inner, self.name = _registry(), name

    def schemas(self) -> Any:
        return self.inner.schemas()

    def dispatch(self, name: str, arguments: Any = None) -> Any:
        if name == self.name:
            raise TimeoutError(self.TEXT)
        return self.inner.dispatch(name, arguments)

    def __getattr__(self, attribute_name: str) -> Any:
        return getattr(self.inner, attribute_name)


def _exception_reported(
    check: _Check, case: str, request: list[dict[str, Any]], call_id: str, text: str
) -> None:
    """The tool message for ``call_id`` in ``request`` reports the failure with the exception's own
    words (``text``), as a failed result."""
    message = next(
        (
            m
            for m in request
            if isinstance(m, dict) and m.get("role") == "tool" and m.get("tool_call_id") == call_id
        ),
        None,
    )
    content = message.get("content") if message else None
    try:
        decoded = json.loads(content) if isinstance(content, str) else None
    except ValueError:
        decoded = None
    failed = isinstance(decoded, dict) and decoded.get("success") is False
    if message is None or not isinstance(content, str) or text not in content or not failed:
        if message is None:
            hint = (
                f"没有 tool_call_id 为 {call_id} 的 tool 消息：dispatch 抛了异常，"
                "这个调用也要回一条。"
            )
        elif not isinstance(content, str) or text not in content:
            hint = (
                "回填的内容里没有异常的说明：except Exception as exc 之后把 str(exc) 写进错误"
                '（例如 f"工具 {call.name} 出错：{type(exc).__name__}: {exc}"），'
                "只写“出错了”，模型就不知道错在哪、该不该重试。"
            )
        else:
            hint = (
                "回填的要是一个失败的结果（success 为 false）："
                "用 ToolResult.fail(说明).to_content()，不要当成成功的数据。"
            )
        raise check.fail(
            case,
            expected=(f"tool 消息（{call_id}）是失败的结果，error 里有异常的说明：{text}"),
            got=_short(content, 200) if message is not None else "没有这条 tool 消息",
            hint=hint,
        )


@exercise
def day3_loop_exits(check: _Check, run_loop: Callable[..., Any]) -> None:
    """Exercise 3.2: ``run_loop(client, registry, user_message, max_steps=5) -> (stop_reason,
    messages)``.
    """
    __tracebackhide__ = True
    from ....scripted import ScriptedClient, call, calls, reply

    _callable(check.exercise, run_loop)

    def outcome(
        case: str,
        replies: Any,
        message: str,
        max_steps: int | None,
        hint: str = "",
        registry: Any = None,
    ) -> tuple[str, list[dict[str, Any]], _Recorder]:
        client = replies if isinstance(replies, _Recorder) else _Recorder(ScriptedClient(replies))
        options = {} if max_steps is None else {"max_steps": max_steps}
        got = check.call(
            case,
            run_loop,
            client,
            registry or _registry(),
            message,
            given=message,
            hint=hint
            or (
                "循环：调用模型 → 有 tool_calls 就回传、执行、回填结果 → 没有就结束；模型调用放进 "
                "try/except。"
            ),
            **options,
        )
        shape = _loop_shape(got)
        if shape:
            raise check.fail(
                case,
                expected='(stop_reason, messages)，例如 ("final", [...])',
                got=shape,
                hint="return stop_reason, messages",
            )
        schemas = _registry().schemas()
        for number, tools in enumerate(client.tools):
            if tools != schemas:
                raise check.fail(
                    case,
                    expected="每次调用模型都带上 tools=registry.schemas()",
                    got=f"第 {number + 1} 次调用的 tools 是 {_short(tools, 120)}",
                    hint=(
                        "client.complete(messages, tools=registry.schemas())：不带 tools，"
                        "模型就不知道有哪些工具可用。"
                    ),
                )
        return got[0], got[1], client

    def expect(
        case: str,
        reason: str,
        messages: list[dict[str, Any]],
        client: _Recorder,
        wanted: str,
        requests: int,
        hint: str,
    ) -> None:
        if len(client.requests) > requests + 2:
            hint = (
                f"循环调用了模型 {len(client.requests)} 次，比应有的 {requests} 次多得多：每个循环"
                f"都要有上限，"
                "用 for _ in range(max_steps)，不要 while True。"
            )
        if reason != wanted or len(client.requests) != requests:
            raise check.fail(
                case,
                expected=f'stop_reason="{wanted}"，调用模型 {requests} 次',
                got=f"stop_reason={reason!r}，调用了 {len(client.requests)} 次",
                hint=hint,
            )

    def echo_ok(case: str, client: _Recorder, number: int, answered: Any) -> None:
        found = _echo_problem(client.requests[number], answered)
        if found:
            raise check.fail(
                case,
                expected=(
                    "下一次请求里：模型回复原样追加，每个调用一条 tool 消息（tool_call_id 对应、顺"
                    "序一致）"
                ),
                got=found[0],
                hint=found[1],
            )

    def tool_content(
        case: str, client: _Recorder, number: int, call_id: str, wanted: dict[str, Any]
    ) -> None:
        message = next(
            (
                m
                for m in client.requests[number]
                if isinstance(m, dict)
                and m.get("role") == "tool"
                and m.get("tool_call_id") == call_id
            ),
            {},
        )
        content = message.get("content")
        try:
            decoded = json.loads(content) if isinstance(content, str) else content
        except ValueError:
            decoded = content
        difference = value_difference(wanted, decoded)
        if difference:
            failed = wanted.get("success") is False
            if not message:
                hint = f"没有找到 tool_call_id 为 {call_id} 的 tool 消息：每个调用都要回一条。"
            elif failed and decoded is None:
                hint = (
                    "失败时 result.data 是 null：只发 data，模型就不知道出了什么错。content 要用"
                    " result.to_content()（带 success 和 error）。"
                )
            elif failed:
                hint = (
                    "工具失败时也要把完整的结果回填：content=result.to_content()，里面 success 为"
                    " false、error 写着原因，"
                    "模型读到才能改正或如实告诉用户；不要换成你自己的一句话。"
                )
            elif not isinstance(decoded, dict):
                hint = (
                    'content 要用 result.to_content()：它是 {"success", "data", "error"} 的 JSON'
                    " 文本，不只是 data。"
                )
            else:
                hint = "content 用 result.to_content()，不要改动它。"
            raise check.fail(
                case,
                expected=(
                    "tool 消息的 content 是"
                    f" result.to_content()：{json.dumps(wanted, ensure_ascii=False)}"
                ),
                got=f"{_short(content, 200)}；{difference}",
                hint=hint,
            )

    def final_kept(case: str, messages: list[dict[str, Any]], text: str) -> None:
        last = messages[-1] if messages else {}
        if last.get("role") != "assistant" or last.get("content") != text:
            raise check.fail(
                case,
                expected=(
                    f'messages 的最后一条是最终回答：{{"role": "assistant", "content": {text!r}}}'
                ),
                got=_short(last, 200),
                hint=(
                    "返回的 messages"
                    " 是完整的对话：结束前把最终回答也追加进去"
                    "（messages.append(reply.to_message())）。"
                ),
            )

    registry = _registry()
    case = "调用一次工具后给出答案 → final（参数文本里有不寻常的空格）"
    first = calls(call("calculator", '{ "expression":"17 * 9" }', id="call_calc_1"))
    reason, messages, client = outcome(
        case, [first, reply("17 × 9 = 153。")], "17 乘以 9 等于多少？", 5
    )
    expect(
        case,
        reason,
        messages,
        client,
        "final",
        2,
        '模型回复里没有 tool_calls 时就是最终答案：返回 "final"。',
    )
    echo_ok(case, client, 1, first)
    tool_content(
        case,
        client,
        1,
        "call_calc_1",
        registry.dispatch("calculator", '{"expression": "17 * 9"}').to_dict(),
    )
    final_kept(case, messages, "17 × 9 = 153。")
    check.ok(case, "工具结果带着 tool_call_id 回填了")

    parallel = calls(
        call("calculator", {"expression": "2 ** 10"}, id="call_p1"),
        call("get_current_time", {}, id="call_p2"),
        call("get_weather", {"city": "北京"}, id="call_p3"),
    )
    count = len(parallel.tool_calls)
    case = f"一次回复里有 {count} 个并行的工具调用 → 每个都执行，按调用的顺序回填"
    reason, messages, client = outcome(
        case,
        [parallel, reply("2 的 10 次方是 1024，现在是下午两点半。")],
        "算一下 2 的 10 次方，现在几点，北京天气如何",
        5,
    )
    expect(
        case,
        reason,
        messages,
        client,
        "final",
        2,
        f"{count} 个调用都执行完、回填结果后再问模型一次，它给出答案就是 final。",
    )
    echo_ok(case, client, 1, parallel)
    for tool_call in parallel.tool_calls:
        tool_content(
            case,
            client,
            1,
            tool_call.id,
            registry.dispatch(tool_call.name, tool_call.arguments).to_dict(),
        )
    check.ok(case, f"{count} 个调用，{count} 条 tool 消息")

    case = "工具出错（除以零）：success 为 false 的结果也要回填给模型"
    broken = calls(call("calculator", {"expression": "1 / 0"}, id="call_zero"))
    reason, messages, client = outcome(
        case, [broken, reply("不能除以零。")], "1 除以 0 是多少？", 5
    )
    expect(
        case,
        reason,
        messages,
        client,
        "final",
        2,
        "工具失败不是循环的出口：把失败的结果回填，模型会据此回答。",
    )
    tool_content(
        case,
        client,
        1,
        "call_zero",
        registry.dispatch("calculator", '{"expression": "1 / 0"}').to_dict(),
    )
    check.ok(case, "错误说明回填了")

    case = "模型叫了一个不存在的工具：dispatch 的错误照样回填"
    unknown = calls(call("search_web", {"query": "天气"}, id="call_unknown"))
    reason, messages, client = outcome(
        case, [unknown, reply("抱歉，我没有搜索工具。")], "上网搜一下天气", 5
    )
    expect(
        case,
        reason,
        messages,
        client,
        "final",
        2,
        "不存在的工具也交给 registry.dispatch：它返回一个失败的结果，照样回填。",
    )
    tool_content(
        case,
        client,
        1,
        "call_unknown",
        registry.dispatch("search_web", '{"query": "天气"}').to_dict(),
    )
    check.ok(case)

    case = "回复里既有文字又有工具调用 → 先执行工具，不算最终答案"
    talking = calls(
        call("calculator", {"expression": "3 * 3"}, id="call_talk"), content="我先算一下。"
    )
    reason, messages, client = outcome(case, [talking, reply("3 × 3 = 9。")], "3 乘 3？", 5)
    expect(
        case,
        reason,
        messages,
        client,
        "final",
        2,
        "判断结束的条件是“没有 tool_calls”，不是“有 content”：带文字的回复也可能在调用工具。",
    )
    echo_ok(case, client, 1, talking)
    check.ok(case)

    case = "闲聊直接回答 → final"
    reason, messages, client = outcome(
        case, [reply("你好！我是一个可以调用工具的助手。")], "你好，你是谁？", 5
    )
    expect(
        case, reason, messages, client, "final", 1, '没有 tool_calls 且有文字就结束：返回 "final"。'
    )
    final_kept(case, messages, "你好！我是一个可以调用工具的助手。")
    check.ok(case)

    forever = [
        calls(call("calculator", {"expression": f"{i} + 1"}, id=f"call_{i}")) for i in range(12)
    ]
    for case, steps, count in (
        ("max_steps=3：模型一直要调用工具 → max_steps", 3, 3),
        ("max_steps=1：第一步就要调用工具 → max_steps", 1, 1),
        ("不传 max_steps（默认 5）→ 正好调用模型 5 次", None, 5),
    ):
        reason, messages, client = outcome(case, list(forever), "一直算下去", steps)
        expect(
            case,
            reason,
            messages,
            client,
            "max_steps",
            count,
            f"max_steps={steps or 5} 表示最多调用模型 {count} 次：for _ in range(max_steps)，不要写"
            f"死次数；"
            '循环正常结束（没有 return）就说明步数用完了，返回 "max_steps"。',
        )
        if not any(
            m.get("role") == "tool" and m.get("tool_call_id") == f"call_{count - 1}"
            for m in messages
        ):
            raise check.fail(
                case,
                expected=f"messages 里有最后一步（call_{count - 1}）的 tool 消息",
                got=_short(messages[-3:], 300),
                hint="步数用完之前，最后一步的工具也执行、结果也回填了：返回的 messages 里要有它。",
            )
        check.ok(case)

    case = "max_steps=2：第二步给出答案 → final（不是 max_steps）"
    reason, messages, client = outcome(case, [forever[0], reply("1 + 1 = 2。")], "0 + 1 再加 1", 2)
    expect(
        case,
        reason,
        messages,
        client,
        "final",
        2,
        "在最后一步拿到答案也是 final：先看回复有没有 tool_calls，再决定是否继续。",
    )
    check.ok(case)

    case = "第一次调用模型就抛出异常 → error（不能让异常冒出来）"
    reason, messages, client = outcome(
        case,
        _Recorder(_BreaksAt([], 1)),
        "你好",
        5,
        '把 client.complete(...) 放进 try/except Exception，出错就 return "error", messages。',
    )
    expect(case, reason, messages, client, "error", 1, '模型调用失败时返回 "error"。')
    check.ok(case)

    case = "执行过一步工具后，调用模型抛出异常 → error，已完成的那一步留在 messages 里"
    reason, messages, client = outcome(
        case,
        _Recorder(_BreaksAt([forever[0]], 2)),
        "算一下",
        5,
        '把 client.complete(...) 放进 try/except Exception，出错就 return "error", messages。',
    )
    expect(
        case,
        reason,
        messages,
        client,
        "error",
        2,
        '第二次调用模型失败：返回 "error"，不要重新开始，也不要再试。',
    )
    if not any(m.get("role") == "tool" and m.get("tool_call_id") == "call_0" for m in messages):
        raise check.fail(
            case,
            expected="messages 里保留第一步的 assistant 和 tool 消息",
            got=_short(messages, 300),
            hint="出错时返回的 messages 是到出错为止的完整对话：不要返回新的空列表。",
        )
    check.ok(case)

    for case, empty in (
        ("空回复（content 是空字符串）→ error", reply("")),
        ("content 是 None、也没有工具调用 → error", reply(None)),  # type: ignore[arg-type]
        ("content 只有空白 → error", reply("  \n ")),
        ("content 只有全角空格和换行（中文输入法打出的空白）→ error", reply("\u3000\u3000\n")),
    ):
        reason, messages, client = outcome(case, [empty], "你好", 5)
        expect(
            case,
            reason,
            messages,
            client,
            "error",
            1,
            '没有 tool_calls、content 也是空的（或只有空白）不是答案：返回 "error"，'
            '别把它当成最终回答（用 not (content or "").strip() 判断）。',
        )
        check.ok(case)

    for case, model, message, wanted, steps, limit in (
        (
            "模拟器 course-sim：先计算再回答 → final",
            "course-sim",
            "帮我算一下 (12 + 34) * 2",
            "final",
            5,
            None,
        ),
        (
            "模拟器 course-sim:repeat_forever：永远在调用工具 → max_steps",
            "course-sim:repeat_forever",
            "现在几点了？",
            "max_steps",
            4,
            4,
        ),
        (
            "模拟器 course-sim:server_error：HTTP 500 → error",
            "course-sim:server_error",
            "你好",
            "error",
            4,
            1,
        ),
    ):
        client = _Recorder(offline_client(model))
        reason, messages, client = outcome(case, client, message, steps)
        if (
            reason != wanted
            or len(client.requests) > steps
            or (limit is not None and len(client.requests) != limit)
        ):
            raise check.fail(
                case,
                expected=f"{wanted}，最多调用模型 {steps} 次",
                got=f"{reason}，调用了 {len(client.requests)} 次",
                hint=(
                    "出口：没有工具调用且有内容 → final；步数用完 →"
                    " max_steps；模型调用抛异常或空回复 → error；finish_reason 是 length /"
                    " content_filter → 同名的出口。"
                ),
            )
        if wanted == "final" and not any(
            m.get("role") == "tool" and "92" in str(m.get("content")) for m in messages
        ):
            raise check.fail(
                case,
                expected="messages 里有计算器的结果 92（一条 role=tool 的消息）",
                got=_short(messages, 300),
                hint="返回的 messages 应该是完整的对话：模型的每条回复和每个工具结果都在里面。",
            )
        check.ok(case, f"{len(client.requests)} 次模型调用")

    def again(steps: int, tools: int, question: str) -> Callable[[], Any]:
        def run() -> Any:
            script = [*forever[:tools], reply(f"算完了：{question}")]
            client = _Recorder(ScriptedClient(script))
            got = run_loop(client, _registry(), question, max_steps=steps)
            shape = None if _loop_shape(got) else got[0]
            return [shape, len(client.requests), _user_texts(client.requests)]

        return run

    runs = [
        (
            f"又一次：max_steps={steps}，{tools} 步工具后回答（{question}）",
            again(steps, tools, question),
            ["final" if tools < steps else "max_steps", min(tools + 1, steps), [question]],
        )
        for steps, tools, question in (
            (4, 3, "订单 Ａ１ 的金额"),
            (4, 3, "北京的天气"),
            (2, 1, "查询汇率"),
            (4, 3, "会议室 301"),
            (2, 2, "张三的订单"),
            (4, 3, "数据库里有几条"),
        )
    ]
    check.independent(
        "同一个循环再跑几次（新的模型、新的问题）",
        runs,
        hint=(
            "期望和实际写的是 [stop_reason, 调用模型的次数, 发给模型的用户消息]。每次运行都从这一次"
            "的 user_message 新建 messages、步数从 0 数起：不要用全局变量或默认参数里的列表保存"
            "对话或计数。"
        ),
    )
    case = "registry.dispatch 自己抛出异常 → 变成失败的 tool 消息回填，带着异常的说明，循环继续"
    failing = calls(
        call("get_weather", {"city": "上海"}, id="call_raises"),
        call("calculator", {"expression": "6 * 7"}, id="call_after"),
    )
    reason, messages, client = outcome(
        case,
        [failing, reply("天气服务暂时不可用；6 × 7 = 42。")],
        "上海天气怎么样？顺便算 6 乘 7",
        5,
        "registry.dispatch(...) 放进 try/except Exception：异常变成"
        ' ToolResult.fail(f"工具 {call.name} 出错：{type(exc).__name__}: {exc}")，照样回填。',
        registry=_RaisingRegistry("get_weather"),
    )
    expect(
        case,
        reason,
        messages,
        client,
        "final",
        2,
        "dispatch 抛出的异常不是循环的出口，更不能冒出去：把它变成失败的结果回填，再问模型一次。",
    )
    _exception_reported(check, case, client.requests[1], "call_raises", _RaisingRegistry.TEXT)
    tool_content(
        case,
        client,
        1,
        "call_after",
        registry.dispatch("calculator", '{"expression": "6 * 7"}').to_dict(),
    )
    check.ok(case, "异常的说明回填给了模型，后面的调用照常执行")

    for case, unfinished, wanted in (
        (
            "回复写到一半被截断（finish_reason='length'）→ length，半句话不是答案",
            ChatResult(content="17 × 9 = 1", finish_reason="length"),
            "length",
        ),
        (
            "工具调用的参数写到一半被截断（finish_reason='length'）→ length，一个工具也不执行",
            ChatResult(
                content=None,
                tool_calls=[
                    ToolCall(id="call_cut", name="calculator", arguments='{"expression": "17 *')
                ],
                finish_reason="length",
            ),
            "length",
        ),
        (
            "回复被内容过滤拦下（finish_reason='content_filter'）→ content_filter",
            ChatResult(content="关于这个问题，", finish_reason="content_filter"),
            "content_filter",
        ),
    ):
        reason, messages, client = outcome(
            case, [unfinished, reply("17 × 9 = 153。")], "17 乘以 9 等于多少？", 5
        )
        expect(
            case,
            reason,
            messages,
            client,
            wanted,
            1,
            '先看 reply.finish_reason：是 "length"（写到上限被截断）或 "content_filter"（被服务商'
            "拦下）时，回复没有写完，文字不是答案，工具调用的参数也不完整："
            "返回这个值作为 stop_reason，不要当成 final，也不要执行里面的调用"
            "（和课程包 Agent 的做法一样）。",
        )
        if any(m.get("role") == "tool" for m in messages if isinstance(m, dict)):
            raise check.fail(
                case,
                expected="没有 tool 消息：截断的工具调用一个都不执行",
                got=_short(messages, 300),
                hint="finish_reason 是 length 时，先返回，再也不要 dispatch 这次回复里的调用。",
            )
        check.ok(case)

    check.done()


def _user_texts(requests: list[list[dict[str, Any]]]) -> list[str]:
    """The user messages of the learner's first request to the model (another run's must not be
    there)."""
    first = requests[0] if requests else []
    return [str(m.get("content")) for m in first if isinstance(m, dict) and m.get("role") == "user"]


# ---------------------------------------------------------------------------------------------
# 3.3 unknown_tool_message
# ---------------------------------------------------------------------------------------------


def _offered_specs(reading: Any, registry: Any) -> list[dict[str, Any]] | None:
    """The tools a model knows of after reading the message: the ones it names (with their schemas),
    or none.
    """
    specs = [
        schema for schema in registry.schemas() if schema["function"]["name"] in reading.offered
    ]
    return specs or None


def _same_name_other_tools(check: _Check, unknown_tool_message: Callable[..., Any]) -> None:
    """The same unknown name with other tool lists, one after another (silent when right): each
    message lists the tools of *its* call — an answer that caches by the name alone repeats the
    first list."""
    lists = [
        ["get_weather", "calculator"],
        ["send_email", "search_orders", "book_meeting_room"],
        ["get_exchange_rate"],
        ["get_weather", "calculator"],
    ]
    called = ["web_lookup"] * 4
    exact = ("Web_Lookup", ["Send_Email", "查询_weather", full_width("calc")])
    every = {name for names in [*lists, exact[1]] for name in names}

    def lists_exactly(want: tuple[str, list[str]], got: Any) -> bool:
        name, names = want
        return (
            isinstance(got, str)
            and mentions(got, name)
            and all(mentions(got, valid) for valid in names)
            and not any(mentions(got, other) for other in every - set(names))
        )

    check.independent(
        "同一个叫错的名字、换一组可用工具",
        [
            (
                f"叫错的名字 {name!r}，可用工具 {names}",
                (lambda name=name, names=names: unknown_tool_message(name, list(names))),
                (name, names),
                (name, names),
            )
            for name, names in zip(called, lists)
        ],
        same=lists_exactly,
        hint=(
            "可用的工具每次都从这一次的参数 valid_names 生成：不要按 name "
            "把上一次的消息存起来再用。"
        ),
    )
    spaced = ("get_weather ", ["get_weather", "calculator"])  # the model typed a trailing space
    check.independent(  # capitals, Chinese and full-width letters: every name as given
        "名字原样写",
        [
            (
                f"叫错的名字 {name!r}，可用工具 {names}",
                (lambda name=name, names=names: unknown_tool_message(name, list(names))),
                (name, names),
                (name, names),
            )
            for name, names in (exact, spaced)
        ],
        same=lists_exactly,
        hint=(
            "名字（叫错的那个和可用的）都原样写进消息：不改大小写、不转半角、不去掉空格"
            "（模型叫的是 'get_weather '，说 get_weather 不存在就错了），中文名不要写成 \\uXXXX"
            "（json.dumps 要加 ensure_ascii=False）；模型会照着你写的名字去调用。"
        ),
    )


@exercise
def day3_unknown_tool_message(
    check: _Check, unknown_tool_message: Callable[[str, list[str]], str]
) -> None:
    """Exercise 3.3: ``unknown_tool_message(name, valid_names) -> str`` that lists the valid names.

    The message is judged by what a model does with it, not by its wording:
    ``reading.read_tool_message`` says whether it denies the called name, which names it offers and
    whether it tells the model there is nothing to call; the simulator then continues the
    conversation knowing exactly the tools the message offers.
    """
    __tracebackhide__ = True
    from ....scenarios import basic_registry
    from .reading import read_tool_message

    _callable(check.exercise, unknown_tool_message)
    many = [
        "get_weather",
        "get_weather_forecast",
        "calculator",
        "get_current_time",
        "get_exchange_rate",
        "send_email",
        "search_orders",
        "book_meeting_room",
    ]
    cases = [
        ("拼错的工具名", "get_wether", ["get_weather", "calculator", "get_current_time"]),
        ("模型编出来的工具", "search_web", ["calculator", "get_exchange_rate"]),
        ("只有一个工具，叫错的名字是它的一部分", "calc", ["calculator"]),
        (
            "一个工具名是另一个的前缀",
            "weather",
            ["get_weather", "get_weather_forecast", "get_air_quality"],
        ),
        ("很多工具（8 个）", "send_mail", many),
        ("名字里有点号和括号", "tools.search(web)", ["web_search", "calculator"]),
    ]
    every_name = sorted(
        {name for _, _, valid in cases for name in valid} | set(basic_registry().names())
    )
    for case, name, valid in cases:
        given = list(valid)
        got = check.call(case, unknown_tool_message, name, given, given=(name, valid))
        check.unchanged(
            case,
            valid,
            given,
            "传入的 valid_names ",
            "不要修改传入的列表（sort、remove、pop 都会改掉调用方的数据）：需要排序就用"
            " sorted(valid_names)。",
        )
        if not isinstance(got, str) or len(_CHINESE.findall(got)) < 4:
            raise check.fail(
                case,
                given=(name, valid),
                expected="一段中文说明（str）",
                got=typed(got),
                hint="返回给模型看的一段中文。",
            )
        if not mentions(got, name):
            raise check.fail(
                case,
                given=(name, valid),
                expected=f"说明里写出模型叫的名字 {name}（完整的、单独的一个词）",
                got=got,
                hint="说清楚哪个名字不存在：把 name 原样写进去"
                + (
                    "（它是某个可用工具名的一部分，单独写出来才看得出来）。"
                    if any(name in v for v in valid)
                    else "。"
                ),
            )
        reading = read_tool_message(got, name, every_name)
        missing = [word for word in valid if word not in reading.offered]
        if missing:
            glued = [word for word in missing if word in got]
            raise check.fail(
                case,
                given=(name, valid),
                expected="列出全部可用的工具名，每个名字单独出现",
                got=(
                    f"{got}\n "
                    f" （模型从中读到的可用工具：{', '.join(reading.offered) or '一个也没有'}；缺少"
                    f" {', '.join(missing)}）"
                ),
                hint=(
                    f"缺少 {'、'.join(missing)}："
                    if not glued
                    else f'{"、".join(glued)} 和别的字连在一起了（例如用 "".join）：'
                )
                + (
                    '用 ", ".join(valid_names) 这样带分隔符的写法，把每个可用工具名都列出来，模型才'
                    "能改用正确的名字。"
                ),
            )
        invented = [word for word in reading.offered if word not in valid]
        if invented:
            raise check.fail(
                case,
                given=(name, valid),
                expected=f"只列出 valid_names 里的工具：{', '.join(valid)}",
                got=f"{got}\n  （还列出了不存在的 {', '.join(invented)}）",
                hint=(
                    "可用的工具要从参数 valid_names 生成，不要写死："
                    "模型会去调用你列出的每一个名字。"
                ),
            )
        if not reading.denies_called:
            raise check.fail(
                case,
                given=(name, valid),
                expected=f"说明 {name} 这个工具不存在（在提到 {name} 的那句话里否定它）",
                got=got,
                hint=(
                    f"明确告诉模型它叫的 {name} 不存在（怎么说都行：不存在、没有这个工具、找不到、"
                    "未知…），再列出可用的工具。"
                ),
            )
        check.ok(case, _brief(got, 60))

    for case, name in (
        ("一个工具也没有", "calculator"),
        ("一个工具也没有（另一个名字）", "get_weather"),
    ):
        given: list[str] = []
        got = check.call(
            case,
            unknown_tool_message,
            name,
            given,
            given=(name, []),
            hint="valid_names 为空时也要返回一段话。",
        )
        if not isinstance(got, str) or len(_CHINESE.findall(got)) < 4 or not mentions(got, name):
            raise check.fail(
                case,
                given=(name, []),
                expected=f"一段中文说明，提到 {name}，并说明没有可用的工具",
                got=typed(got),
                hint=(
                    "没有工具可用时要直说，例如“工具 xxx 不存在，当前没有任何可用的工具，请直接回答"
                    "用户”。"
                ),
            )
        reading = read_tool_message(got, name, every_name)
        if reading.empty_list:
            raise check.fail(
                case,
                given=(name, []),
                expected="明确说出当前没有任何可用的工具（而不是列出一个空列表）",
                got=got,
                hint=(
                    "valid_names 为空时单独处理（if not valid_names: …），"
                    "否则会写出“可用的工具有：。”这样的空列表，模型读了也不知道该怎么办。"
                ),
            )
        if reading.offered:
            raise check.fail(
                case,
                given=(name, []),
                expected="不列出任何工具（valid_names 是空的）",
                got=f"{got}\n  （列出了 {', '.join(reading.offered)}）",
                hint=(
                    "可用的工具要从参数 valid_names 生成，不要写死：列表是空的，就一个工具也没有。"
                ),
            )
        if not reading.denies_called or not reading.stops:
            raise check.fail(
                case,
                given=(name, []),
                expected=(
                    f"说明 {name} 不存在，并且告诉模型现在没有任何工具可以调用（或让它直接回答）"
                ),
                got=got + ("" if reading.denies_called else f"\n  （没有说 {name} 不存在）"),
                hint=(
                    "模型读完这段话，要知道两件事：它叫的工具不存在；现在一个工具也没有，"
                    "该直接回答用户了。"
                    "怎么措辞都可以（“当前没有任何可用的工具”“工具列表为空”“请直接回答”……），"
                    "只说“工具不存在”或“换一个工具”，模型会换个名字再试——可是一个工具也没有。"
                ),
            )
        client = offline_client()
        messages = [
            {"role": "user", "content": "帮我算一下 17 * 9"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": name, "arguments": "{}"},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": got},
        ]
        after = client.complete(messages, tools=None)
        if after.tool_calls or not (after.content or "").strip():
            raise check.fail(
                case,
                given=(name, []),
                expected="模型读到你的消息后不再调用工具，直接用文字回答",
                got=_short(after.content, 160),
                hint="消息里不要写出任何工具名（除了它叫错的那个）。",
            )
        check.ok(case, _brief(got, 60))

    _same_name_other_tools(check, unknown_tool_message)

    case = (
        "接在模拟器 course-sim:unknown_tool 上：模型只知道你的消息里列出的工具，"
        "读完后改用正确的工具"
    )
    client, registry = offline_client("course-sim:unknown_tool"), basic_registry()
    messages: list[dict[str, Any]] = [{"role": "user", "content": "帮我算一下 17 * 9"}]
    sent: list[str] = []
    answer = None
    known: list[dict[str, Any]] | None = registry.schemas()
    for _ in range(4):  # a small loop that answers unknown names with your message, bounded
        result = client.complete(messages, tools=known)
        if not result.tool_calls:
            answer = result.content
            break
        messages.append(result.to_message())
        for tool_call in result.tool_calls:
            if tool_call.name in registry:
                content = registry.dispatch(tool_call.name, tool_call.arguments).to_content()
            else:
                content = check.call(case, unknown_tool_message, tool_call.name, registry.names())
                if not isinstance(content, str):
                    raise check.fail(
                        case, expected="str", got=typed(content), hint="返回一段文字。"
                    )
                sent.append(f"{tool_call.name} → {content}")
                known = _offered_specs(
                    read_tool_message(content, tool_call.name, registry.names()), registry
                )
            messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": content})
    if not sent or "153" not in (answer or ""):
        raise check.fail(
            case,
            expected="模型先叫错名字，读到你的消息后改用 calculator，最后回答 153",
            got=f"发回的消息：{sent}；最终回答：{answer}",
            hint="消息里要有全部可用的工具名，模型才能改对。",
        )
    check.ok(case, _brief(sent[0], 60))
    check.done()


# ---------------------------------------------------------------------------------------------
# 3.4 RepeatGuard
# ---------------------------------------------------------------------------------------------


def _fresh_guards(check: _Check, guard_class: Callable[[], Any]) -> None:
    """Sequences of calls with Chinese names and values, each on a new guard (silent when right):
    text that differs only in case or width is another argument, and nothing carries over from the
    guard before."""
    weather = "查询天气"
    chinese = [
        (weather, '{"城市": "北京"}'),
        (weather, '{"城市":"北京"}'),
        (weather, '{"城市": "Beijing"}'),
        (weather, '{"城市": "beijing"}'),
        (weather, json.dumps({"城市": full_width("Beijing")})),
        (weather, '{"城市": "\\u5317\\u4eac"}'),
        ("查询天气预报", '{"城市": "北京"}'),
        (weather, '{"城市": "北京", "日期": "明天"}'),
        (weather, '{"城市": "Beijing"}'),
    ]
    chinese_wanted = [
        "新调用",
        "重复",
        "新调用",
        "新调用",
        "新调用",
        "重复",
        "新调用",
        "新调用",
        "重复",
    ]
    other = [
        ("汇率", '{"从": "USD", "到": "CNY"}'),
        ("汇率", '{"从": "usd", "到": "cny"}'),
        ("汇率", '{"到": "CNY", "从": "USD"}'),
        (weather, '{"城市": "北京"}'),
    ]

    def run(calls: list[tuple[str, str]]) -> Callable[[], list[str]]:
        def sequence() -> list[str]:
            guard = guard_class()
            return [
                "新调用" if note is None else "重复" if isinstance(note, str) else typed(note, 40)
                for note in (guard.check(name, arguments) for name, arguments in calls)
            ]

        return sequence

    check.independent(
        "新的 RepeatGuard，中文的工具名和参数",
        [
            ("一个新的 RepeatGuard 依次检查 9 个中文调用", run(chinese), chinese_wanted),
            ("再一个新的 RepeatGuard，同样 9 个调用", run(chinese), chinese_wanted),
            (
                "又一个新的 RepeatGuard，另外 4 个调用",
                run(other),
                ["新调用", "新调用", "重复", "新调用"],
            ),
        ],
        hint=(
            "大小写不同、全角半角不同的值是不同的参数：规范化只做 json.loads 再"
            " json.dumps(sort_keys=True)，"
            "不要 lower()、不要转换全角；每个新的 RepeatGuard 从空的记录开始。"
        ),
    )
    near = [
        ("Search", '{"q": "北京"}'),
        ("search", '{"q": "北京"}'),
        ("plan_route", '{"stops": ["北京", "上海"]}'),
        ("plan_route", '{"stops": ["上海", "北京"]}'),
        ("查询天气", "{}"),
        ("查询", "天气{}"),
    ]
    check.independent(
        "只差一点的调用：工具名的大小写、列表的顺序、名字和参数接起来一样",
        [("一个新的 RepeatGuard 依次检查 6 个调用", run(near), ["新调用"] * len(near))],
        hint=(
            "工具名原样比较（Search 和 search 是两个工具）；列表里的顺序是参数的一部分"
            "（sort_keys 只排 dict 的键，不要给列表排序）；"
            "记录的键用 (工具名, 规范写法) 这样的元组，"
            "不要把两段字符串直接拼起来——“查询”+“天气{}”和“查询天气”+“{}”拼出来一样。"
        ),
    )


@exercise
def day3_repeat_guard(check: _Check, guard_class: Callable[[], Any]) -> None:
    """Exercise 3.4: ``RepeatGuard().check(name, arguments) -> str | None`` — a note for a repeated
    call, else None.
    """
    __tracebackhide__ = True
    _callable(check.exercise, guard_class, "类")
    guard = check.call(
        "创建 RepeatGuard()",
        guard_class,
        hint="__init__ 里准备好记录已经见过的调用（例如 self.seen = set()）。",
    )
    if not callable(attribute(guard, "check")):
        raise check.fail(
            "创建 RepeatGuard()",
            expected="一个有 check(name, arguments) 方法的对象",
            got=typed(guard),
            hint="传入的是类本身（check.day3_repeat_guard(RepeatGuard)），它要有 check 方法。",
        )

    def ask(case: str, target: Any, name: str, arguments: str, repeated: bool, hint: str) -> None:
        got = check.call(
            case,
            target.check,
            name,
            arguments,
            given=(name, arguments),
            hint=hint or "check 不应该抛出异常。",
        )
        if repeated:
            if not isinstance(got, str) or not mentions(got, name) or not _CHINESE.search(got):
                raise check.fail(
                    case,
                    given=(name, arguments),
                    expected=f"一段中文提示（str），说明 {name} 已经用相同参数调用过",
                    got=typed(got),
                    hint=(
                        hint
                        if got is None
                        else "重复的调用返回一段中文提示，里面写出工具名，告诉模型它已经有结果了。"
                    ),
                )
        elif got is not None:
            raise check.fail(
                case,
                given=(name, arguments),
                expected="None（这是一次新的调用，应该执行）",
                got=typed(got),
                hint=hint or '新的调用返回 None（不是 False、"" 或提示）。',
            )
        check.ok(case, "重复，不再执行" if repeated else "新调用，执行")

    steps = [
        (
            "第一次调用",
            "get_weather",
            '{"city": "北京"}',
            False,
            "第一次见到的调用返回 None，并把它记下来。",
        ),
        (
            "完全相同的第二次调用",
            "get_weather",
            '{"city": "北京"}',
            True,
            "见过的调用要返回一段提示，告诉模型它已经有结果了。",
        ),
        (
            "另一个新调用（两个参数）",
            "calculator",
            '{"expression": "1 + 1", "precision": 2}',
            False,
            "",
        ),
        (
            "同一个调用，只是参数顺序和空格不同",
            "calculator",
            '{ "precision":2,"expression":"1 + 1" }',
            True,
            (
                "不要直接比较参数字符串：先 json.loads，再 json.dumps(..., sort_keys=True)，"
                "得到规范的写法再比较。"
            ),
        ),
        (
            "字符串里的空格不同就是不同的参数",
            "calculator",
            '{"expression": "1+1", "precision": 2}',
            False,
            (
                '只有 JSON 外面的空白不算数："1 + 1" 和 "1+1" 是不同的值。'
                "不要把参数里的空格全部删掉再比较，要 json.loads 后再规范化。"
            ),
        ),
        (
            "同一个工具、不同参数",
            "get_weather",
            '{"city": "上海"}',
            False,
            "只有工具名和参数都相同才算重复：用 (name, 规范化的参数) 作为键。",
        ),
        ("不同工具、相同参数", "get_city_info", '{"city": "北京"}', False, "键里要有工具名。"),
        (
            '值的类型不同：数字 2 和字符串 "2"',
            "calculator",
            '{"expression": "1 + 1", "precision": "2"}',
            False,
            '"2" 和 2 是不同的参数：不要把值都转成字符串再比较。',
        ),
        (
            "嵌套对象里的键顺序不同",
            "send_email",
            '{"to": "a@example.com", "meta": {"tag": "周报", "cc": false}}',
            False,
            "",
        ),
        (
            "嵌套对象里的键顺序不同（第二次）",
            "send_email",
            '{"meta": {"cc": false, "tag": "周报"}, "to": "a@example.com"}',
            True,
            "json.dumps(..., sort_keys=True) 会连嵌套的对象一起排序；只对最外层的键排序不够。",
        ),
        (
            "隔了几次又回到第一次的调用",
            "get_weather",
            '{"city": "北京"}',
            True,
            "要记住所有见过的调用，不只是上一次。",
        ),
        (
            "中文写成 \\u 转义",
            "get_weather",
            '{"city": "\\u5317\\u4eac"}',
            True,
            '"\\u5317\\u4eac" 就是“北京”：json.loads 之后再比较，才认得出是同一个调用。',
        ),
        (
            "参数不是合法 JSON（第一次）",
            "calculator",
            "{expression: 1+}",
            False,
            "json.loads 失败时不要抛异常：直接用原始字符串作为键。",
        ),
        (
            "参数不是合法 JSON（第二次）",
            "calculator",
            "{expression: 1+}",
            True,
            "json.loads 失败时用原始字符串作为键。",
        ),
        (
            "另一段不合法的参数（第一次）",
            "calculator",
            "{expression: 2+}",
            False,
            "不合法的参数按原文比较：原文不同就是不同的调用。",
        ),
    ]
    previous = None
    for case, name, arguments, repeated, hint in steps:
        key = (name, canonical_arguments(arguments))
        if repeated and previous not in (None, key) and "不只是上一次" not in hint:
            hint = (
                (hint + "（也要记住这次运行里见过的所有调用，不只是上一次。）")
                if hint
                else "要记住这次运行里见过的所有调用，不只是上一次。"
            )
        ask(case, guard, name, arguments, repeated, hint)
        previous = key

    case = "两个 RepeatGuard 互不影响（每次运行一个新的）"
    other = check.call(case, guard_class)
    if not callable(attribute(other, "check")):
        raise check.fail(
            case,
            expected="又一个有 check 方法的 RepeatGuard",
            got=typed(other),
            hint="每次调用 RepeatGuard() 都要得到一个新的对象。",
        )
    ask(
        case,
        other,
        "get_weather",
        '{"city": "北京"}',
        False,
        "每个 RepeatGuard 对象要有自己的记录：在 __init__ 里创建 self.seen = set()。"
        "不要写成类属性（seen = set() 写在类里会被所有对象共用），也不要用可变的默认参数（def"
        " __init__(self, seen=set()) 里的 set 也只有一个）。",
    )
    ask(
        "第二个 RepeatGuard 也记得自己见过的调用",
        other,
        "get_weather",
        '{"city": "北京"}',
        True,
        "",
    )
    ask(
        "第一个 RepeatGuard 不受第二个影响",
        guard,
        "get_current_time",
        "{}",
        False,
        "两个对象的记录要分开：第二个见过的调用，第一个并没有见过。",
    )

    _fresh_guards(check, guard_class)

    near = check.call("创建 RepeatGuard()", guard_class)
    seen_name, seen_arguments = "get_weather", '{"city": "北京"}'
    ask(
        "名字相近的调用（第一次）：get_weather",
        near,
        seen_name,
        seen_arguments,
        False,
        "新调用返回 None。",
    )
    for other_name in near_names(seen_name):
        ask(
            f"名字只和见过的相近、参数相同：{other_name}（不是重复）",
            near,
            other_name,
            seen_arguments,
            False,
            (
                f"{other_name!r} 和 'get_weather' 是两个不同的工具名：只有名字完全相同才算重复。"
                "不要把见过的调用拼成一长串文字再用 in 查找（那是子串匹配），也不要比较前缀、"
                "忽略大小写或全角半角；用 (name, 规范化的参数) 元组作为集合的键。"
            ),
        )

    case = "接在模拟器 course-sim:repeat_forever 上：工具只执行一次"
    client, registry = offline_client("course-sim:repeat_forever"), _registry()
    fresh = check.call(case, guard_class)
    if not callable(attribute(fresh, "check")):
        raise check.fail(
            case,
            expected="又一个有 check 方法的 RepeatGuard",
            got=typed(fresh),
            hint="每次调用 RepeatGuard() 都要得到一个新的对象。",
        )
    messages: list[dict[str, Any]] = [{"role": "user", "content": "现在几点了？"}]
    executed, notes = 0, 0
    for _ in range(4):  # a loop with a guard, bounded
        result = client.complete(messages, tools=registry.schemas())
        if not result.tool_calls:
            break
        messages.append(result.to_message())
        for tool_call in result.tool_calls:
            note = check.call(case, fresh.check, tool_call.name, tool_call.arguments)
            if note is None:
                executed += 1
                content = registry.dispatch(tool_call.name, tool_call.arguments).to_content()
            else:
                notes += 1
                content = note if isinstance(note, str) else str(note)
            messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": content})
    if executed != 1 or notes < 1:
        raise check.fail(
            case,
            expected="模型连续 4 次发出同一个调用：只执行 1 次，其余 3 次返回你的提示",
            got=f"执行了 {executed} 次，返回提示 {notes} 次",
            hint="同一个 RepeatGuard 要记住整个运行中见过的调用。",
        )
    check.ok(case, f"执行 {executed} 次，拦下 {notes} 次")
    check.done()


__all__ = [
    "day3_exchange_rate_tool",
    "day3_loop_exits",
    "day3_unknown_tool_message",
    "day3_repeat_guard",
]
