"""Checkers for the Day 2 exercises (提示词 + JSON).

Left out: judging a tool prompt's wording — 2.3 checks what the prompt states (names, descriptions,
types, enums, required, the reply format), what the simulator reads from it, which calls it then
makes, and that each set of tools gets its own prompt (one returned again for other tools is state
kept between calls).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from typing import Any

from ....messages import ToolCall
from .framework import (
    _CALCULATOR_SCHEMA,
    _brief,
    _callable,
    _Check,
    _Recorder,
    _same_call,
    _short,
    exercise,
    mentions,
    offline_client,
    snapshot,
    text_difference,
    typed,
    value_difference,
)
from .prompts import (
    PROMPT_TOOL_SETS,
    describe_reading,
    fills_arguments,
    prompt_problems,
    reading_difference,
)

_WEATHER_SCHEMA = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "查询某个城市今天的天气，例如“北京今天天气怎么样”。",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "城市名称，例如：北京"}},
            "required": ["city"],
        },
    },
}

# ---------------------------------------------------------------------------------------------
# 2.1 extract_json
# ---------------------------------------------------------------------------------------------

_NOTE = "save_note"
_EXTRACT_CASES: list[tuple[str, str, Any, str]] = [
    (
        "只有 JSON",
        '{"name": "get_weather", "arguments": {"city": "北京"}}',
        {"name": "get_weather", "arguments": {"city": "北京"}},
        "最简单的情况：json.loads 就够了。",
    ),
    (
        "包在 ```json 代码块里",
        '```json\n{\n  "name": "calculate",\n  "arguments": {"expression": "17 * 9"}\n}\n```',
        {"name": "calculate", "arguments": {"expression": "17 * 9"}},
        "先去掉 ``` 代码块标记，或者直接找第一个 { 开始的 JSON。",
    ),
    (
        "包在没有语言名的 ``` 代码块里",
        '下面是调用：\n```\n{"name": "get_current_time", "arguments": {}}\n```',
        {"name": "get_current_time", "arguments": {}},
        "代码块不一定写 json：直接找第一个 { 开始的对象最稳。",
    ),
    (
        "前后有解释文字",
        '好的，我来帮你查一下。\n{"name": "get_weather", "arguments": {"city": "上海"}}\n请稍等片'
        "刻。",
        {"name": "get_weather", "arguments": {"city": "上海"}},
        "从第一个 { 开始，数括号找到与它配对的 }。",
    ),
    (
        "JSON 后面还有别的花括号",
        (
            '调用：{"name": "calculate", "arguments": {"expression": "(1 + 2) * 3"}} 结果稍后以'
            " {结果} 的形式给出。"
        ),
        {"name": "calculate", "arguments": {"expression": "(1 + 2) * 3"}},
        (
            "贪婪的正则 \\{.*\\} 会一直匹配到最后一个 }：要数括号（{ 加一、} 减一），数到 0"
            " 就是这个对象的结尾。"
        ),
    ),
    (
        "有两个 JSON 对象：返回第一个",
        (
            '先 {"name": "get_current_time", "arguments": {}}，再 {"name": "calculate",'
            ' "arguments": {"expression": "1 + 1"}}'
        ),
        {"name": "get_current_time", "arguments": {}},
        "只要第一个对象：从第一个 { 数括号，数到 0 就停。",
    ),
    (
        "第一个对象里没有 name：也返回它",
        '参数先确认一下 {"城市": "北京", "日期": "明天"}，再调用 {"name": "get_weather",'
        ' "arguments": {"city": "北京"}}',
        {"城市": "北京", "日期": "明天"},
        (
            "题目要的是回复里的第一个 JSON 对象，不管它有没有 name 键：不要跳过不像工具调用的"
            "对象，判断是不是工具调用是 parse_tool_call 的事。"
        ),
    ),
    (
        "字符串里有不成对的括号",
        '{"name": "save_note", "arguments": {"text": "记得带 {钥匙} 和雨伞 :-}"}}',
        {"name": _NOTE, "arguments": {"text": "记得带 {钥匙} 和雨伞 :-}"}},
        '数括号时要跳过字符串里面的字符（在 "…" 之间的 { } 不算）。',
    ),
    (
        "字符串里有转义的引号，末尾是转义的反斜杠",
        (
            '{"name": "save_note", "arguments": {"text": "他说：\\"别忘了 {钥匙}\\"", "path":'
            ' "C:\\\\temp\\\\"}}'
        ),
        {"name": _NOTE, "arguments": {"text": '他说："别忘了 {钥匙}"', "path": "C:\\temp\\"}},
        (
            '字符串里的 \\" 不是字符串的结尾，\\\\ 是一个反斜杠：遇到 \\ 就连同下一个字符一起跳过，'
            "不要只看前一个字符是不是 \\。"
        ),
    ),
    (
        "字符串里转义的引号中间夹着一个右括号",
        '{"name": "save_note", "arguments": {"text": "右括号写作 \\"}\\"，左括号同理"}}',
        {"name": _NOTE, "arguments": {"text": '右括号写作 "}"，左括号同理'}},
        (
            '\\" 是字符串里的一个引号，不是字符串的结尾：扫描时遇到 \\ 就连同下一个字符一起跳过，'
            '否则 \\"}\\" 里的 } 会被当成对象的结尾。'
        ),
    ),
    (
        "字符串里转义的引号中间夹着一个左括号，后面还有 {…}",
        '{"name": "save_note", "arguments": {"text": "a \\"{\\" b"}} 结果以 {结果} 给出',
        {"name": _NOTE, "arguments": {"text": 'a "{" b'}},
        (
            '\\" 是字符串里的一个引号，不是字符串的结尾：扫描时遇到 \\ 就连同下一个字符一起跳过，'
            '否则 \\"{\\" 里的 { 会被数进去，对象就合不上了。'
        ),
    ),
    (
        "true、false、null 和小数",
        (
            '{"name": "set_alarm", "arguments": {"time": "07:30", "repeat": false, "vibrate": true,'
            ' "label": null, "volume": 0.8}}'
        ),
        {
            "name": "set_alarm",
            "arguments": {
                "time": "07:30",
                "repeat": False,
                "vibrate": True,
                "label": None,
                "volume": 0.8,
            },
        },
        "JSON 的 true/false/null 只有 json.loads 认得（ast.literal_eval 不认）；"
        "修复时也不要改动它们。",
    ),
    (
        "尾随逗号（对象里，逗号后面换行）",
        '{\n  "name": "calculate",\n  "arguments": {"expression": "1 + 2",\n  },\n}',
        {"name": "calculate", "arguments": {"expression": "1 + 2"}},
        (
            "json.loads 不接受 } 前面的逗号（中间可能隔着空格和换行）：删掉字符串外面、"
            "只隔着空白就到 } 或 ] 的逗号。"
        ),
    ),
    (
        "尾随逗号（数组里）",
        (
            '{"name": "send_email", "arguments": {"to": ["a@example.com", "b@example.com",],'
            ' "subject": "周报"}}'
        ),
        {
            "name": "send_email",
            "arguments": {"to": ["a@example.com", "b@example.com"], "subject": "周报"},
        },
        "] 前面的多余逗号也要删。",
    ),
    (
        "字符串里的 ,} 是内容，要保留",
        '{"name": "save_note", "arguments": {"text": "清单：苹果,}香蕉",},}',
        {"name": _NOTE, "arguments": {"text": "清单：苹果,}香蕉"}},
        (
            '只删字符串外面的尾随逗号：对整段文字做 re.sub(r",\\s*}", "}") 会改坏字符串里的内容。'
            "逐个字符扫描，记住当前是否在字符串里。"
        ),
    ),
    (
        "全角标点和引号",
        "｛“name”：“get_weather”，“arguments”：｛“city”：“广州”｝｝",
        {"name": "get_weather", "arguments": {"city": "广州"}},
        '中文输入法打出的 ｛｝“”：， 要换成 {}":,。',
    ),
    (
        "字符串里的全角逗号和冒号要保留",
        '{"name"："save_note"，"arguments"：{"text"："时间：10：30，地点：三楼"}}',
        {"name": _NOTE, "arguments": {"text": "时间：10：30，地点：三楼"}},
        "只替换字符串外面的全角标点：字符串里的逗号和冒号是内容。逐个字符扫描，"
        "记住当前是否在字符串里。",
    ),
    (
        "单引号",
        "{'name': 'get_weather', 'arguments': {'city': '深圳'}}",
        {"name": "get_weather", "arguments": {"city": "深圳"}},
        "Python 风格的单引号不是合法 JSON：把字符串外面的 ' 换成 \"。",
    ),
    (
        "单引号，值里有 true 和 null",
        "{'name': 'set_alarm', 'arguments': {'time': '07:30', 'repeat': true, 'label': null}}",
        {"name": "set_alarm", "arguments": {"time": "07:30", "repeat": True, "label": None}},
        (
            "把字符串外面的 ' 换成 \" 之后，true/null 就是合法的 JSON；ast.literal_eval 不认 true、"
            "false、null。"
        ),
    ),
    (
        "单引号字符串里有花括号和双引号",
        "{'name': 'save_note', 'arguments': {'text': '用 } 结尾，他说\"好\"'}}",
        {"name": _NOTE, "arguments": {"text": '用 } 结尾，他说"好"'}},
        '单引号字符串里的 { } 也不算括号；把它改成双引号字符串时，里面原有的 " 要转义成 \\"。',
    ),
    (
        "双引号字符串里有撇号 '",
        '{"name": "translate", "arguments": {"text": "It\'s 5 o\'clock", "to": "中文"}}',
        {"name": "translate", "arguments": {"text": "It's 5 o'clock", "to": "中文"}},
        (
            "已经是合法 JSON 的就先直接 json.loads，不要先修；修复时也只改字符串外面的 '：把所有 '"
            " 都换成 \" 会改坏 It's。"
        ),
    ),
]

_NO_JSON_CASES: list[tuple[str, str, str]] = [
    (
        "没有 JSON",
        "今天天气不错，这个问题不需要调用工具。",
        '找不到 { 时 raise ValueError("…说明原因…")。',
    ),
    ("空字符串", "", "空字符串里也没有 JSON：raise ValueError。"),
    (
        "只有 JSON 数组，没有对象",
        "结果是 [1, 2, 3]。",
        "要的是 JSON 对象（dict）：没有对象就 raise ValueError，不要返回 list。",
    ),
    (
        "花括号里不是 JSON",
        "结果稍后以 {结果} 的形式给出。",
        "找到了 {…} 但修复后仍然解析不了：让 ValueError（json.JSONDecodeError 就是 ValueError）"
        "抛出去。",
    ),
    (
        "被截断的 JSON",
        '{"name": "calculate", "arguments": {"expression": "(3 + 4',
        "括号没有配对（回复被截断了）：raise ValueError，不要补全或返回半个结果。",
    ),
    (
        "JSON 里混着一段 Python 代码",
        '{"name": "calculate", "arguments": {"value": abs(-3)}}',
        (
            "abs(-3) 不是 JSON：解析不了就 raise ValueError。如果你的函数算出了 3，说明它用 eval"
            " 执行了模型写的代码——这绝对不行。"
        ),
    ),
]


def _prompt_json_replies(user_message: str, profiles: Sequence[str]) -> list[tuple[str, str]]:
    """What the simulator writes in prompt-JSON mode for each messiness profile (no ``tools``
    parameter).
    """
    from ....prompting import render_tool_prompt

    system = render_tool_prompt([_WEATHER_SCHEMA, _CALCULATOR_SCHEMA])
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user_message}]
    return [
        (profile, offline_client(f"course-sim:{profile}").complete(messages).content or "")
        for profile in profiles
    ]


def _extract_failure(
    check: _Check, case: str, text: str, expected: Any, got: Any, hint: str
) -> Exception:
    if isinstance(got, str):
        hint = "要返回解析后的 dict（json.loads 的结果），不是 JSON 文本。" + hint
    elif got is None or (isinstance(got, dict) and not got):
        hint = "这段文字里有 JSON 对象，不能返回空值。" + hint
    shown = (
        f"{value_difference(expected, got)}（{typed(got, 160)}）"
        if isinstance(got, dict)
        else typed(got)
    )
    return check.fail(case, given=text, expected=expected, got=shown, hint=hint)


def _chinese_replies(check: _Check, extract_json: Callable[[str], Any]) -> None:
    """Replies with Chinese keys, in single quotes or full-width marks, one after another, two of
    the same length (silent when right): each answered from *its* text — no cache under a partial
    key."""
    replies = [
        (
            "中文的键和值",
            '好的：{"城市": "北京", "日期": "明天"}',
            {"城市": "北京", "日期": "明天"},
        ),
        (
            "一样长、内容不同的另一段",
            '好的：{"城市": "上海", "日期": "今天"}',
            {"城市": "上海", "日期": "今天"},
        ),
        (
            "单引号里的中文键",
            "{'城市': '广州', '备注': 'It 是 ok'}",
            {"城市": "广州", "备注": "It 是 ok"},
        ),
        (
            "全角引号里的中文键和英文值",
            "｛“城市”：“Shenzhen”，“人数”：3｝",
            {"城市": "Shenzhen", "人数": 3},
        ),
        (
            "键名只差大小写",
            '{"Name": "A", "name": "b", "ＮＡＭＥ": "全角"}',
            {"Name": "A", "name": "b", "ＮＡＭＥ": "全角"},
        ),
    ]
    check.independent(
        "中文的键、一个接一个的回复",
        [
            (label, (lambda text=text: extract_json(text)), wanted, text)
            for label, text, wanted in replies
        ],
        hint=(
            "键和值原样保留（中文、大小写、全角字母都不要改）；把字符串外面的 ' 换成 \" 时，"
            "不要只认 [A-Za-z0-9_] 组成的字符串——中文也在引号里。"
        ),
    )


@exercise
def day2_extract_json(check: _Check, extract_json: Callable[[str], dict[str, Any]]) -> None:
    """Exercise 2.1: ``extract_json(text) -> dict`` for messy model output; ``ValueError`` when
    there is no JSON.
    """
    __tracebackhide__ = True
    _callable(check.exercise, extract_json)
    check.forbid(
        "不用 eval / exec 解析模型输出",
        extract_json,
        why=(
            "模型输出是不可信的文本：eval/exec 会把它当成代码执行（等于让模型在你的电脑上运行任意代"
            "码）。用 json.loads 解析，解析不了就修复字符串外面的格式再试。"
        ),
    )
    for case, text, expected, hint in _EXTRACT_CASES:
        got = check.call(case, extract_json, text, given=text, expected=expected, hint=hint)
        if value_difference(expected, got):
            raise _extract_failure(check, case, text, expected, got, hint)
        check.ok(case)

    for case, text, hint in _NO_JSON_CASES:
        exc = check.raises(
            case,
            extract_json,
            text,
            expected=ValueError,
            given=text,
            want="抛出 ValueError",
            hint_returned=hint
            + "不要返回 {}、None 或半个结果假装成功：调用方靠 ValueError 知道要让模型重写。",
            hint_other=lambda exc, hint=hint: (
                f"要抛出的是 ValueError（或它的子类，比如 json.JSONDecodeError），不是 "
                f"{type(exc).__name__}。{hint}"
            ),
        )
        check.ok(case, f"抛出了 {type(exc).__name__}")

    _chinese_replies(check, extract_json)

    profiles = ("clean", "fenced", "prose", "trailing_comma", "fullwidth", "single_quotes", "mixed")
    replies = _prompt_json_replies("帮我查一下杭州的天气", profiles)
    expected = json.loads(replies[0][1])
    for profile, text in replies:
        case = f"模拟器的 course-sim:{profile} 回复"
        got = check.call(
            case,
            extract_json,
            text,
            given=text,
            expected=expected,
            hint="把这段回复复制出来单独试一试。",
        )
        if value_difference(expected, got):
            raise _extract_failure(
                check,
                case,
                text,
                expected,
                got,
                "把这段回复复制出来单独试一试，看是哪种凌乱没处理。",
            )
        check.ok(case, _brief(text.replace("\n", "⏎"), 50))
    check.done()


# ---------------------------------------------------------------------------------------------
# 2.2 ask_for_tool_call
# ---------------------------------------------------------------------------------------------

_TRUNCATED = '{"name": "calculate", "arguments": {"expression": "(3 + 4) * 5"'
_BARE_VALUE = '{"name": "calculate", "arguments": {"expression": (3 + 4) * 5}}'
_NOT_OBJECT = '{"name": "calculate", "arguments": 35}'
_NO_NAME = '好的：{"arguments": {"expression": "(3 + 4) * 5"}}'
_GOOD = '{"name": "calculate", "arguments": {"expression": "(3 + 4) * 5"}}'
# A long reply: a paragraph of Chinese before the broken JSON, blank lines around it
_LONG_BROKEN = (
    "\n  " + "好的，我先想一想这道题怎么算，再调用计算器。" * 30 + "\n" + _BARE_VALUE + "\n\n"
)


def _appended_difference(
    sent: list[dict[str, Any]], start: list[dict[str, Any]], failures: list[tuple[str, str]]
) -> str | None:
    """What differs between a retry request and start + [assistant <raw>, user <error>] per failure
    so far.
    """
    if not isinstance(sent, list) or sent[: len(start)] != start:
        return (
            f"没有以原来的 {len(start)} 条消息开头（开头是"
            f" {_short(sent[: len(start)] if isinstance(sent, list) else sent, 200)}）"
        )
    tail = sent[len(start) :]
    wanted: list[tuple[str, str]] = []
    for raw, error in failures:
        wanted += [("assistant", raw), ("user", error)]
    if len(tail) != len(wanted):
        return (
            f"在原来的消息后面追加了 {len(tail)} 条，应该是 {len(wanted)} 条"
            f"（每次失败 2 条：assistant 原文 + user 错误说明；已失败 {len(failures)}"
            f" 次）：{_short(tail, 240)}"
        )
    for index, (message, (role, content)) in enumerate(zip(tail, wanted)):
        if not isinstance(message, dict):
            return f"追加的第 {index + 1} 条不是 dict：{_short(message, 100)}"
        if message.get("role") != role:
            return f"追加的第 {index + 1} 条的 role 是 {message.get('role')!r}，应该是 {role!r}"
        text = message.get("content")
        if role == "assistant" and text != content:
            if isinstance(text, str) and len(content) > 120:
                cut = content.find(text) if text else -1
                return (
                    f"追加的第 {index + 1} 条应该是模型那次回复的原文（{len(content)} 个字符），"
                    f"实际是 {len(text)} 个字符："
                    + (
                        f"原文的一段，开头少了 {cut} 个字符、结尾少了"
                        f" {len(content) - cut - len(text)} 个字符"
                        if cut >= 0
                        else text_difference(content, text)
                    )
                )
            return (
                f"追加的第 {index + 1} 条应该是模型那次回复的原文 {content!r}，实际是"
                f" {_short(text, 120)}"
            )
        if role == "user" and (not isinstance(text, str) or content not in text):
            return (
                f"追加的第 {index + 1} 条（user）应该包含那次的 ParseError.message：{content!r}，"
                f"实际是 {_short(text, 160)}"
            )
    return None


@exercise
def day2_retry_on_parse_error(check: _Check, ask_for_tool_call: Callable[..., Any]) -> None:
    """Exercise 2.2: ``ask_for_tool_call(client, messages, max_attempts=3)`` retries with the
    ParseError told to the model.
    """
    __tracebackhide__ = True
    from ....parsing import ParseError, parse_tool_call
    from ....prompting import render_tool_prompt
    from ....scripted import ScriptedClient

    _callable(check.exercise, ask_for_tool_call)
    system = render_tool_prompt([_WEATHER_SCHEMA, _CALCULATOR_SCHEMA])
    start = [{"role": "system", "content": system}, {"role": "user", "content": "计算 (3 + 4) * 5"}]
    wanted = ToolCall.from_arguments("calculate", {"expression": "(3 + 4) * 5"})

    def error_of(raw: str) -> str:
        parsed = parse_tool_call(raw)
        assert isinstance(parsed, ParseError), raw
        return parsed.message

    def run(
        case: str, replies: list[str], max_attempts: int | None
    ) -> tuple[Any, _Recorder, Exception | None]:
        """The learner's function on a scripted model; ``max_attempts=None`` leaves the default."""
        client = _Recorder(ScriptedClient(replies))
        messages = [dict(m) for m in start]
        before = snapshot(messages)
        options = {} if max_attempts is None else {"max_attempts": max_attempts}
        got, raised = None, None
        try:  # under the time limit; an exit or a BaseException becomes a message naming the case
            got = check.run(case, ask_for_tool_call, client, messages, **options)
        except NotImplementedError:
            raise check.not_done() from None
        except Exception as exc:  # noqa: BLE001 - judged by the caller
            raised = exc
        check.unchanged(
            case,
            before,
            messages,
            "调用方传进来的 messages ",
            "不要修改调用方的列表：先复制一份（messages = list(messages)），在副本后面追加。"
            "调用方的对话里不该留下写坏的回复和错误说明。",
        )
        return got, client, raised

    attempts_text = lambda n: "默认的 max_attempts（3）" if n is None else f"max_attempts={n}"  # noqa: E731

    # (case, replies, max_attempts, how many requests, succeeds?)
    scenarios: list[tuple[str, list[str], int | None, int, bool]] = [
        ("第一次回复被截断，第二次正确", [_TRUNCATED, _GOOD], 3, 2, True),
        (
            "一段很长的中文说明加写坏的 JSON：原文整段追加，一个字不少",
            [_LONG_BROKEN, _GOOD],
            3,
            2,
            True,
        ),
        (
            "连续写坏两次（两种不同的错），第三次正确",
            [_BARE_VALUE, _NOT_OBJECT, _GOOD, _GOOD],
            3,
            3,
            True,
        ),
        (
            "max_attempts=5：前四次写坏，第五次正确",
            [_TRUNCATED, _BARE_VALUE, _NOT_OBJECT, _NO_NAME, _GOOD],
            5,
            5,
            True,
        ),
        ("第一次就正确：只问一次", [_GOOD, _GOOD], None, 1, True),
        (
            "一直写坏，用默认的 max_attempts：问 3 次后抛出 ValueError",
            [_TRUNCATED, _BARE_VALUE, _NOT_OBJECT, _GOOD],
            None,
            3,
            False,
        ),
        ("max_attempts=1：写坏一次就放弃", [_NOT_OBJECT, _GOOD], 1, 1, False),
        (
            "max_attempts=2：写坏两次就放弃（第三次本来会对）",
            [_BARE_VALUE, _TRUNCATED, _GOOD],
            2,
            2,
            False,
        ),
    ]
    for case, replies, max_attempts, count, succeeds in scenarios:
        got, client, raised = run(case, replies, max_attempts)
        asked = len(client.requests)
        failures = [(raw, error_of(raw)) for raw in replies[: count - 1 if succeeds else count]]
        limit = max_attempts or 3
        if asked > count:
            raise check.fail(
                case,
                expected=f"调用模型 {count} 次（{attempts_text(max_attempts)}）",
                got=f"调用了 {asked} 次",
                hint=(
                    f"{attempts_text(max_attempts)} 表示总共最多问 {limit} 次（第一次 + 重试），不"
                    f"要多问一次，"
                    "也不要一直问下去：for _ in range(max_attempts)。"
                    if not succeeds or asked > limit
                    else "解析成功就立刻 return，不要再问。"
                ),
            )
        if succeeds:
            if raised is not None:
                raise check.fail(
                    case,
                    expected=f"返回 {wanted}（调用模型 {count} 次）",
                    got=(
                        f"抛出了 {type(raised).__name__}: {_brief(str(raised), 160)}（调用了 "
                        f"{asked} 次）"
                    ),
                    hint=(
                        f"解析失败后要追加错误说明再问，{attempts_text(max_attempts)} 表示最多问"
                        f" {limit} 次："
                        "用 for _ in range(max_attempts)，不要写死次数，也不要第一次失败就抛出。"
                        if asked < count
                        else "先在上面的单元格里单独试一试，看是哪一行出的错。"
                    ),
                )
            if not _same_call(got, wanted):
                raise check.fail(
                    case,
                    expected=f"ToolCall：{wanted}",
                    got=typed(got),
                    hint=(
                        "返回 parse_tool_call 解析出的那个 ToolCall 本身（不要转成 dict "
                        "或字符串）。"
                        if got is not None
                        else "解析出 ToolCall 后要 return 它。"
                    ),
                )
        else:
            if not isinstance(raised, ValueError):
                raise check.fail(
                    case,
                    expected=f"问 {count} 次后抛出 ValueError",
                    got=(
                        f"抛出了 {type(raised).__name__}: {_brief(str(raised), 120)}"
                        if raised
                        else f"返回了 {typed(got)}"
                    )
                    + f"（调用了 {asked} 次）",
                    hint=(
                        "用完 max_attempts 次还解析不出来，就 raise"
                        " ValueError(最后一次的错误说明)，不要返回半成品或 None。"
                        if raised is None
                        else (
                            "用完 max_attempts 次后要 raise ValueError(…)，不是别的异常；也不要让循"
                            "环一直问下去。"
                        )
                    ),
                )
            last = failures[-1][1]
            if last not in str(raised):
                first = failures[0][1]
                raise check.fail(
                    case,
                    expected=f"ValueError 的信息里带上最后一次的错误说明：{last}",
                    got=f"ValueError: {_brief(str(raised), 200)}",
                    hint=(
                        "你带上的是第一次的错误说明，要的是最后一次的。"
                        if first != last and first in str(raised)
                        else (
                            'raise ValueError(f"…{error.message}")：把最后一次 ParseError 的'
                            " message 放进异常信息。"
                        )
                    ),
                )
        if asked != count:
            raise check.fail(
                case,
                expected=f"调用模型 {count} 次（{attempts_text(max_attempts)}）",
                got=f"调用了 {asked} 次",
                hint=(
                    f"{attempts_text(max_attempts)} 表示总共最多问 {limit} 次：不要写死次数，for _"
                    " in range(max_attempts)。"
                ),
            )
        for number in range(1, asked):
            problem = _appended_difference(client.requests[number], start, failures[:number])
            if problem:
                raise check.fail(
                    case,
                    expected=(
                        f"第 {number + 1} 次请求 = 原来的消息 + 每次失败追加的 assistant 原文和"
                        " user 错误说明"
                    ),
                    got=problem,
                    hint=(
                        '每次解析失败，在对话后面追加两条：{"role": "assistant", "content": 原文}、'
                        '{"role": "user", "content": error.message}，然后带着整个对话再问。'
                        + (
                            "原文就是 reply.content 本身：不要 strip()，不要截短，也不要只留 JSON"
                            " 那一段——模型要看到自己上次写了什么。"
                            if "原文" in problem
                            else ""
                        )
                    ),
                )
        check.ok(case, f"问了 {asked} 次，" + ("返回 ToolCall" if succeeds else "抛出 ValueError"))

    case = "模型直接用文字回答时返回 None"
    got, client, raised = run(case, ["你好！我是助手，有什么可以帮你？", _GOOD], 3)
    if raised is not None or got is not None or len(client.requests) != 1:
        raise check.fail(
            case,
            expected="返回 None，只调用模型 1 次",
            got=(f"抛出了 {type(raised).__name__}" if raised else f"返回 {typed(got)}")
            + f"，调用了 {len(client.requests)} 次",
            hint=(
                "parse_tool_call 返回 None 表示模型没想调用工具：这不是错误，直接返回 None，"
                "不要重试。"
            ),
        )
    check.ok(case)

    for case, model, attempts in (
        ("模拟器 course-sim:malformed_json：第一次回复被截断", "course-sim:malformed_json", 2),
        ("模拟器 course-sim:mixed：凌乱但能解析，一次成功", "course-sim:mixed", 1),
    ):
        client = _Recorder(offline_client(model))
        got = check.call(case, ask_for_tool_call, client, [dict(m) for m in start], max_attempts=3)
        if not _same_call(got, wanted) or len(client.requests) != attempts:
            raise check.fail(
                case,
                expected=f"{wanted}，调用模型 {attempts} 次",
                got=f"{typed(got)}，调用了 {len(client.requests)} 次",
                hint=(
                    "用 handwritten_agent.parsing.parse_tool_call 解析 reply.content；出错时追加"
                    " assistant 原文和 user 错误说明再问。"
                ),
            )
        check.ok(case, f"{attempts} 次请求后得到 {got.name}({got.arguments})")
    check.done()


