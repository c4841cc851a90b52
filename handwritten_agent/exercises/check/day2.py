"""Checkers for the Day 2 exercises (提示词 + JSON)."""

from __future__ import annotations

import json
from typing import Any, Callable, Sequence

from ...types import ToolCall
from .framework import (_CALCULATOR_SCHEMA, _CHINESE, ExerciseFailed, TooManyModelCalls, _brief, _callable, _Check,  # noqa: F401
                        _closed_port, _Recorder, _same_call, _short, offline_base_url, offline_client)

_WEATHER_SCHEMA = {"type": "function", "function": {
    "name": "get_weather", "description": "查询某个城市今天的天气，例如“北京今天天气怎么样”。",
    "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "城市名称，例如：北京"}},
                   "required": ["city"]}}}

_EXTRACT_CASES: list[tuple[str, str, Any, str]] = [
    ("只有 JSON", '{"name": "get_weather", "arguments": {"city": "北京"}}',
     {"name": "get_weather", "arguments": {"city": "北京"}}, "最简单的情况：json.loads 就够了。"),
    ("包在 ```json 代码块里", '```json\n{\n  "name": "calculate",\n  "arguments": {"expression": "17 * 9"}\n}\n```',
     {"name": "calculate", "arguments": {"expression": "17 * 9"}}, "先去掉 ``` 代码块标记，或者直接找第一个 { 开始的 JSON。"),
    ("前后有解释文字", '好的，我来帮你查一下。\n{"name": "get_weather", "arguments": {"city": "上海"}}\n请稍等片刻。',
     {"name": "get_weather", "arguments": {"city": "上海"}}, "从第一个 { 开始，数括号找到与它配对的 }。"),
    ("JSON 后面还有别的花括号", '调用：{"name": "calculate", "arguments": {"expression": "(1 + 2) * 3"}} 结果稍后以 {结果} 的形式给出。',
     {"name": "calculate", "arguments": {"expression": "(1 + 2) * 3"}},
     "贪婪的正则 \\{.*\\} 会一直匹配到最后一个 }：要数括号（{ 加一、} 减一），数到 0 就是这个对象的结尾。"),
    ("字符串里有括号", '{"name": "save_note", "arguments": {"text": "记得带 {钥匙} 和 }雨伞{"}}',
     {"name": "save_note", "arguments": {"text": "记得带 {钥匙} 和 }雨伞{"}}, "数括号时要跳过字符串里面的字符（在 \"…\" 之间的 { } 不算）。"),
    ("尾随逗号", '{"name": "calculate", "arguments": {"expression": "1 + 2",},}',
     {"name": "calculate", "arguments": {"expression": "1 + 2"}}, "json.loads 不接受 },} 这样的尾随逗号：在 } 或 ] 前面的逗号要删掉（字符串外面的）。"),
    ("全角标点和引号", '｛“name”：“get_weather”，“arguments”：｛“city”：“广州”｝｝',
     {"name": "get_weather", "arguments": {"city": "广州"}}, "中文输入法打出的 ｛｝“”：， 要换成 {}\":,。"),
    ("字符串里的全角逗号要保留", '{"name"："save_note"，"arguments"：{"text"："你好，世界"}}',
     {"name": "save_note", "arguments": {"text": "你好，世界"}},
     "只替换字符串外面的全角标点：\"你好，世界\" 里的逗号是内容，不能改成英文逗号。逐个字符扫描，记住当前是否在字符串里。"),
    ("单引号", "{'name': 'get_weather', 'arguments': {'city': '深圳'}}",
     {"name": "get_weather", "arguments": {"city": "深圳"}}, "Python 风格的单引号不是合法 JSON：把字符串外面的 ' 换成 \"。"),
]


def _prompt_json_replies(user_message: str, profiles: Sequence[str]) -> list[tuple[str, str]]:
    """What the simulator writes in prompt-JSON mode for each messiness profile (no ``tools`` parameter)."""
    from ...prompting import render_tool_prompt

    system = render_tool_prompt([_WEATHER_SCHEMA, _CALCULATOR_SCHEMA])
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user_message}]
    return [(profile, offline_client(f"course-sim:{profile}").complete(messages).content or "") for profile in profiles]


