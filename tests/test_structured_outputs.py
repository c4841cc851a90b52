"""Structured outputs on the offline server (``response_format``, ``strict`` tools) through the
official SDK, and the llama.cpp grammar the local backend builds for them."""

from __future__ import annotations

import json
import sys
import types
from typing import Any

import openai
import pytest
from jsonschema import Draft202012Validator
from pydantic import BaseModel, Field

from handwritten_agent.course.offline.backend import ChatRequest
from handwritten_agent.course.offline.structured import strict_problem

MEETING = {
    "type": "object",
    "properties": {
        "title": {"type": "string", "description": "会议主题，例如：周会"},
        "date": {"type": "string", "description": "日期，格式 YYYY-MM-DD"},
        "room": {"type": ["string", "null"], "description": "会议室编号，例如 A301"},
        "attendees": {"type": "integer", "description": "参会人数"},
    },
    "required": ["title", "date", "room", "attendees"],
    "additionalProperties": False,
}


def schema_format(schema: dict[str, Any], strict: bool = True, name: str = "meeting") -> dict:
    return {
        "type": "json_schema",
        "json_schema": {"name": name, "schema": schema, "strict": strict},
    }


def ask(sdk: openai.OpenAI, text: str, **options: Any) -> Any:
    return sdk.chat.completions.create(
        model="course-sim", messages=[{"role": "user", "content": text}], **options
    )


def test_a_json_schema_reply_is_valid_and_read_from_the_request(sdk: openai.OpenAI) -> None:
    reply = ask(sdk, "明天在 A301 开周会，8 个人参加", response_format=schema_format(MEETING))
    choice = reply.choices[0]
    value = json.loads(choice.message.content)
    Draft202012Validator(MEETING).validate(value)
    assert value == {"title": "周会", "date": "2026-03-13", "room": "A301", "attendees": 8}
    assert choice.finish_reason == "stop" and choice.message.refusal is None


def test_a_nullable_field_the_request_leaves_out_is_null(sdk: openai.OpenAI) -> None:
    value = json.loads(
        ask(sdk, "后天开周会，3 个人", response_format=schema_format(MEETING))
        .choices[0]
        .message.content
    )
    assert value["room"] is None and value["attendees"] == 3 and value["date"] == "2026-03-14"


def test_a_required_field_nobody_gave_is_a_refusal_not_a_guess(sdk: openai.OpenAI) -> None:
    message = ask(sdk, "开个会", response_format=schema_format(MEETING)).choices[0].message
    assert message.content is None
    assert message.refusal and "attendees" in message.refusal and "room" not in message.refusal


def test_the_refusal_streams_as_delta_refusal(sdk: openai.OpenAI) -> None:
    stream = ask(sdk, "开个会", response_format=schema_format(MEETING), stream=True)
    pieces = [c.choices[0].delta.refusal for c in stream if c.choices and c.choices[0].delta]
    text = "".join(p for p in pieces if p)
    assert "title" in text and "attendees" in text


def test_max_tokens_cuts_the_json_and_says_length(sdk: openai.OpenAI) -> None:
    choice = ask(
        sdk, "明天在 A301 开周会，8 个人参加", response_format=schema_format(MEETING), max_tokens=6
    ).choices[0]
    assert choice.finish_reason == "length"
    with pytest.raises(json.JSONDecodeError):
        json.loads(choice.message.content)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda s: s.pop("additionalProperties"), "'additionalProperties' is required"),
        (lambda s: s.update(required=["title", "date"]), "Missing 'room'"),
        (
            lambda s: (
                s["properties"].update(
                    where={"type": "object", "properties": {"x": {"type": "string"}}}
                ),
                s["required"].append("where"),
            ),
            "context=('properties', 'where')",
        ),
    ],
)
def test_a_schema_outside_the_strict_subset_is_a_400(sdk: openai.OpenAI, change, words) -> None:
    schema = json.loads(json.dumps(MEETING))
    change(schema)
    with pytest.raises(openai.BadRequestError) as caught:
        ask(sdk, "明天开周会", response_format=schema_format(schema))
    body = caught.value.body
    assert (
        words in body["message"]
        and "Invalid schema for response_format 'meeting'" in (body["message"])
    )
    assert body["param"] == "response_format"


