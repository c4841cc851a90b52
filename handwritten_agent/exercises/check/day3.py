"""Checkers for the Day 3 exercises (原生 tools 与 ReAct 循环)."""

from __future__ import annotations

import json
from typing import Any, Callable

from .framework import (_CALCULATOR_SCHEMA, _CHINESE, ExerciseFailed, TooManyModelCalls, _brief, _callable, _Check,  # noqa: F401
                        _closed_port, _Recorder, _same_call, _short, offline_base_url, offline_client)

def day3_exchange_rate_tool(build_exchange_tool: Callable[[], Any]) -> None:
    """Exercise 3.1: ``build_exchange_tool() -> Tool``; the Agent must choose it for "100 美元能换多少人民币"."""
    __tracebackhide__ = True
    from ...agent import Agent
    from ...scenarios import calculator
    from ...scenarios.exchange import CNY_PER_UNIT
    from ...tools import Tool, ToolRegistry

    check = _Check("day3_exchange_rate_tool")
    _callable(check.exercise, build_exchange_tool)
    case = "用 @tool 定义工具"
    made = check.call(case, build_exchange_tool, hint="@tool 在定义时就会检查：每个参数要有类型注解，文档字符串要有描述和 Args: 部分。")
    if not isinstance(made, Tool):
        raise check.fail(case, expected="一个 Tool（用 @tool 装饰的函数）", got=f"{type(made).__name__}: {_short(made)}",
                         hint="在 build_exchange_tool 里定义 @tool 装饰的函数，然后 return 它（不带括号）。")
    if made.name in ("get_exchange_rate", "calculator"):
        raise check.fail(case, expected="一个你自己命名的新工具", got=made.name,
                         hint="请自己写一个工具，并换一个名字（例如 query_exchange_rate），不要直接用课程包里现成的。")
    check.ok(case, f"{made.name}{tuple(made.parameters.get('properties', {}))}")

    case = "描述里有例子"
    properties = made.parameters.get("properties", {})
    text = made.description + " " + " ".join(str(p.get("description", "")) for p in properties.values())
    if "例如" not in text and "比如" not in text:
        raise check.fail(case, expected="工具或参数的描述里有“例如 …”", got=text,
                         hint="好的描述带例子：例如参数 from_currency 写“要换出的货币代码，例如：USD”。模型（和模拟器）照着例子填参数。")
    check.ok(case)

    registry = ToolRegistry([made, calculator])
    for request, code, amount in (("100 美元能换多少人民币", "USD", 100),
                                  ("查询汇率后计算 100 美元能换多少人民币", "USD", 100),
                                  ("先查欧元兑人民币的汇率，再算 50 欧元能换多少人民币", "EUR", 50)):
        case = f"Agent 回答“{request}”"
        rate = CNY_PER_UNIT[code] / CNY_PER_UNIT["CNY"]
        total = f"{amount * rate:g}"
        run = Agent(offline_client(), registry, max_steps=6).run(request)
        used = [record for record in run.tool_calls if record.call.name == made.name]
        if not used:
            asked = ", ".join(f"{r.call.name}({r.call.arguments})" for r in run.tool_calls) or "没有调用任何工具"
            raise check.fail(case, expected=f"调用你的工具 {made.name}", got=f"{asked}；回答：{run.answer}",
                             hint="模型（模拟器）是按工具名、描述和参数描述来选工具和填参数的：描述要写清楚“查询汇率”，"
                                  "参数描述要说明填什么并给例子（例如 USD、CNY）。")
        record = used[0]
        if not record.result.success:
            raise check.fail(case, expected="工具调用成功", got=f"{record.call.name}({record.call.arguments}) → {record.result.error}",
                             hint="看看模型填的参数和你的函数期望的是否一致：模型可能填货币代码（USD），也可能填中文名（美元），"
                                  "用 currency_code() 两种都能认。")
        data = json.dumps(record.result.data, ensure_ascii=False, default=str)
        if f"{rate:g}" not in data:
            raise check.fail(case, expected=f"工具结果里有汇率 {rate:g}（1 {code} = {rate:g} CNY）", got=f"{record.call.arguments} → {data}",
                             hint="返回 1 单位换出货币能换多少目标货币：CNY_PER_UNIT[换出] / CNY_PER_UNIT[换成]，别把方向弄反。")
        answer = run.answer or ""
        if run.stop_reason != "final" or total not in answer:
            raise check.fail(case, expected=f"最终回答里有换算结果 {total}", got=f"stop_reason={run.stop_reason}，回答：{answer}",
                             hint="工具返回汇率，模型再用计算器乘上金额：确认工具结果里有 rate，而且计算器也注册了。")
        check.ok(case, _brief(" ".join(answer.split()), 70))
    check.done()