def day2_extract_json(extract_json: Callable[[str], dict[str, Any]]) -> None:
    """Exercise 2.1: ``extract_json(text) -> dict`` for messy model output; ``ValueError`` when there is no JSON."""
    __tracebackhide__ = True
    check = _Check("day2_extract_json")
    _callable(check.exercise, extract_json)
    for case, text, expected, hint in _EXTRACT_CASES:
        got = check.call(case, extract_json, text, expected=expected, hint=hint)
        if got != expected:
            raise check.fail(case, given=text, expected=expected, got=got, hint=hint)
        check.ok(case)

    case = "没有 JSON 时抛出 ValueError"
    text = "今天天气不错，这个问题不需要调用工具。"
    try:
        got = extract_json(text)
    except NotImplementedError:
        raise check.not_done() from None
    except ValueError as exc:
        check.ok(case, f"ValueError: {_brief(str(exc), 60)}")
    except Exception as exc:  # noqa: BLE001
        raise check.fail(case, given=text, expected="抛出 ValueError", got=f"抛出了 {type(exc).__name__}: {exc}",
                         hint="找不到 JSON 时 raise ValueError(\"…说明原因…\")，调用方才能把原因告诉模型。") from exc
    else:
        raise check.fail(case, given=text, expected="抛出 ValueError", got=f"返回了 {got!r}",
                         hint="不要返回 {} 或 None 假装成功：raise ValueError(\"…说明原因…\")，调用方才能把原因告诉模型。")

    profiles = ("clean", "fenced", "prose", "trailing_comma", "fullwidth", "single_quotes", "mixed")
    replies = _prompt_json_replies("帮我查一下杭州的天气", profiles)
    expected = json.loads(replies[0][1])
    for profile, text in replies:
        case = f"模拟器的 course-sim:{profile} 回复"
        got = check.call(case, extract_json, text, expected=expected, hint="把这段回复复制出来单独试一试。")
        if got != expected:
            raise check.fail(case, given=text, expected=expected, got=got, hint="把这段回复复制出来单独试一试，看是哪种凌乱没处理。")
        check.ok(case, _brief(text.replace("\n", "⏎"), 50))
    check.done()