# ---------------------------------------------------------------------------------------------
# 2.3 render_tool_prompt
# ---------------------------------------------------------------------------------------------


@exercise
def day2_render_tool_prompt(
    check: _Check, render_tool_prompt: Callable[[list[dict[str, Any]]], str]
) -> None:
    """Exercise 2.3: ``render_tool_prompt(tools) -> str`` from JSON Schemas; the simulator must then
    call the right tool.
    """
    __tracebackhide__ = True
    from ....parsing import parse_tool_call
    from ...offline.simulator.toolprompt import looks_like_tool_prompt, read_tool_prompt

    _callable(check.exercise, render_tool_prompt)
    client = offline_client("course-sim")
    rendered: dict[str, str] = {}  # prompt -> the label of the tools it was rendered for
    for label, tools, requests in PROMPT_TOOL_SETS:
        case = f"渲染{label}"
        given = json.loads(json.dumps(tools, ensure_ascii=False))
        before = snapshot(given)
        prompt = check.call(
            case,
            render_tool_prompt,
            given,
            given=f"{len(tools)} 个工具：{', '.join(t['name'] for t in tools)}",
            hint=(
                "tools 是一个列表，每个元素有 name、description、parameters（JSON Schema）；"
                "parameters 里可能没有 required，properties 也可能是空的。"
            ),
        )
        check.unchanged(
            case,
            before,
            given,
            "传入的 tools ",
            "渲染提示词只读 tools，不要改动它（例如 pop、del 或往 parameters 里写东西）。",
        )
        if not isinstance(prompt, str) or not prompt.strip():
            raise check.fail(
                case,
                expected="一段非空的提示词（str）",
                got=typed(prompt),
                hint="函数要 return 拼好的字符串。",
            )
        if prompt in rendered:
            raise check.fail(
                case,
                expected=(
                    f"为这组工具（{', '.join(t['name'] for t in tools) or '没有工具'}）新写的提示词"
                ),
                got=(
                    f"和前面渲染「{rendered[prompt]}」时返回的提示词一字不差"
                    f"（{len(prompt)} 个字符）"
                ),
                hint=(
                    "每次调用都要从这次传入的 tools 重新生成：不要把上一次的结果存在全局变量里，"
                    "也不要按工具个数、工具名这类只占输入一部分的键缓存——名字一样，描述和参数可能"
                    "已经变了。"
                ),
            )
        rendered[prompt] = label
        if not tools:
            if any(
                mentions(prompt, name)
                for _, other, _ in PROMPT_TOOL_SETS
                for name in (t["name"] for t in other)
            ):
                raise check.fail(
                    case,
                    expected="没有工具时不列出任何工具",
                    got=_short(prompt, 300),
                    hint="提示词要从传入的 tools 生成，不要写死工具。",
                )
            check.ok(case, "没有工具时也返回了提示词")
            continue
        for problem_case, expected, shown, hint in prompt_problems(prompt, tools):
            raise check.fail(f"{label}：{problem_case}", expected=expected, got=shown, hint=hint)
        check.ok(case, f"{len(prompt)} 个字符，名字、描述、类型、可选值、必填和回复格式都写到了")

        case = f"{label}：模拟器从提示词里读出的工具"
        reading = read_tool_prompt(prompt)
        if looks_like_tool_prompt(prompt):
            difference = reading_difference(tools, reading.tools)
        elif not reading.tools:
            difference = "模拟器没有把它当成工具提示词：一个工具也没有读出来"
        elif reading.tools_are_guessed:
            difference = (
                "模拟器没有把它当成工具提示词：只读出了“- 名字:"
                " 说明”这样的列表（很多提示词里的字段列表也长这样），"
                '提示词里又没有一个可以照着写的调用示例（一个完整的 JSON 对象，例如 {"name":'
                ' "get_weather", "arguments": {}}）'
            )
        else:
            difference = (
                "模拟器没有把它当成工具提示词：提示词里没有说要用 JSON 回复（写出“JSON”，并给一个"
                ' {"name": …, "arguments": {…}} 的例子）'
            )
        if difference:
            raise check.fail(
                case,
                expected="读出的工具、参数、类型、可选值和必填与 tools 一致",
                got=f"{difference}\n  模拟器读到的：{describe_reading(reading.tools)}",
                hint=(
                    "模拟器和真实模型一样，只能从你的提示词里了解工具。上面是它读出的和 tools 不一"
                    "致的地方："
                    "把这一处写清楚（名字和说明分开写，类型、可选值、必填逐个参数写出来）。"
                    "最不容易出错的写法，是把每个工具的 parameters 用 json.dumps(...,"
                    " ensure_ascii=False) 原样放进去。"
                ),
            )
        check.ok(case, "与 tools 一致")

        for request, name, arguments in requests:
            case = f"{label}：模拟器读你的提示词，回答“{request}”"
            expected = ToolCall.from_arguments(name, arguments)
            reply = client.complete(
                [{"role": "system", "content": prompt}, {"role": "user", "content": request}]
            )
            got = parse_tool_call(reply.content or "")
            spec = next(t for t in tools if t["name"] == name)
            if not fills_arguments(got, expected, spec):
                raise check.fail(
                    case,
                    given=request,
                    expected=expected,
                    got=reply.content,
                    hint=(
                        "模拟器按工具描述选工具、按参数描述和可选值填参数：确认这个工具的描述、"
                        "参数说明和可选值都完整写进去了，"
                        '并写明输出 {"name": …, "arguments": {…}} 这样的 JSON。'
                    ),
                )
            check.ok(case, f"{got.name}({got.arguments})")
    _long_description(check, render_tool_prompt)
    check.done()