def day3_loop_exits(run_loop: Callable[..., Any]) -> None:
    """Exercise 3.2: ``run_loop(client, registry, user_message, max_steps=5) -> (stop_reason, messages)``."""
    __tracebackhide__ = True
    from ...scenarios import basic_registry
    from ...scripted import ScriptedClient, call, calls, reply

    check = _Check("day3_loop_exits")
    _callable(check.exercise, run_loop)

    def outcome(case: str, client: Any, message: str, max_steps: int, hint: str) -> tuple[str, list[dict[str, Any]]]:
        got = check.call(case, run_loop, client, basic_registry(), message, max_steps=max_steps, hint=hint)
        if not (isinstance(got, tuple) and len(got) == 2 and isinstance(got[0], str) and isinstance(got[1], list)):
            raise check.fail(case, expected="(stop_reason, messages)，例如 (\"final\", [...])", got=_short(got),
                             hint="return stop_reason, messages")
        return got

    case = "调用一次工具后给出答案 → final"
    client = _Recorder(ScriptedClient([calls(call("calculator", {"expression": "17 * 9"}, id="call_calc_1")), reply("17 × 9 = 153。")]))
    reason, messages = outcome(case, client, "17 乘以 9 等于多少？", 5, "循环：调用模型 → 有 tool_calls 就执行并回传 → 没有就结束。")
    if reason != "final" or len(client.requests) != 2:
        raise check.fail(case, expected="stop_reason=final，调用模型 2 次", got=f"{reason}，调用了 {len(client.requests)} 次",
                         hint="模型回复里没有 tool_calls 时就是最终答案：返回 \"final\"。")
    second = client.requests[1]
    assistant = next((m for m in second if m.get("role") == "assistant"), None)
    tool_messages = [m for m in second if m.get("role") == "tool"]
    if not assistant or not assistant.get("tool_calls") or assistant["tool_calls"][0].get("id") != "call_calc_1":
        raise check.fail(case, expected="第二次请求里有带 tool_calls 的 assistant 消息（id 原样保留）", got=second,
                         hint="把模型的回复原样追加：messages.append(reply.to_message())。")
    if len(tool_messages) != 1 or tool_messages[0].get("tool_call_id") != "call_calc_1" or "153" not in str(tool_messages[0].get("content")):
        raise check.fail(case, expected="一条 role=tool 的消息，tool_call_id=\"call_calc_1\"，内容里有结果 153", got=tool_messages,
                         hint="每个工具调用都要回一条 {\"role\": \"tool\", \"tool_call_id\": call.id, \"content\": result.to_content()}。")
    check.ok(case, "工具结果带着 tool_call_id 回传了")

    case = "闲聊直接回答 → final"
    client = _Recorder(ScriptedClient([reply("你好！我是一个可以调用工具的助手。")]))
    reason, messages = outcome(case, client, "你好，你是谁？", 5, "")
    if reason != "final" or len(client.requests) != 1:
        raise check.fail(case, expected="final，调用模型 1 次", got=f"{reason}，调用了 {len(client.requests)} 次", hint="没有 tool_calls 就结束。")
    check.ok(case)

    case = "模型一直要调用工具 → max_steps"
    client = _Recorder(ScriptedClient([calls(call("calculator", {"expression": f"{i} + 1"}, id=f"call_{i}")) for i in range(10)]))
    reason, messages = outcome(case, client, "一直算下去", 3, "")
    if reason != "max_steps" or len(client.requests) != 3:
        raise check.fail(case, expected="max_steps，正好调用模型 3 次（max_steps=3）", got=f"{reason}，调用了 {len(client.requests)} 次",
                         hint="用 for step in range(max_steps) 限制次数；循环正常结束（没有 return）就说明步数用完了。")
    check.ok(case)

    case = "调用模型时抛出异常 → error（不能让异常冒出来）"
    reason, messages = outcome(case, ScriptedClient([]), "你好", 5,
                               "把 client.complete(...) 放进 try/except Exception，出错就 return \"error\", messages。")
    if reason != "error":
        raise check.fail(case, expected="error", got=reason, hint="模型调用失败时返回 \"error\"。")
    check.ok(case)

    case = "空回复（既没有内容也没有工具调用）→ error"
    client = _Recorder(ScriptedClient([reply("")]))
    reason, messages = outcome(case, client, "你好", 5, "")
    if reason != "error":
        raise check.fail(case, expected="error", got=reason, hint="没有 tool_calls、content 也是空的，不是答案：返回 \"error\"，别把空字符串当成最终回答。")
    check.ok(case)

    for case, model, message, wanted, steps in (
            ("模拟器 course-sim：先计算再回答 → final", "course-sim", "帮我算一下 (12 + 34) * 2", "final", 5),
            ("模拟器 course-sim:repeat_forever：永远在调用工具 → max_steps", "course-sim:repeat_forever", "现在几点了？", "max_steps", 4),
            ("模拟器 course-sim:server_error：HTTP 500 → error", "course-sim:server_error", "你好", "error", 4)):
        client = _Recorder(offline_client(model))
        reason, messages = outcome(case, client, message, steps, "")
        if reason != wanted or len(client.requests) > steps:
            raise check.fail(case, expected=f"{wanted}，最多调用模型 {steps} 次", got=f"{reason}，调用了 {len(client.requests)} 次",
                             hint="三种出口：没有工具调用且有内容 → final；步数用完 → max_steps；模型调用抛异常或空回复 → error。")
        if wanted == "final" and not any(m.get("role") == "tool" and "92" in str(m.get("content")) for m in messages):
            raise check.fail(case, expected="messages 里有计算器的结果 92（一条 role=tool 的消息）", got=messages,
                             hint="返回的 messages 应该是完整的对话：模型的每条回复和每个工具结果都在里面。")
        check.ok(case, f"{len(client.requests)} 次模型调用")
    check.done()