def day2_retry_on_parse_error(ask_for_tool_call: Callable[..., Any]) -> None:
    """Exercise 2.2: ``ask_for_tool_call(client, messages, max_attempts=3)`` retries with the ParseError told to the model."""
    __tracebackhide__ = True
    from ...parsing import ParseError, parse_tool_call
    from ...prompting import render_tool_prompt
    from ...scripted import ScriptedClient

    check = _Check("day2_retry_on_parse_error")
    _callable(check.exercise, ask_for_tool_call)
    system = render_tool_prompt([_WEATHER_SCHEMA, _CALCULATOR_SCHEMA])
    start = [{"role": "system", "content": system}, {"role": "user", "content": "计算 (3 + 4) * 5"}]
    broken = '{"name": "calculate", "arguments": {"expression": "(3 + 4) * 5"'
    good = '{"name": "calculate", "arguments": {"expression": "(3 + 4) * 5"}}'
    wanted = ToolCall.from_arguments("calculate", {"expression": "(3 + 4) * 5"})
    error = parse_tool_call(broken)
    assert isinstance(error, ParseError)

    case = "第一次回复被截断，第二次正确"
    client = _Recorder(ScriptedClient([broken, good]))
    got = check.call(case, ask_for_tool_call, client, [dict(m) for m in start], max_attempts=3)
    if not _same_call(got, wanted):
        raise check.fail(case, expected=wanted, got=got, hint="解析失败后要再问一次模型，并返回第二次解析出的 ToolCall。")
    if len(client.requests) != 2:
        raise check.fail(case, expected="调用模型 2 次", got=f"调用了 {len(client.requests)} 次", hint="第一次失败、第二次成功，就应该正好问两次。")
    second = client.requests[1]
    if second[: len(start)] != start:
        raise check.fail(case, expected=f"第二次请求以原来的 {len(start)} 条消息开头", got=second[: len(start)],
                         hint="重试时要保留原来的对话（system + user），在后面追加，而不是重新开始。")
    tail = second[len(start):]
    if len(tail) != 2 or tail[0].get("role") != "assistant" or tail[0].get("content") != broken:
        raise check.fail(case, expected="追加的第一条是模型那次的原始回复：{\"role\": \"assistant\", \"content\": <原文>}", got=tail,
                         hint="把模型写坏的那条回复原样作为 assistant 消息追加，模型才知道自己哪里写错了。")
    if tail[1].get("role") != "user" or error.message not in str(tail[1].get("content")):
        raise check.fail(case, expected=f"追加的第二条是 user 消息，内容包含 ParseError.message：{error.message}", got=tail[1],
                         hint="parse_tool_call 返回的 ParseError 有一个写给模型看的 message，把它作为 user 消息发回去。")
    check.ok(case, f"第二次请求带上了错误说明：{_brief(error.message, 40)}")

    case = "模型直接用文字回答时返回 None"
    client = _Recorder(ScriptedClient(["你好！我是助手，有什么可以帮你？"]))
    got = check.call(case, ask_for_tool_call, client, [{"role": "user", "content": "你好"}], max_attempts=3)
    if got is not None or len(client.requests) != 1:
        raise check.fail(case, expected="返回 None，只调用模型 1 次", got=f"返回 {got!r}，调用了 {len(client.requests)} 次",
                         hint="parse_tool_call 返回 None 表示模型没想调用工具：这不是错误，直接返回 None。")
    check.ok(case)

    case = "一直写坏：最多尝试 max_attempts 次，然后抛出 ValueError"
    client = _Recorder(ScriptedClient([broken] * 6))
    try:
        got = ask_for_tool_call(client, [dict(m) for m in start], max_attempts=3)
    except NotImplementedError:
        raise check.not_done() from None
    except ExerciseFailed:
        check._flush()
        raise
    except ValueError as exc:
        if len(client.requests) != 3:
            raise check.fail(case, expected="正好调用模型 3 次", got=f"调用了 {len(client.requests)} 次",
                             hint="max_attempts=3 表示总共问 3 次（第一次 + 2 次重试）。") from exc
        check.ok(case, f"问了 3 次后放弃：ValueError: {_brief(str(exc), 40)}")
    except Exception as exc:  # noqa: BLE001
        raise check.fail(case, expected="抛出 ValueError", got=f"抛出了 {type(exc).__name__}: {exc}",
                         hint="用完 max_attempts 次后 raise ValueError(最后一次的错误说明)。") from exc
    else:
        raise check.fail(case, expected="抛出 ValueError", got=f"返回了 {got!r}（调用了 {len(client.requests)} 次）",
                         hint="用完 max_attempts 次还解析不出来，就 raise ValueError(最后一次的错误说明)，不要返回半成品。")

    for case, model, attempts in (("模拟器 course-sim:malformed_json：第一次回复被截断", "course-sim:malformed_json", 2),
                                  ("模拟器 course-sim:mixed：凌乱但能解析，一次成功", "course-sim:mixed", 1)):
        client = _Recorder(offline_client(model))
        got = check.call(case, ask_for_tool_call, client, [dict(m) for m in start], max_attempts=3)
        if not _same_call(got, wanted) or len(client.requests) != attempts:
            raise check.fail(case, expected=f"{wanted}，调用模型 {attempts} 次", got=f"{got!r}，调用了 {len(client.requests)} 次",
                             hint="用 handwritten_agent.parsing.parse_tool_call 解析 reply.content；出错时追加 assistant 原文和 user 错误说明再问。")
        check.ok(case, f"{attempts} 次请求后得到 {got.name}({got.arguments})")
    check.done()


