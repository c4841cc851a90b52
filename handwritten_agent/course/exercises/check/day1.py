"""Checkers for the Day 1 exercises (Agent 的解剖与裸调 API).

Left out: streaming over the network (1.2 gets the chunks already parsed) and retries (the ``llm``
module's job, not an exercise's).
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from typing import Any

from .framework import (
    _CALCULATOR_SCHEMA,
    _CHINESE,
    ExerciseFailed,
    _brief,
    _callable,
    _Check,
    _closed_port,
    _short,
    exercise,
    offline_base_url,
    refill,
    snapshot,
    text_difference,
    typed,
    value_difference,
)
from .servers import RecordingServer, raw_reply

# ---------------------------------------------------------------------------------------------
# 1.1 chat_once with raw httpx
# ---------------------------------------------------------------------------------------------

_ACCIDENTAL = (KeyError, IndexError, TypeError, AttributeError, ValueError)
"""What a learner's code raises when it parses an error body as if it were a reply (``KeyError:
'choices'`` …).
"""


def _request_problems(
    sent: dict[str, Any], base_path: str, api_key: str, wanted_body: dict[str, Any]
) -> tuple[list[str], list[str]]:
    """What differs between the recorded request and the one the task asks for: (problems,
    hints).
    """
    problems, hints = [], []
    wanted_path = base_path.rstrip("/") + "/chat/completions"
    path = sent["path"]
    if sent["method"] != "POST":
        problems.append(f"方法是 {sent['method']}，应该是 POST")
        hints.append("用 httpx.post(...) 发送。")
    if path != wanted_path:
        problems.append(f"路径是 {path}，应该是 {wanted_path}")
        if "//" in path:
            hints.append(
                '路径里出现了 //：base_url 以 / 结尾时，先 base_url.rstrip("/") 再拼'
                ' "/chat/completions"。'
            )
        elif path.endswith("/chat/completions"):
            hints.append(
                f"路径前缀要来自 base_url（这次是 {base_path.rstrip('/')}），不要把 /v1 之类写死。"
            )
        else:
            hints.append('URL 是 base_url + "/chat/completions"。')
    authorization = sent["headers"].get("authorization")
    if authorization != f"Bearer {api_key}":
        problems.append(f"Authorization 请求头是 {authorization!r}，应该是 {'Bearer ' + api_key!r}")
        if authorization is None:
            hints.append('请求头要带 {"Authorization": f"Bearer {api_key}"}。')
        elif api_key not in authorization:
            hints.append("Authorization 里要用传进来的 api_key，不要写死某个密钥。")
        else:
            hints.append('格式是 "Bearer " + api_key（Bearer 后面一个空格，前后没有别的字符）。')
    content_type = sent["headers"].get("content-type", "")
    if not content_type.startswith("application/json"):
        problems.append(
            f"Content-Type 是 {content_type!r}，应该是 application/json"
            if content_type
            else "没有 Content-Type 请求头，应该是 application/json"
        )
        hints.append(
            "用 json=body 发送请求体，httpx 会自动带上 Content-Type: application/json（用 data= 或"
            " content= 不会）。"
        )
    try:
        body = json.loads(sent["body"] or b"null")
    except ValueError:
        problems.append(
            f"请求体不是合法的 JSON：{_short(sent['body'][:200].decode('utf-8', 'replace'), 120)}"
        )
        hints.append("不要自己用字符串拼 JSON（引号、换行会出错）：把 dict 交给 json= 参数。")
        return problems, hints
    difference = value_difference(wanted_body, body)
    if difference:
        problems.append(f"请求体 {difference}")
        hints.append(
            '请求体只有两个键：{"model": model, "messages": [{"role": "user", "content":'
            " user_message}]}，"
            "model 和 user_message 都用传进来的参数。"
        )
    return problems, hints


def _status_failure_hint(exc: Exception, status: int) -> str:
    if isinstance(exc, KeyError):
        return (
            f'你的代码在检查状态码之前就去取 choices 了：HTTP {status} 的响应体是 {{"error": …}}，'
            "里面没有 choices。"
            "解析 JSON 之前先调用 response.raise_for_status()。"
        )
    return (
        f"HTTP {status} 时你的代码抛出了 {type(exc).__name__}，看不出是服务器报的错：解析 JSON"
        " 之前先调用 "
        "response.raise_for_status()（它抛出 httpx.HTTPStatusError，带着状态码）。"
    )


@exercise
def day1_raw_chat(check: _Check, chat_once: Callable[[str, str, str, str], str]) -> None:
    """Exercise 1.1: ``chat_once(base_url, api_key, model, user_message) -> str`` with raw
    ``httpx``.
    """
    __tracebackhide__ = True
    import httpx

    _callable(check.exercise, chat_once)
    check.forbid(
        "不用 SDK，直接用 httpx",
        chat_once,
        names=(),
        modules=("openai",),
        why=(
            "这道题要你亲手发 HTTP 请求：用 httpx.post，不要用 openai SDK（SDK "
            "把这些细节都藏起来了）。"
        ),
    )

    requests = (  # (case, path under the server, api_key, model, user_message)
        ("base_url 以 /v1 结尾", "/v1", "sk-check-123", "demo-model", "你好"),
        (  # a model name with capitals and a slash, as some providers write them: sent as given
            "base_url 末尾带 /，换一个密钥和模型",
            "/v1/",
            "sk-other-987",
            "Qwen/Qwen2.5-7B-Instruct",
            "在吗？",
        ),
        ("base_url 的路径不是 /v1", "/api/paas/v4", "sk-check-456", "glm-4-flash", "Hello"),
        (
            "消息里有引号、换行、反斜杠和花括号",
            "/v1",
            "sk-check-123",
            "demo-model",
            '他说："你好"\n第二行 \\ {x}',
        ),
    )
    check.keep_secret(*(api_key for _, _, api_key, _, _ in requests))  # never printed
    with RecordingServer() as server:
        for number, (case, base_path, api_key, model, message) in enumerate(requests):
            base_url = server.root + base_path
            got = check.call(
                case,
                chat_once,
                base_url,
                api_key,
                model,
                message,
                given=(base_url, api_key, model, message),
                hint=(
                    '用 httpx.post(url, json=body, headers={"Authorization": f"Bearer '
                    '{api_key}"})；'
                    "异常信息里的那一行就是出错的地方。"
                ),
            )
            if len(server.requests) <= number:
                raise check.fail(
                    case,
                    given=base_url,
                    expected='向 base_url + "/chat/completions" 发一个 POST 请求',
                    got="服务器没有收到任何请求",
                    hint="确认函数里真的用 httpx.post 发出了请求，而不是返回了一个写好的字符串。",
                )
            if len(server.requests) > number + 1:
                raise check.fail(
                    case,
                    given=base_url,
                    expected="只发 1 个请求",
                    got=f"发了 {len(server.requests) - number} 个请求",
                    hint="一次 chat_once 只发一个 POST 请求。",
                )
            sent = server.requests[number]
            problems, hints = _request_problems(
                sent,
                base_path,
                api_key,
                {"model": model, "messages": [{"role": "user", "content": message}]},
            )
            if problems:
                raise check.fail(
                    case,
                    given=(base_url, api_key, model, message),
                    expected=(
                        "POST {base_url}/chat/completions，Authorization: Bearer <api_key>，JSON"
                        " 请求体只有 model 和 messages"
                    ),
                    got="；".join(problems),
                    hint=" ".join(dict.fromkeys(hints)),
                )
            wanted = server.reply_for(number)
            if not (isinstance(got, str) and got == wanted):
                raise check.fail(
                    case,
                    expected=f"str: {wanted!r}",
                    got=typed(got),
                    hint=(
                        "要返回回复的文本本身："
                        'response.json()["choices"][0]["message"]["content"]，'
                        "不是整个 JSON，也不是 message 字典。"
                        if not isinstance(got, str)
                        else f"原样返回服务器回复的 content（{text_difference(wanted, got)}）。"
                    ),
                )
            check.ok(case, f"POST {sent['path']}")

    base_url = offline_base_url()
    for case, message in (
        ("模拟器：中文问候", "你好！"),
        ("模拟器：英文提问，回复也跟着变", "Hello, what can you do?"),
    ):
        expected = raw_reply(base_url, "course-sim", message)
        got = check.call(
            case, chat_once, base_url, "sk-offline-demo", "course-sim", message, given=message
        )
        if not (isinstance(got, str) and got == expected):
            raise check.fail(
                case,
                given=message,
                expected=expected,
                got=typed(got),
                hint=(
                    "要返回的是回复的文本（str）。"
                    if not isinstance(got, str)
                    else (
                        "请求里要带上这次的 user_message，并原样返回"
                        f" content（{text_difference(expected, got)}）。"
                    )
                ),
            )
        check.ok(
            case,
            (
                _brief(got, 50)
                if re.search(r"[\u4e00-\u9fff]", got)
                else f"回复和提问一样用了英文（{len(got)} 个字符）"
            ),
        )

    errors = (  # (case, model on the simulator or None for the recording server, status)
        ("HTTP 500 服务器出错（模拟器 course-sim:server_error）", "course-sim:server_error", 500),
        ("HTTP 404 模型不存在（模拟器 course-sim:no_such_model）", "course-sim:no_such_model", 404),
        ("HTTP 401 密钥被拒绝", None, 401),
    )
    for case, model, status in errors:
        with RecordingServer(status=status, error="Incorrect API key provided.") as failing:
            url = base_url if model else failing.root + "/v1"
            exc = check.raises(
                case,
                chat_once,
                url,
                "sk-offline-demo",
                model or "demo-model",
                "你好",
                expected=Exception,
                given=f"{url}（模型 {model or 'demo-model'}）",
                want=f"抛出一个说明 HTTP {status} 的异常（例如 httpx.HTTPStatusError）",
                hint_returned=(
                    "不要吞掉错误、返回一段文字或 None：解析 JSON 之前先调用"
                    " response.raise_for_status()。"
                ),
                hint_other="",
            )
        if isinstance(exc, httpx.HTTPStatusError) and exc.response.status_code == status:
            check.ok(case, f"抛出了 httpx.HTTPStatusError（HTTP {status}）")
        elif not isinstance(exc, (*_ACCIDENTAL, httpx.HTTPStatusError)) and str(status) in str(exc):
            check.ok(case, f"抛出了 {type(exc).__name__}，信息里有 {status}")
        else:
            raise check.fail(
                case,
                expected=(
                    f"抛出说明 HTTP {status} 的异常（httpx.HTTPStatusError，或信息里带 {status} "
                    "的异常）"
                ),
                got=f"抛出了 {type(exc).__name__}: {_brief(str(exc), 160)}",
                hint=_status_failure_hint(exc, status),
            )
    check.done()


# ---------------------------------------------------------------------------------------------
# 1.2 assemble_stream
# ---------------------------------------------------------------------------------------------


def _chunk(
    delta: dict[str, Any] | None = None,
    finish_reason: str | None = None,
    *,
    choices: bool = True,
    usage: dict[str, int] | None = None,
) -> dict[str, Any]:
    chunk: dict[str, Any] = {
        "id": "chatcmpl-demo",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "course-sim",
        "choices": (
            [{"index": 0, "delta": delta or {}, "finish_reason": finish_reason}] if choices else []
        ),
    }
    if usage is not None:
        chunk["usage"] = usage
    return chunk


def _piece(
    index: int, *, id: Any = "-", name: Any = "-", arguments: str | None = ""
) -> dict[str, Any]:
    """One tool-call fragment; ``id``/``name`` left as "-" are absent, as in later fragments of
    OpenAI's stream.
    """
    fragment: dict[str, Any] = {"index": index, "function": {}}
    if id != "-":
        fragment.update(id=id, type="function")
    if name != "-":
        fragment["function"]["name"] = name
    if arguments is not None:
        fragment["function"]["arguments"] = arguments
    return fragment


def _calls(*pieces: dict[str, Any]) -> dict[str, Any]:
    return _chunk({"tool_calls": list(pieces)})


def _call(id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"id": id, "type": "function", "function": {"name": name, "arguments": arguments}}


def _result(content: str, calls: list[dict[str, Any]], finish: str | None) -> dict[str, Any]:
    return {"content": content, "tool_calls": calls, "finish_reason": finish}


_USAGE = {"prompt_tokens": 9, "completion_tokens": 7, "total_tokens": 16}


def _stream_cases() -> list[tuple[str, list[dict[str, Any]], dict[str, Any]]]:
    start = _chunk({"role": "assistant", "content": ""})
    text = [
        start,
        _chunk({"content": "你好"}),
        _chunk({"content": None}),
        _chunk({}),
        _chunk({"content": "，我是"}),
        _chunk({"content": "课程模拟器。"}),
        _chunk({}, "stop"),
    ]
    weather = '{"city": "北京", "note": "他说\\"带伞\\"\\u3002"}'
    no_content = (
        '有的块的 delta 里没有 content，或者 content 是 None：用 delta.get("content") 并跳过 None。'
    )
    no_choices = (
        '最后一块的 choices 是空列表 []：不要直接取 chunk["choices"][0]，先判断有没有 choices。'
    )
    fragments = (
        "arguments 的片段不是完整的 JSON（可能断在任何地方）：只拼接文本，不要逐片 json.loads。"
    )
    nulls = (
        "后面的片里 id 可能是空字符串、name 可能是 None：None 不能拼到字符串上，只在有值时才记下。"
    )
    return [
        (
            "纯文本的流（有的块没有 content，或是 None）",
            text,
            _result("你好，我是课程模拟器。", [], "stop"),
            no_content,
        ),
        (
            "最后一块只有 usage、choices 是空列表",
            text + [_chunk(choices=False, usage=_USAGE)],
            _result("你好，我是课程模拟器。", [], "stop"),
            no_choices,
        ),
        (
            "回复太长被截断：finish_reason 是 length",
            [
                start,
                _chunk({"content": "第一章 从前有座山，"}),
                _chunk({"content": "山里有座"}),
                _chunk({}, "length"),
            ],
            _result("第一章 从前有座山，山里有座", [], "length"),
            no_content,
        ),
        (
            "没有任何块（空列表）",
            [],
            _result("", [], None),
            'chunks 是空列表时，返回 content 为 ""、tool_calls 为 []、finish_reason 为 None。',
        ),
        (
            "一个工具调用，参数分成几片（有一片断在转义符中间）",
            [
                _chunk({"role": "assistant", "content": None}),
                _calls(_piece(0, id="call_a1", name="get_weather")),
                _calls(_piece(0, arguments='{"ci')),
                _calls(_piece(0, arguments='ty": "北京", "note": "他说\\')),
                _calls(_piece(0, arguments='"带伞\\"\\u30')),
                _calls(_piece(0, arguments='02"}')),
                _chunk({}, "tool_calls"),
            ],
            _result("", [_call("call_a1", "get_weather", weather)], "tool_calls"),
            fragments,
        ),
        (
            "整个参数在第一片里就到齐了",
            [
                _chunk({"role": "assistant", "content": None}),
                _calls(
                    _piece(0, id="call_x9", name="calculate", arguments='{"expression": "17 * 9"}')
                ),
                _chunk({}, "tool_calls"),
            ],
            _result("", [_call("call_x9", "calculate", '{"expression": "17 * 9"}')], "tool_calls"),
            "带着 id 和 name 的第一片里，arguments 可能已经是完整的参数：第一片的 arguments "
            "也要拼进去。",
        ),
        (
            "两个并行的工具调用，片段交错到达",
            [
                _chunk({"role": "assistant", "content": None}),
                _calls(_piece(0, id="call_t1", name="get_time")),
                _calls(_piece(1, id="call_c2", name="calculate")),
                _calls(_piece(0, arguments="{}")),
                _calls(_piece(1, arguments='{"expression": ')),
                _calls(_piece(1, arguments='"17 * 9"}')),
                _chunk({}, "tool_calls"),
            ],
            _result(
                "",
                [
                    _call("call_t1", "get_time", "{}"),
                    _call("call_c2", "calculate", '{"expression": "17 * 9"}'),
                ],
                "tool_calls",
            ),
            "每个片段属于它 index 对应的那个调用：用 dict 按 index 找到调用再拼接。",
        ),
        (
            "先说一句话再调用三个工具；后面的片里 id 是空字符串、name 是 "
            "null（有的兼容服务这样发）",
            [
                _chunk({"role": "assistant", "content": "我来"}),
                _chunk({"content": "查一下。"}),
                _calls(_piece(0, id="call_b", name="get_weather", arguments='{"city": ')),
                _calls(
                    _piece(0, id="", name=None, arguments='"上海"}'),
                    _piece(1, id="call_c", name="get_weather", arguments=""),
                ),
                _calls(_piece(1, id="", name=None, arguments='{"city": "广州"}')),
                _calls(_piece(2, id="call_d", name="get_time", arguments=None)),
                _calls(_piece(2, id=None, name="", arguments="{}")),
                _chunk({}, "tool_calls"),
                _chunk(choices=False, usage=_USAGE),
            ],
            _result(
                "我来查一下。",
                [
                    _call("call_b", "get_weather", '{"city": "上海"}'),
                    _call("call_c", "get_weather", '{"city": "广州"}'),
                    _call("call_d", "get_time", "{}"),
                ],
                "tool_calls",
            ),
            nulls,
        ),
        (
            "每一片都重复完整的 name 和 id（有的服务器这样发），name 是中文的",
            [
                _chunk({"role": "assistant", "content": None}),
                _calls(_piece(0, id="call_n1", name="查询_weather", arguments='{"city"')),
                _calls(_piece(0, id="call_n1", name="查询_weather", arguments=': "北京"}')),
                _calls(_piece(0, id="call_n1", name="查询_weather", arguments="")),
                _chunk({}, "tool_calls"),
            ],
            _result("", [_call("call_n1", "查询_weather", '{"city": "北京"}')], "tool_calls"),
            "name 只能赋值，不能追加：有的服务器在每一片里都重复完整的 name（OpenAI 只在第一片里"
            "发一次），用 += 拼接就成了两遍的名字；只在片段里有非空的 name 时把它记下（=）。",
        ),
        (
            "index 大的先到：index 1 的片段先来，index 0 的后来",
            [
                _chunk({"role": "assistant", "content": None}),
                _calls(_piece(1, id="call_z1", name="订单_query", arguments='{"id": ')),
                _calls(_piece(0, id="call_z0", name="get_time", arguments="{}")),
                _calls(_piece(1, arguments='"Ａ１"}')),
                _chunk({}, "tool_calls"),
            ],
            _result(
                "",
                [
                    _call("call_z0", "get_time", "{}"),
                    _call("call_z1", "订单_query", '{"id": "Ａ１"}'),
                ],
                "tool_calls",
            ),
            "tool_calls 要按 index 从小到大排（[calls[i] for i in sorted(calls)]），不是按第一片"
            "到达的先后。",
        ),
    ]


_QUIET_STREAMS = ("每一片都重复完整的 name", "index 大的先到")
"""Stream cases that print nothing when they pass (added after the notebooks' outputs were kept)."""


def _normalize_stream_result(value: Any) -> tuple[dict[str, Any] | None, str]:
    """The learner's result in the shape the expected one has (``content`` None → "", missing
    ``type`` → "function"), or ``(None, what is wrong with its shape)``. Reads the value only after
    checking each type."""
    if not isinstance(value, dict):
        return None, f"返回值应该是 dict，实际是 {typed(value, 80)}"
    missing = [key for key in ("content", "tool_calls", "finish_reason") if key not in value]
    if missing:
        return (
            None,
            (
                "返回的 dict 缺少键"
                f" {', '.join(map(repr, missing))}（有的键："
                f"{', '.join(map(repr, list(value)[:8]))}）"
            ),
        )
    content, calls = value["content"], value["tool_calls"]
    if content is not None and not isinstance(content, str):
        return None, f"content 应该是 str，实际是 {typed(content, 80)}"
    if not isinstance(calls, list):
        return None, (
            f"tool_calls 应该是按 index 排好的 list，实际是 {typed(calls, 80)}"
            + (
                "（如果你用 dict 按 index 收集，最后要转成 list：[calls[i] for i in "
                "sorted(calls)]）"
                if isinstance(calls, dict)
                else ""
            )
        )
    normalized = []
    for position, call in enumerate(calls):
        if not isinstance(call, dict):
            return None, f"tool_calls[{position}] 应该是 dict，实际是 {typed(call, 80)}"
        function = call.get("function")
        if not isinstance(function, dict):
            return (
                None,
                (
                    f'tool_calls[{position}]["function"] 应该是 dict（含 name 和 arguments），实际'
                    f"是 {typed(function, 80)}"
                ),
            )
        normalized.append(
            {
                "id": call.get("id"),
                "type": call.get("type", "function"),
                "function": {"name": function.get("name"), "arguments": function.get("arguments")},
            }
        )
    return {
        "content": content or "",
        "tool_calls": normalized,
        "finish_reason": value["finish_reason"],
    }, ""


def _stream_hint(difference: str, expected: dict[str, Any], got: dict[str, Any]) -> str:
    """A hint from where the learner's result differs from the expected one."""
    calls = expected["tool_calls"]
    if len(calls) > 1 and len(got["tool_calls"]) == len(calls) and "['arguments']" in difference:
        return (
            "并行调用的片段是交错到达的：每一片要拼到它自己 index 对应的调用上（用 dict 按 index"
            " 查找），"
            "不要总拼到最后一个打开的调用上。"
        )
    if difference.startswith("['content']"):
        return '把每块 choices[0]["delta"]["content"] 依次拼起来；没有 content 或是 None 的块跳过。'
    if difference.startswith("['finish_reason']"):
        return (
            "finish_reason 要从块里读（最后一块 choice 里不为 None 的那个），可能是 stop、"
            "tool_calls 或 length，不要自己推断；"
            "没有任何块时是 None。"
        )
    if difference.startswith("['tool_calls'] 应该有"):
        return (
            "每个不同的 index 是一个工具调用：用一个 dict 按 index 收集，最后按 index 排序成 list；"
            "不要只处理第一个调用，也不要每来一片就新建一个调用。"
        )
    if "['arguments']" in difference:
        return (
            "同一个 index 的 arguments 片段要依次拼接（+=），不要覆盖，也不要逐片"
            " json.loads；整个参数也可能在第一片里一次到齐。"
        )
    if "['id']" in difference or "['name']" in difference:
        return (
            "id 和 name 只在某个调用的第一片里有值：后面的片里它们没有、是 None 或空字符串，"
            "只在片段里真的有值时才记下，不要被后面的空值覆盖。"
        )
    if "['type']" in difference:
        return '每个工具调用的 type 是 "function"。'
    return "对照练习说明里的返回格式检查每个字段。"


def _independent_streams(check: _Check, assemble_stream: Callable[..., Any]) -> None:
    """The same list object given another stream, and streams in another order: each assembled from
    its own chunks (silent when right)."""

    def text(words: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        chunks = [_chunk({"role": "assistant", "content": ""}), _chunk({"content": words})]
        return chunks + [_chunk({}, "stop")], _result(words, [], "stop")

    def asks(name: str, city: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        arguments = json.dumps({"city": city}, ensure_ascii=False)
        chunks = [
            _calls(_piece(0, id=f"call_{len(city)}", name=name, arguments=arguments[:5])),
            _calls(_piece(0, arguments=arguments[5:])),
            _chunk({}, "tool_calls"),
        ]
        return chunks, _result("", [_call(f"call_{len(city)}", name, arguments)], "tool_calls")

    picked = [
        text("北京晴。"),
        text("上海阴。"),
        asks("查询_weather", "北京"),
        asks("天气_query", "乌鲁木齐"),
        text("北京晴。"),
    ]
    kept: list[dict[str, Any]] = []

    def same_list(chunks: list[dict[str, Any]]) -> Callable[[], Any]:
        return lambda: _normalize_stream_result(
            assemble_stream(refill(kept, json.loads(json.dumps(chunks))))
        )[0]

    runs = [
        (f"同一个列表换了内容（第 {number} 段流）", same_list(chunks), expected)
        for number, (chunks, expected) in enumerate(picked, 1)
    ]
    check.independent(
        "同一个列表换了内容再调用",
        runs,
        hint="每次都从这一次传进来的 chunks 重新拼：不要按 id(chunks) 或长度缓存上一次的结果。",
    )


@exercise
def day1_assemble_stream(
    check: _Check, assemble_stream: Callable[[list[dict[str, Any]]], dict[str, Any]]
) -> None:
    """Exercise 1.2: ``assemble_stream(chunks) -> {"content", "tool_calls", "finish_reason"}`` from
    SSE chunk dicts.
    """
    __tracebackhide__ = True
    from .servers import live_stream

    _callable(check.exercise, assemble_stream)

    def live_cases() -> list[tuple[str, list[dict[str, Any]], dict[str, Any], str]]:
        found = []
        for case, body in (
            (
                "真实的流：模拟器的文字回答",
                {
                    "model": "course-sim",
                    "messages": [{"role": "user", "content": "你好，请介绍一下你自己"}],
                },
            ),
            (
                "真实的流：模拟器的工具调用",
                {
                    "model": "course-sim",
                    "tools": [_CALCULATOR_SCHEMA],
                    "messages": [{"role": "user", "content": "帮我算一下 (12 + 34) * 2"}],
                },
            ),
        ):
            chunks, expected = live_stream(offline_base_url(), body)
            found.append(
                (
                    case,
                    chunks,
                    _normalize_stream_result(expected)[0],
                    "这是模拟器真实的流：把这些块打印出来看一看。",
                )
            )
        return found

    def run(
        case: str,
        chunks: list[dict[str, Any]],
        expected: dict[str, Any],
        hint: str,
        quiet: bool = False,
    ) -> None:
        given = [json.loads(json.dumps(chunk)) for chunk in chunks]
        before = snapshot(given)
        got = check.call(
            case,
            assemble_stream,
            given,
            given=f"{len(chunks)} 个 chunk",
            hint=hint + "（异常信息里的那一行就是出错的地方。）",
        )
        check.unchanged(
            case,
            before,
            given,
            "传入的 chunks ",
            "不要修改传入的 chunks：例如把第一片的 dict 直接当成正在拼的调用，再往里 += 参数，就改"
            "掉了输入。"
            "新建你自己的 dict 来收集。",
        )
        normalized, problem = _normalize_stream_result(got)
        if normalized is None:
            raise check.fail(
                case,
                given=f"{len(chunks)} 个 chunk",
                expected=(
                    '{"content": str, "tool_calls": [{"id", "type", "function": {"name",'
                    ' "arguments"}}], "finish_reason": …}'
                ),
                got=problem,
                hint="按练习说明里的格式返回一个 dict。",
            )
        difference = value_difference(expected, normalized)
        if difference:
            raise check.fail(
                case,
                given=f"{len(chunks)} 个 chunk",
                expected=_short(expected, 400),
                got=difference,
                hint=_stream_hint(difference, expected, normalized),
            )
        calls = expected["tool_calls"]
        if quiet:  # a case added later prints nothing, so a correct answer's output stays
            return
        check.ok(
            case,
            f"{len(chunks)} 块 → "
            + (f"{len(calls)} 个工具调用" if calls else f"文本 {_brief(expected['content'], 24)!r}")
            + f"，finish_reason={expected['finish_reason']}",
        )

    cases = _stream_cases()
    for case, chunks, expected, hint in cases:
        run(case, chunks, expected, hint, quiet=case.startswith(_QUIET_STREAMS))
    _independent_streams(check, assemble_stream)
    for case, chunks, expected, hint in live_cases():  # fetched only when the hand-made cases pass
        run(case, chunks, expected, hint)
    check.done()


# ---------------------------------------------------------------------------------------------
# 1.3 explain_error
# ---------------------------------------------------------------------------------------------

_VARIABLES = ("LLM_API_KEY", "LLM_MODEL", "LLM_BASE_URL", "LLM_TIMEOUT")
_QUIET = "\0"
"""Ends the name of a case added later, which prints nothing when it passes (a passing check's
output stays as it was)."""
# what a message must say besides the variable, in any words: (name shown in the hint, pattern)
_MEANINGS = {
    "超时": re.compile(
        r"超时|超过.{0,6}(?:时间|秒)|太久|太慢|时间(?:太|过)长|没(?:有)?(?:在.{0,8})?(?:及时)?(?:响"
        r"应|回应|回复|返回)|time(?:d)?\s*-?out",
        re.I,
    ),
    "稍后": re.compile(
        r"稍后|稍等|等(?:一)?(?:会儿?|下|等|待)|过(?:一)?(?:会儿?|阵子?|段时间)|一段时间|之后再|晚"
        r"些|晚点|再试|重试|"
        r"降低.{0,4}频率|放慢|慢一点|限流|retry|later|wait|back\s*off",
        re.I,
    ),
}


def _says(text: str, word: str) -> bool:
    """``text`` says ``word``: a variable name literally, a meaning (超时、稍后) in any of its usual
    wordings.
    """
    pattern = _MEANINGS.get(word)
    return bool(pattern.search(text)) if pattern else word in text


def _status_error(
    cls: type, status: int, message: str, *, headers: dict[str, str] | None = None
) -> Any:
    import httpx

    body = {
        "error": {"message": message, "type": "invalid_request_error", "param": None, "code": None}
    }
    request = httpx.Request("POST", "https://api.example.com/v1/chat/completions")
    response = httpx.Response(status, request=request, json=body, headers=headers)
    return cls(f"Error code: {status} - {body}", response=response, body=body["error"])


def _sdk_error(model: str, *, base_url: str | None = None, timeout: float = 10.0) -> Exception:
    """The exception the official SDK really raises for this request (no retries)."""
    import openai

    sdk = openai.OpenAI(
        base_url=base_url or offline_base_url(),
        api_key="sk-offline-demo",
        timeout=timeout,
        max_retries=0,
    )
    fresh = (  # a request the server has not seen: rate_limit answers 429 to each new one once
        f"你好（{uuid.uuid4().hex[:8]}）"
    )
    try:
        sdk.chat.completions.create(model=model, messages=[{"role": "user", "content": fresh}])
    except openai.OpenAIError as exc:
        return exc
    raise RuntimeError(f"expected the request with model {model!r} to fail, but it succeeded")


def _from_server(status: int, message: str, headers: dict[str, str] | None = None) -> Exception:
    """The SDK's exception for a real HTTP response with this status, body and headers."""
    with RecordingServer(status=status, error=message, headers=headers) as server:
        return _sdk_error("demo-model", base_url=server.root + "/v1")


def _explain_cases() -> list[
    tuple[str, Callable[[], Exception], tuple[str, ...], tuple[str, ...], str]
]:
    """(case, make the exception, words the explanation needs, words that point the wrong way, what
    the error means).
    """
    import httpx
    import openai

    request = httpx.Request("POST", "https://api.example.com/v1/chat/completions")
    key, model, url, timeout = _VARIABLES
    return [
        (
            "401 密钥错误（SDK 真实收到的 401）",
            lambda: _from_server(401, "Incorrect API key provided: sk-offl****demo."),
            (key,),
            (model, timeout, "超时"),
            "401 说明服务器不认这个密钥",
        ),
        (
            "401 密钥错误（另一种说法）",
            lambda: _status_error(
                openai.AuthenticationError, 401, "Authentication Fails (no such user)"
            ),
            (key,),
            (model, timeout, "超时"),
            "401 说明服务器不认这个密钥",
        ),
        (
            "401 密钥错误（中文服务商的说法）" + _QUIET,
            lambda: _status_error(
                openai.AuthenticationError, 401, "身份验证失败：令牌已过期或验证不正确。"
            ),
            (key,),
            (model, timeout, "超时"),
            "401 说明服务器不认这个密钥",
        ),
        (
            "404 模型不存在（真实请求 course-sim:no_such_model）",
            lambda: _sdk_error("course-sim:no_such_model"),
            (model,),
            (key, timeout, "超时"),
            "404 多半是模型名写错了",
        ),
        (
            "404 模型不存在（另一家服务商的说法）",
            lambda: _status_error(
                openai.NotFoundError,
                404,
                "The model `gpt-5o` does not exist or you do not have access to it.",
            ),
            (model,),
            (key, timeout, "超时"),
            "404 多半是模型名写错了",
        ),
        (
            "404 模型不存在（中文和全角的说法）" + _QUIET,
            lambda: _status_error(
                openai.NotFoundError, 404, "模型 ｑｗｅｎ-ＭＡＸ-最新版 不存在，请检查模型名称。"
            ),
            (model,),
            (key, timeout, "超时"),
            "404 多半是模型名写错了",
        ),
        (
            "连接被拒绝（真实请求一个没人监听的端口）",
            lambda: _sdk_error("course-sim", base_url=f"http://127.0.0.1:{_closed_port()}/v1"),
            (url,),
            (key, model, timeout),
            "连不上服务器：地址、端口或 /v1 不对，或者服务没启动",
        ),
        (
            "连接失败（SDK 的 APIConnectionError）",
            lambda: openai.APIConnectionError(message="Connection error.", request=request),
            (url,),
            (key, model, timeout),
            "连不上服务器：地址、端口或 /v1 不对，或者服务没启动",
        ),
        (
            "超时（真实请求 course-sim:slow，timeout=0.3 秒）",
            lambda: _sdk_error("course-sim:slow", timeout=0.3),
            (timeout, "超时"),
            (key, model),
            "请求超时（APITimeoutError 是 APIConnectionError 的子类：要先判断超时）",
        ),
        (
            "超时（SDK 的 APITimeoutError）",
            lambda: openai.APITimeoutError(request=request),
            (timeout, "超时"),
            (key, model),
            "请求超时（APITimeoutError 是 APIConnectionError 的子类：要先判断超时）",
        ),
        (
            "429 请求太频繁（真实请求 course-sim:rate_limit）",
            lambda: _sdk_error("course-sim:rate_limit"),
            ("稍后",),
            (model, url, timeout),
            "429 是限流，不是密钥、模型或地址的问题",
        ),
        (
            "429 请求太频繁（响应头 Retry-After: 20）",
            lambda: _from_server(429, "Rate limit reached for requests", {"Retry-After": "20"}),
            ("稍后",),
            (model, url, timeout),
            "429 是限流，不是密钥、模型或地址的问题",
        ),
    ]


def _raised_hint(exc: Exception) -> str:
    if isinstance(exc, AttributeError) and "status_code" in str(exc):
        return (
            "连接错误和超时没有 HTTP 状态码（没有 status_code 属性）：先用 isinstance"
            " 判断异常的类型，再读它的属性。"
        )
    if isinstance(exc, KeyError):
        return (
            "按 type(exc) 查表只认得表里那几种类型：用 isinstance 逐个判断（子类也算），"
            "最后留一个兜底分支。"
        )
    return (
        "你的函数遇到这种异常时自己抛出了异常：用 isinstance 判断类型，任何异常都要返回一段文字。"
    )


_ESCAPED = re.compile(r"\\u[0-9a-fA-F]{4}")


def _escaped(exc: Exception, got: Any) -> str | None:
    """A ``\\uXXXX`` escape in the explanation that the error's own text does not have: Chinese
    shown escaped (``json.dumps`` without ``ensure_ascii=False``). None when there is none."""
    if not isinstance(got, str):
        return None
    found = _ESCAPED.search(got)
    return found.group() if found is not None and found.group() not in str(exc) else None


def _fail_escaped(check: _Check, case: str, given: str, got: str, escape: str) -> ExerciseFailed:
    return check.fail(
        case,
        given=given,
        expected="中文原样出现在说明里",
        got=f"说明里有 {escape} 这样的转义：{_brief(got, 120)}",
        hint=(
            "json.dumps 默认把中文写成 \\uXXXX：要把错误内容放进说明，就用"
            " json.dumps(..., ensure_ascii=False)，或直接用 exc.message / str(exc)。"
        ),
    )


_SENTENCE_HANZI = 4
"""How many Chinese characters a message needs at least to count as a Chinese sentence."""


def _chinese_sentence(value: Any) -> bool:
    return isinstance(value, str) and len(_CHINESE.findall(value)) >= _SENTENCE_HANZI


def _too_short(value: Any) -> str:
    """Why a string is not yet a Chinese sentence, with the rule (empty when it is one)."""
    if not isinstance(value, str):
        return ""
    count = len(_CHINESE.findall(value))
    if count >= _SENTENCE_HANZI:
        return ""
    return (
        f"检查把至少 {_SENTENCE_HANZI} 个汉字的文字算作一句中文说明，你的只有 {count} 个汉字"
        f"（{value!r}）：写成完整的一句话，说出了什么问题、该怎么改。"
    )


@exercise
def day1_explain_error(check: _Check, explain_error: Callable[[Exception], str]) -> None:
    """Exercise 1.3: ``explain_error(exc) -> str``, a Chinese message naming the ``.env`` variable
    to fix.
    """
    __tracebackhide__ = True
    import openai

    _callable(check.exercise, explain_error)
    for case, make_error, must, must_not, meaning in _explain_cases():
        case, quiet = case.removesuffix(_QUIET), case.endswith(_QUIET)
        exc = make_error()
        got = check.call(
            case,
            explain_error,
            exc,
            given=f"{type(exc).__name__}: {_brief(str(exc), 100)}",
            hint=_raised_hint,
        )
        given = f"{type(exc).__name__}: {_brief(str(exc), 100)}"
        if not _chinese_sentence(got):
            raise check.fail(
                case,
                given=given,
                expected=f"一句中文说明（str，至少 {_SENTENCE_HANZI} 个汉字）",
                got=typed(got),
                hint=_too_short(got)
                or "返回一句中文（str），说清楚出了什么问题、该改 .env 里的哪个变量。",
            )
        escape = _escaped(exc, got)
        if escape:
            raise _fail_escaped(check, case, given, got, escape)
        missing = [word for word in must if not _says(got, word)]
        if missing:
            named = [word for word in _VARIABLES if word in got]
            hint = (
                f"{meaning}：说明里要提到 "
                + "、".join(w if w in _VARIABLES else f"“{w}”的意思（怎么说都行）" for w in missing)
                + "。"
            )
            if named:
                hint += (
                    f"你的说明提到的是 {'、'.join(named)}："
                    "看看判断顺序和 isinstance 的类型是不是对应上了。"
                )
            if isinstance(exc, openai.APITimeoutError):
                hint += (
                    "注意 openai.APITimeoutError 是 openai.APIConnectionError 的子类："
                    "先判断超时，再判断连接错误。"
                )
            raise check.fail(
                case, given=given, expected=f"提到 {'、'.join(must)}", got=got, hint=hint
            )
        wrong = [word for word in must_not if word in got]
        if wrong:
            raise check.fail(
                case,
                given=given,
                expected=f"只指向该改的地方（{'、'.join(must)}），不提 {'、'.join(wrong)}",
                got=got,
                hint=(
                    f"{meaning}，说明里却提到了 {'、'.join(wrong)}：每种错误只说它该改的那个变量，"
                    "把所有变量都列一遍等于什么都没说。"
                ),
            )
        if not quiet:
            check.ok(case, f"{type(exc).__name__} → {_brief(got, 40)}")

    others: list[tuple[str, Callable[[], Exception]]] = [
        (
            "HTTP 500（真实请求 course-sim:server_error）",
            lambda: _sdk_error("course-sim:server_error"),
        ),
        (
            "HTTP 400（SDK 的 BadRequestError）",
            lambda: _status_error(openai.BadRequestError, 400, "Invalid 'messages': empty array."),
        ),
        (
            "HTTP 400（中文信息，里面有 4010 这个数）" + _QUIET,
            lambda: _status_error(
                openai.BadRequestError, 400, "max_tokens 的取值 4010 超出了上限，请改小后重试。"
            ),
        ),
        ("不是 SDK 的异常：ValueError", lambda: ValueError("something unexpected")),
        (
            "HTTP 503（中文信息；和 500 是同一种异常）" + _QUIET,
            lambda: _status_error(
                openai.InternalServerError, 503, "上游服务暂时不可用：网关 β-接口 重置了连接。"
            ),
        ),
        (
            "同一种异常再来一次：ValueError（另一句话）" + _QUIET,
            lambda: ValueError("配置文件缺少字段 甲-7"),
        ),
        ("没有任何信息的异常：RuntimeError()", lambda: RuntimeError()),
    ]
    earlier: list[Exception] = []
    for case, make_error in others:
        case, quiet = case.removesuffix(_QUIET), case.endswith(_QUIET)
        exc = make_error()
        got = check.call(
            f"其他异常：{case}",
            explain_error,
            exc,
            given=f"{type(exc).__name__}: {_brief(str(exc), 100)}",
            hint=(
                "最后加一个兜底分支：任何异常都返回一句话（例如"
                ' f"调用模型失败：{type(exc).__name__}: {exc}"），不要再抛出。'
            ),
        )
        if not _chinese_sentence(got):
            raise check.fail(
                f"其他异常：{case}",
                given=f"{type(exc).__name__}: {str(exc)!r}",
                expected=f"一句中文说明（str，至少 {_SENTENCE_HANZI} 个汉字）",
                got=typed(got),
                hint=_too_short(got)
                + (
                    "异常的 str 可能是空的：不要只返回 str(exc)，"
                    if isinstance(got, str) and not got.strip()
                    else ""
                )
                + '兜底分支也要返回一句中文，例如 f"调用模型失败：{type(exc).__name__}: {exc}"。',
            )
        given = f"{type(exc).__name__}: {_brief(str(exc), 100)}"
        escape = _escaped(exc, got)
        if escape:
            raise _fail_escaped(check, f"其他异常：{case}", given, got, escape)
        wrong = [name for name in _VARIABLES[:2] + _VARIABLES[3:] if name in got]
        if wrong and not any(name in str(exc) for name in wrong):
            raise check.fail(
                f"其他异常：{case}",
                given=given,
                expected=(
                    "不指向 LLM_API_KEY、LLM_MODEL、LLM_TIMEOUT（这不是密钥、模型名或超时的问题）"
                ),
                got=got,
                hint=(
                    f"这个异常不是密钥、模型名或超时的问题，说明里却提到了 {'、'.join(wrong)}："
                    "按异常的类型（isinstance）或 status_code 这个数来判断，不要在错误文字里找"
                    "“401”这样的子串——“4010”里也有“401”。"
                ),
            )
        leaked = next(
            (
                before
                for before in earlier
                if _message_of(before)
                and _message_of(before) in got
                and _message_of(before) not in str(exc)
            ),
            None,
        )
        if leaked is not None:
            raise check.fail(
                f"其他异常：{case}",
                given=given,
                expected=f"说明这一个异常（{type(exc).__name__}: {_brief(str(exc), 60)}）",
                got=f"{_brief(got, 120)}（说的是前面那个异常：{_message_of(leaked)!r}）",
                why="这次的说明里是前面另一个异常的内容",
                hint=(
                    "每次只依据这一次传进来的 exc 写说明：不要把说明按异常类型存起来"
                    "（dict.setdefault 会把第一次的说明记进表里）、也不要存在全局变量里。"
                ),
            )
        earlier.append(exc)
        if not quiet:
            check.ok(f"其他异常：{case}", _brief(got, 40))
    check.done()


def _message_of(exc: Exception) -> str:
    """The error's own words: the message of an HTTP error's body, else ``str(exc)``."""
    body = getattr(exc, "body", None)
    message = body.get("message") if isinstance(body, dict) else None
    return message if isinstance(message, str) else str(exc)


__all__ = ["day1_raw_chat", "day1_assemble_stream", "day1_explain_error"]