def day3_unknown_tool_message(unknown_tool_message: Callable[[str, list[str]], str]) -> None:
    """Exercise 3.3: ``unknown_tool_message(name, valid_names) -> str`` that lists the valid names."""
    __tracebackhide__ = True
    from ...scenarios import basic_registry

    check = _Check("day3_unknown_tool_message")
    _callable(check.exercise, unknown_tool_message)
    cases = [
        ("拼错的工具名", "get_wether", ["get_weather", "calculator", "get_current_time"]),
        ("模型编出来的工具", "search_web", ["calculator", "get_exchange_rate"]),
        ("只有一个工具", "calc", ["calculator"]),
    ]
    for case, name, valid in cases:
        got = check.call(case, unknown_tool_message, name, list(valid))
        if not isinstance(got, str) or not _CHINESE.search(got):
            raise check.fail(case, given=(name, valid), expected="一段中文说明（str）", got=_short(got), hint="返回给模型看的一段话。")
        missing = [word for word in [name, *valid] if word not in got]
        if missing:
            raise check.fail(case, given=(name, valid), expected=f"说明里有模型调用的名字和全部可用工具名，缺少 {missing}", got=got,
                             hint="模型读到这条消息后要能改正：说清楚哪个名字不存在，并列出所有可用的工具名。")
        check.ok(case, _brief(got, 60))
    case = "一个工具也没有"
    got = check.call(case, unknown_tool_message, "calculator", [], hint="valid_names 为空时也要返回一段话。")
    if not isinstance(got, str) or "calculator" not in got or not _CHINESE.search(got):
        raise check.fail(case, given=("calculator", []), expected="一段中文说明，提到 calculator，并说明没有可用的工具", got=_short(got),
                         hint="没有工具可用时要直说，例如“当前没有任何可用的工具，请直接回答用户”。")
    check.ok(case, _brief(got, 60))

    case = "接在模拟器 course-sim:unknown_tool 上：模型读到你的消息后改用正确的工具"
    client, registry = offline_client("course-sim:unknown_tool"), basic_registry()
    messages: list[dict[str, Any]] = [{"role": "user", "content": "帮我算一下 17 * 9"}]
    sent: list[str] = []
    answer = None
    for _ in range(4):  # a small loop that answers unknown names with your message, bounded
        result = client.complete(messages, tools=registry.schemas())
        if not result.tool_calls:
            answer = result.content
            break
        messages.append(result.to_message())
        for tool_call in result.tool_calls:
            if tool_call.name in registry:
                content = registry.dispatch(tool_call.name, tool_call.arguments).to_content()
            else:
                content = check.call(case, unknown_tool_message, tool_call.name, registry.names())
                sent.append(f"{tool_call.name} → {content}")
            messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": content})
    if not sent or "153" not in (answer or ""):
        raise check.fail(case, expected="模型先叫错名字，读到你的消息后改用 calculator，最后回答 153",
                         got=f"发回的消息：{sent}；最终回答：{answer}", hint="消息里要有全部可用的工具名，模型才能改对。")
    check.ok(case, _brief(sent[0], 60))
    check.done()