def _long_description(check: _Check, render_tool_prompt: Callable[..., Any]) -> None:
    """A description of several lines is written out whole (silent when right): a prompt that keeps
    only its first line loses when to use the tool."""
    description = (
        "查询公司的报销制度。\n什么时候用：用户问能不能报销、报销上限、要交哪些票据时。\n"
        "不要用它查工资。"
    )
    tools = [
        {
            "name": "查询报销制度",
            "description": description,
            "parameters": {
                "type": "object",
                "properties": {"topic": {"type": "string", "description": "主题，例如：差旅"}},
                "required": ["topic"],
            },
        }
    ]
    case = "描述有好几行：每一行都写进提示词"
    prompt = check.call(case, render_tool_prompt, copy.deepcopy(tools), given=description)
    lost = [line for line in description.splitlines() if line not in str(prompt)]
    if lost:
        raise check.fail(
            case,
            given=description,
            expected="描述的每一行都在提示词里",
            got=f"缺少：{'；'.join(lost)}",
            hint=(
                "“完整描述”是整段 description：不要只取第一行（splitlines()[0]）或第一句；"
                "表格里放不下换行时，可以把换行换成空格或 <br>，但每一行的文字都要在。"
            ),
        )


__all__ = ["day2_extract_json", "day2_retry_on_parse_error", "day2_render_tool_prompt"]