_PROMPT_TOOLS = [
    {"name": "get_stock_price", "description": "查询一只股票的最新价格（示例数据），例如“苹果公司的股价是多少”。",
     "parameters": {"type": "object", "properties": {
         "symbol": {"type": "string", "description": "股票代码，例如：AAPL"},
         "market": {"type": "string", "enum": ["US", "HK", "CN"], "description": "交易所所在的市场"}},
         "required": ["symbol"]}},
    {"name": "translate_text", "description": "把一段文字翻译成另一种语言，例如“把你好翻译成英文”。",
     "parameters": {"type": "object", "properties": {
         "text": {"type": "string", "description": "要翻译的原文"},
         "target_language": {"type": "string", "enum": ["英文", "日文", "法文"], "description": "目标语言"}},
         "required": ["text", "target_language"]}},
    {"name": "get_current_time", "description": "获取当前的日期和时间，不需要参数。",
     "parameters": {"type": "object", "properties": {}}},
]


def day2_render_tool_prompt(render_tool_prompt: Callable[[list[dict[str, Any]]], str]) -> None:
    """Exercise 2.3: ``render_tool_prompt(tools) -> str`` from JSON Schemas; the simulator must then call the right tool."""
    __tracebackhide__ = True
    from ...parsing import parse_tool_call

    check = _Check("day2_render_tool_prompt")
    _callable(check.exercise, render_tool_prompt)
    tools = json.loads(json.dumps(_PROMPT_TOOLS, ensure_ascii=False))
    prompt = check.call("渲染三个工具", render_tool_prompt, tools, hint="tools 是一个列表，每个元素有 name、description、parameters。")
    if not isinstance(prompt, str) or not prompt.strip():
        raise check.fail("渲染三个工具", expected="一段非空的提示词（str）", got=_short(prompt), hint="函数要 return 拼好的字符串。")
    if tools != _PROMPT_TOOLS:
        raise check.fail("不修改传入的 tools", expected="tools 原样不变", got=tools, hint="渲染提示词只读 tools，不要改动它。")

    needed: list[tuple[str, list[str], str]] = []
    for spec in _PROMPT_TOOLS:
        needed.append((f"写出工具 {spec['name']} 的名字和描述", [spec["name"], spec["description"]],
                       "每个工具都要写出 name 和完整的 description：模型靠描述决定用哪个工具。"))
        for pname, pschema in spec["parameters"]["properties"].items():
            words = [pname, pschema["description"], *pschema.get("enum", [])]
            needed.append((f"写出参数 {spec['name']}.{pname}（名字、描述{'、可选值' if 'enum' in pschema else ''}）", words,
                           "每个参数都要写出名字、类型和描述；有 enum 的要列出全部可选值（直接放入 JSON Schema 最省事）。"))
    needed.append(("说明哪些参数必填", ["required"] if "required" in prompt else ["必填"],
                   "要告诉模型哪些参数是必填的（写出 required 列表，或写“必填”）。"))
    needed.append(("规定回复格式：一个含 name 和 arguments 的 JSON 对象", ['"name"', '"arguments"'],
                   "写明调用工具时只输出一个 JSON 对象，例如 {\"name\": \"工具名\", \"arguments\": {…}}，字段名要带双引号。"))
    for case, words, hint in needed:
        missing = [word for word in words if word not in prompt]
        if missing:
            raise check.fail(case, expected=f"提示词里包含 {missing}", got=_short(prompt, 400), hint=hint)
        check.ok(case)

    client = offline_client("course-sim")
    for case, request, expected in (
            ("模拟器读你的提示词：查股价", "帮我查一下 AAPL 的股价", ToolCall.from_arguments("get_stock_price", {"symbol": "AAPL"})),
            ("模拟器读你的提示词：翻译", "把“早上好”翻译成日文", ToolCall.from_arguments("translate_text", {"text": "早上好", "target_language": "日文"}))):
        reply = client.complete([{"role": "system", "content": prompt}, {"role": "user", "content": request}])
        got = parse_tool_call(reply.content or "")
        if not _same_call(got, expected):
            raise check.fail(case, given=request, expected=expected, got=reply.content,
                             hint="模拟器和真实模型一样，只能从你的提示词里了解工具：确认每个工具的 JSON Schema 都完整写进去了"
                                  "（可以用 json.dumps(parameters, ensure_ascii=False) 原样放进去），并写明输出 JSON 的格式。")
        check.ok(case, f"{_brief(request, 30)} → {got.name}({got.arguments})")
    check.done()


__all__ = ["day2_extract_json","day2_retry_on_parse_error","day2_render_tool_prompt"]