def day3_repeat_guard(guard_class: Callable[[], Any]) -> None:
    """Exercise 3.4: ``RepeatGuard().check(name, arguments) -> str | None`` — a note for a repeated call, else None."""
    __tracebackhide__ = True
    from ...scenarios import basic_registry

    check = _Check("day3_repeat_guard")
    _callable(check.exercise, guard_class, "类")
    guard = check.call("创建 RepeatGuard()", guard_class, hint="__init__ 里准备好记录已经见过的调用（例如一个 set）。")

    def ask(case: str, name: str, arguments: str, repeated: bool, hint: str) -> None:
        got = check.call(case, guard.check, name, arguments, hint=hint)
        if repeated:
            if not isinstance(got, str) or name not in got or not _CHINESE.search(got):
                raise check.fail(case, given=(name, arguments), expected=f"一段中文提示（str），说明 {name} 已经用相同参数调用过",
                                 got=got, hint=hint)
        elif got is not None:
            raise check.fail(case, given=(name, arguments), expected="None（这是一次新的调用，应该执行）", got=got, hint=hint)
        check.ok(case, "重复，不再执行" if repeated else "新调用，执行")

    ask("第一次调用", "get_weather", '{"city": "北京"}', False, "第一次见到的调用返回 None，并把它记下来。")
    ask("完全相同的第二次调用", "get_weather", '{"city": "北京"}', True, "见过的调用要返回一段提示，告诉模型它已经有结果了。")
    ask("另一个新调用（两个参数）", "calculator", '{"expression": "1 + 1", "precision": 2}', False, "")
    ask("同一个调用，只是参数顺序和空格不同", "calculator", '{ "precision":2,"expression":"1 + 1" }', True,
        "不要直接比较参数字符串：先 json.loads，再 json.dumps(..., sort_keys=True)，得到规范的写法再比较。")
    ask("同一个工具、不同参数", "get_weather", '{"city": "上海"}', False, "只有工具名和参数都相同才算重复：用 (name, 规范化的参数) 作为键。")
    ask("不同工具、相同参数", "get_city_info", '{"city": "北京"}', False, "键里要有工具名。")
    ask("隔了几次又回到第一次的调用", "get_weather", '{"city": "北京"}', True, "要记住所有见过的调用，不只是上一次。")
    ask("参数不是合法 JSON（第一次）", "calculator", "{expression: 1+}", False,
        "json.loads 失败时不要抛异常：直接用原始字符串作为键。")
    ask("参数不是合法 JSON（第二次）", "calculator", "{expression: 1+}", True, "json.loads 失败时用原始字符串作为键。")

    case = "接在模拟器 course-sim:repeat_forever 上：工具只执行一次"
    client, registry = offline_client("course-sim:repeat_forever"), basic_registry()
    fresh = check.call(case, guard_class)
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
                content = note
            messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": content})
    if executed != 1 or notes < 1:
        raise check.fail(case, expected="模型连续 4 次发出同一个调用：只执行 1 次，其余 3 次返回你的提示",
                         got=f"执行了 {executed} 次，返回提示 {notes} 次", hint="同一个 RepeatGuard 要记住整个运行中见过的调用。")
    check.ok(case, f"执行 {executed} 次，拦下 {notes} 次")
    check.done()


__all__ = ["day3_exchange_rate_tool","day3_loop_exits","day3_unknown_tool_message","day3_repeat_guard"]