def test_without_strict_the_same_schema_is_accepted(sdk: openai.OpenAI) -> None:
    schema = {**MEETING, "required": ["date"]}
    schema.pop("additionalProperties")
    value = json.loads(
        ask(sdk, "明天开会", response_format=schema_format(schema, strict=False))
        .choices[0]
        .message.content
    )
    assert value == {"date": "2026-03-13"}  # optional fields nobody gave are left out


def test_a_format_the_api_does_not_know_is_a_400_in_its_words(sdk: openai.OpenAI) -> None:
    cases = [
        ("json", "Invalid type for 'response_format': expected an object, but got a string"),
        ({"type": "xml"}, "Invalid value: 'xml'."),
        ({"type": "json_schema"}, "Missing required parameter: 'response_format.json_schema'."),
        ({"type": "json_schema", "json_schema": {"name": "a b", "schema": {}}}, "does not match"),
        ({"type": "json_schema", "json_schema": {"name": "n", "schema": {"type": "strng"}}}, "n'"),
    ]
    for form, words in cases:
        with pytest.raises(openai.BadRequestError) as caught:
            ask(sdk, "json 你好", response_format=form)
        assert words in caught.value.body["message"], (form, caught.value.body["message"])


def test_a_root_that_is_not_an_object_is_refused_in_chinese(sdk: openai.OpenAI) -> None:
    form = schema_format({"type": "array", "items": {"type": "string"}}, strict=False)
    message = ask(sdk, "列出北京和上海", response_format=form).choices[0].message
    assert message.content is None and "schema" in message.refusal and "(" not in message.refusal


def test_json_mode_needs_the_word_json(sdk: openai.OpenAI) -> None:
    with pytest.raises(openai.BadRequestError) as caught:
        ask(sdk, "上海天气", response_format={"type": "json_object"})
    assert "must contain the word 'json'" in caught.value.body["message"]


def test_json_mode_fills_the_example_in_the_prompt(sdk: openai.OpenAI) -> None:
    reply = sdk.chat.completions.create(
        model="course-sim",
        messages=[
            {"role": "system", "content": '用 JSON 回答，例如 {"city": "北京", "days": 3}'},
            {"role": "user", "content": "广州未来 4 天的天气"},
        ],
        response_format={"type": "json_object"},
    )
    assert json.loads(reply.choices[0].message.content) == {"city": "广州", "days": 4}


def test_json_mode_cleans_the_prompt_json_reply(sdk: openai.OpenAI) -> None:
    from handwritten_agent.prompting import render_tool_prompt

    tools = [
        {
            "name": "calculator",
            "description": "计算数学表达式",
            "parameters": {
                "type": "object",
                "properties": {"expression": {"type": "string", "description": "算式"}},
                "required": ["expression"],
            },
        }
    ]
    reply = sdk.chat.completions.create(
        model="course-sim:trailing_comma",
        messages=[
            {"role": "system", "content": render_tool_prompt(tools) + "\n只输出 JSON。"},
            {"role": "user", "content": "17 乘以 9 等于多少？"},
        ],
        response_format={"type": "json_object"},
    )
    value = json.loads(reply.choices[0].message.content)
    assert value["name"] == "calculator" and value["arguments"] == {"expression": "17 * 9"}


def test_parse_with_pydantic(sdk: openai.OpenAI) -> None:
    class Meeting(BaseModel):
        title: str = Field(description="会议主题，例如：周会")
        date: str = Field(description="日期，格式 YYYY-MM-DD")
        room: str | None = Field(description="会议室编号，例如 A301")

    reply = sdk.chat.completions.parse(
        model="course-sim",
        messages=[{"role": "user", "content": "明天在 A305 开周会"}],
        response_format=Meeting,
    )
    parsed = reply.choices[0].message.parsed
    assert parsed == Meeting(title="周会", date="2026-03-13", room="A305")


WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "查询城市天气",
        "strict": True,
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "城市名，例如：北京"},
                "unit": {"type": ["string", "null"], "enum": ["C", "F", None]},
            },
            "required": ["city", "unit"],
            "additionalProperties": False,
        },
    },
}


def test_a_strict_tool_call_validates(sdk: openai.OpenAI) -> None:
    call = ask(sdk, "上海今天天气怎么样", tools=[WEATHER]).choices[0].message.tool_calls[0]
    arguments = json.loads(call.function.arguments)
    Draft202012Validator(WEATHER["function"]["parameters"]).validate(arguments)
    assert arguments == {"city": "上海", "unit": None}


@pytest.mark.parametrize("fault", ["malformed_json", "string_arguments"])
def test_a_strict_tool_never_gets_arguments_that_do_not_validate(sdk: openai.OpenAI, fault) -> None:
    message = (
        sdk.chat.completions.create(
            model=f"course-sim:{fault}",
            messages=[{"role": "user", "content": "上海今天天气怎么样"}],
            tools=[WEATHER],
        )
        .choices[0]
        .message
    )
    assert not message.tool_calls and message.content is None and message.refusal
    loose = json.loads(json.dumps(WEATHER))
    loose["function"]["strict"] = False
    loose["function"]["parameters"]["required"] = ["city"]
    broken = (
        sdk.chat.completions.create(
            model=f"course-sim:{fault}",
            messages=[{"role": "user", "content": "上海今天天气怎么样"}],
            tools=[loose],
        )
        .choices[0]
        .message
    )
    arguments = broken.tool_calls[0].function.arguments  # without strict the fault shows
    with pytest.raises((ValueError, AssertionError)):
        assert isinstance(json.loads(arguments), dict)


def test_a_strict_tool_outside_the_subset_is_a_400(sdk: openai.OpenAI) -> None:
    tool = json.loads(json.dumps(WEATHER))
    tool["function"]["parameters"]["required"] = ["city"]
    with pytest.raises(openai.BadRequestError) as caught:
        ask(sdk, "上海天气", tools=[tool])
    assert caught.value.body["message"].startswith("Invalid schema for function 'get_weather'")
    assert caught.value.body["param"] == "tools[0].function.parameters"


def test_strict_problem_reads_nested_items_and_defs() -> None:
    inner = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    schema = {
        "type": "object",
        "properties": {"rows": {"type": "array", "items": inner}},
        "required": ["rows"],
        "additionalProperties": False,
    }
    assert "context=('properties', 'rows', 'items')" in strict_problem(schema)
    inner["additionalProperties"] = False
    assert strict_problem(schema) is None


# -- the local backend: the grammar request it builds (llama.cpp is not needed) -----------------


class FakeGrammar:
    made: list[tuple[str, str]] = []

    @classmethod
    def from_json_schema(cls, json_schema: str, verbose: bool = True) -> Any:
        assert verbose is False
        cls.made.append(("schema", json_schema))
        return ("grammar", json_schema)

    @classmethod
    def from_string(cls, grammar: str, verbose: bool = True) -> Any:
        cls.made.append(("gbnf", grammar))
        return ("grammar", grammar)


@pytest.fixture
def fake_llama_cpp(monkeypatch: pytest.MonkeyPatch) -> type[FakeGrammar]:
    package = types.ModuleType("llama_cpp")
    grammar = types.ModuleType("llama_cpp.llama_grammar")
    grammar.LlamaGrammar = FakeGrammar  # type: ignore[attr-defined]
    grammar.JSON_GBNF = "root ::= object  # JSON"  # type: ignore[attr-defined]
    package.llama_grammar = grammar  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "llama_cpp", package)
    monkeypatch.setitem(sys.modules, "llama_cpp.llama_grammar", grammar)
    FakeGrammar.made = []
    return FakeGrammar


def local_backend(rendered: list[Any]) -> Any:
    from handwritten_agent.course.offline import local

    backend = object.__new__(local.LocalBackend)
    backend._uses_tool_call_tags = False
    backend._tags = local.template_tags(None)

    class Llm:
        def tokenize(self, text: bytes, add_bos: bool = False, special: bool = True) -> list[int]:
            return list(range(len(text) // 4 + 1))

        def n_ctx(self) -> int:
            return 4096

    def formatter(messages: Any, tools: Any, tool_choice: Any) -> Any:
        rendered.append(messages)
        return types.SimpleNamespace(prompt=json.dumps(messages, ensure_ascii=False))

    backend._llm = Llm()
    backend._formatter = formatter
    return backend


def test_local_turns_a_json_schema_into_a_llama_cpp_grammar(fake_llama_cpp) -> None:
    rendered: list[Any] = []
    backend = local_backend(rendered)
    request = ChatRequest(
        model="m",
        messages=[{"role": "user", "content": "明天开周会"}],
        extra={"response_format": schema_format(MEETING)},
    )
    job = backend._prepare(request)
    assert json.loads(job.options["grammar"][1]) == MEETING
    assert rendered[0][0]["role"] == "system" and '"attendees"' in rendered[0][0]["content"]


def test_local_json_mode_uses_the_json_grammar_and_tools_get_none(fake_llama_cpp) -> None:
    backend = local_backend([])
    json_mode = {"response_format": {"type": "json_object"}}
    job = backend._prepare(
        ChatRequest(model="m", messages=[{"role": "user", "content": "json"}], extra=json_mode)
    )
    assert job.options["grammar"] == ("grammar", "root ::= object  # JSON")
    with_tools = ChatRequest(
        model="m",
        messages=[{"role": "user", "content": "上海天气"}],
        tools=[WEATHER],
        extra={"response_format": schema_format(MEETING)},
    )
    assert "grammar" not in backend._prepare(with_tools).options
    plain = ChatRequest(model="m", messages=[{"role": "user", "content": "你好"}])
    assert "grammar" not in backend._prepare(plain).options


def test_a_refusal_reaches_the_caller_and_ends_the_run_with_its_words(offline_server) -> None:
    from handwritten_agent.agent import Agent
    from handwritten_agent.llm import ChatClient
    from handwritten_agent.messages import ChatResult
    from handwritten_agent.scripted import ScriptedClient
    from handwritten_agent.tools import ToolRegistry, tool
    from handwritten_agent.widgets import ENDINGS_ZH

    # the client keeps the API's refusal field, whole and streamed
    client = ChatClient(offline_server.base_url, "test", "course-sim:malformed_json", max_retries=0)
    messages = [{"role": "user", "content": "上海今天天气怎么样"}]
    whole = client.complete(messages, [WEATHER])
    done = [event for event in client.stream(messages, [WEATHER]) if event.kind == "done"]
    for result in (whole, done[-1].result):
        assert result.content is None and not result.tool_calls and result.refusal
        assert ChatResult.from_dict(result.to_dict()).refusal == result.refusal
    assert done[-1].result.refusal == whole.refusal

    # the loop ends on it with the model's words, not as an "empty reply", and runs no tool
    ran: list[str] = []

    @tool(name="get_weather")
    def get_weather(city: str) -> dict:
        """查询城市天气。

        Args:
            city: 城市名，例如：上海
        """
        ran.append(city)
        return {"city": city}

    refused = ChatResult(content=None, refusal="这个请求我不能回答。", finish_reason="stop")
    run = Agent(ScriptedClient([refused]), ToolRegistry([get_weather])).run("上海今天天气怎么样")
    assert run.stop_reason == "refusal" and "这个请求我不能回答。" in (run.error or "")
    assert "空回复" not in (run.error or "") and not ran and not run.answer
    assert ENDINGS_ZH["refusal"]
