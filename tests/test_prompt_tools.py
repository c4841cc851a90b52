"""Servers that refuse native tools (Ollama's "does not support tools", vLLM without its tool
parser) and reasoning models that refuse max_tokens/temperature: the offline server imitates each
error word for word, the client says in Chinese what to do, and an agent goes on with Day 2's prompt
mode."""

from __future__ import annotations

import pytest

from handwritten_agent.agent import Agent
from handwritten_agent.course.offline.faults import TEXT_CALL_FORMATS
from handwritten_agent.display import format_event
from handwritten_agent.llm import BadRequest, ChatClient, StreamingClient, ToolsUnsupported
from handwritten_agent.messages import ChatResult
from handwritten_agent.prompt_tools import PromptTools, PromptToolsError, as_prompt_messages
from handwritten_agent.scenarios import basic_registry
from handwritten_agent.scripted import ScriptedClient


def client_for(server, model: str, **kwargs) -> ChatClient:
    return ChatClient(server.base_url, "test", model, max_retries=0, **kwargs)


@pytest.mark.parametrize(
    ("model", "words"),
    [
        ("course-sim:no_tools", "不能用原生工具调用"),
        ("course-sim:no_tool_parser", "--tool-call-parser"),
    ],
)
def test_a_server_without_native_tools_is_named_in_chinese(offline_server, model, words) -> None:
    client = client_for(offline_server, model, prompt_fallback=False)
    registry = basic_registry()
    with pytest.raises(ToolsUnsupported) as caught:
        client.complete([{"role": "user", "content": "17 乘以 23 等于多少"}], registry.schemas())
    assert words in str(caught.value) and "Day 2" in str(caught.value)
    assert client.tools_in_prompt is False


@pytest.mark.parametrize("model", ["course-sim:no_tools", "course-sim:no_tool_parser"])
def test_the_same_agent_goes_on_with_the_tools_in_the_prompt(offline_server, model) -> None:
    client = client_for(offline_server, model)
    events = []
    run = Agent(client, basic_registry(), on_event=events.append).run("17 乘以 23 等于多少")
    assert run.stop_reason == "final" and "391" in (run.answer or ""), (run.stop_reason, run.error)
    assert [record.call.name for record in run.tool_calls] == ["calculator"]
    assert run.tool_calls[0].result.success
    notes = [event for event in events if event.kind == "prompt_tools"]
    assert len(notes) == 1 and "系统提示词" in notes[0].data["note"]
    assert format_event(notes[0]).startswith("  ⚠ ")
    assert client.tools_in_prompt  # later calls go straight to the prompt
    again = Agent(client, basic_registry()).run("100 除以 8 是多少")
    assert again.stop_reason == "final" and "12.5" in (again.answer or "")
    ids = [call.call.id for call in run.tool_calls + again.tool_calls]
    assert len(set(ids)) == len(ids) and all(ids)  # fresh ids, never a fixed made-up one


def test_a_reasoning_model_refusing_max_tokens_or_temperature_says_what_to_send(
    offline_server,
) -> None:
    client = client_for(offline_server, "course-sim:reasoning_model")
    hello = [{"role": "user", "content": "你好"}]
    with pytest.raises(BadRequest) as caught:
        client.complete(hello, max_tokens=50)
    assert "max_completion_tokens" in str(caught.value) and "model_options" in str(caught.value)
    with pytest.raises(BadRequest) as caught:
        client.complete(hello, temperature=0.2)
    assert "temperature" in str(caught.value) and "去掉" in str(caught.value)
    assert client.complete(hello, max_completion_tokens=50).content


def test_prompt_messages_carry_calls_and_results_as_text() -> None:
    registry = basic_registry()
    messages = [
        {"role": "system", "content": "你是助手。"},
        {"role": "user", "content": "算一下"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_a",
                    "type": "function",
                    "function": {"name": "calculator", "arguments": '{"expression": "2+3"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_a", "content": '{"result": 5}'},
    ]
    sent = as_prompt_messages(messages, registry.schemas())
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "user"]
    assert sent[0]["content"].startswith("你是助手。") and "calculator" in sent[0]["content"]
    assert (
        '"name": "calculator"' in sent[2]["content"] and '"expression": "2+3"' in sent[2]["content"]
    )
    assert sent[3]["content"].startswith("工具结果：calculator")
    assert all("tool_calls" not in m and m["role"] != "tool" for m in sent)


def test_a_broken_call_is_sent_back_a_bounded_number_of_times() -> None:
    registry = basic_registry()
    broken = '{"name": "calculator", "arguments": {"expression": "2+3"'
    fixed = PromptTools(
        ScriptedClient([broken, '{"name": "calculator", "arguments": {"expression": "2+3"}}'])
    )
    reply = fixed.complete([{"role": "user", "content": "2+3"}], registry.schemas())
    assert [c.name for c in reply.tool_calls] == ["calculator"] and reply.content is None
    assert reply.finish_reason == "tool_calls"
    stuck = PromptTools(ScriptedClient([broken] * 3), max_repairs=2)
    with pytest.raises(PromptToolsError, match="3 次"):
        stuck.complete([{"role": "user", "content": "2+3"}], registry.schemas())
    words = PromptTools(ScriptedClient(["不需要工具，答案是 5。"]))
    answer = words.complete([{"role": "user", "content": "2+3"}], registry.schemas())
    assert isinstance(answer, ChatResult) and answer.content == "不需要工具，答案是 5。"


# -- a template that accepts the tools and drops them (llama_cpp.server's generic one) ----------


def prompt_notes(events) -> list[str]:
    return [event.data["note"] for event in events if event.kind == "prompt_tools"]


def test_a_template_that_drops_the_tools_leaves_the_model_blind_without_the_check(
    offline_server,
) -> None:
    client = client_for(offline_server, "course-sim:drops_tools")
    run = Agent(client, basic_registry()).run("17 乘以 23 等于多少")
    assert run.tool_calls == [] and client.template is None  # nothing said why


def test_the_check_finds_a_template_that_drops_the_tools_and_the_agent_goes_on(
    offline_server,
) -> None:
    client = client_for(offline_server, "course-sim:drops_tools", check_template=True)
    events = []
    run = Agent(client, basic_registry(), on_event=events.append).run("17 乘以 23 等于多少")
    assert run.stop_reason == "final" and "391" in (run.answer or ""), (run.stop_reason, run.error)
    assert [record.call.name for record in run.tool_calls] == ["calculator"]
    verdict = client.template
    assert verdict is not None and verdict.reaches is False
    assert verdict.plain == verdict.with_tool and verdict.plain
    notes = prompt_notes(events)
    assert len(notes) == 1, notes
    assert "聊天模板没有把工具定义交给模型" in notes[0] and "--chat_format" in notes[0]
    assert f"prompt_tokens 从 {verdict.plain} 变成 {verdict.with_tool}" in notes[0]
    assert "系统提示词" in notes[0] and client.tools_in_prompt
    again = Agent(client, basic_registry(), on_event=events.append).run("100 除以 8 是多少")
    assert "12.5" in (again.answer or "") and len(prompt_notes(events)) == 1  # checked once


def test_a_template_that_shows_the_tools_passes_the_check_and_stays_native(offline_server) -> None:
    client = client_for(offline_server, "course-sim", check_template=True)
    events = []
    run = Agent(client, basic_registry(), on_event=events.append).run("17 乘以 23 等于多少")
    assert "391" in (run.answer or "") and prompt_notes(events) == []
    verdict = client.template
    assert verdict is not None and verdict.reaches is True and verdict.with_tool > verdict.plain
    assert client.tools_in_prompt is False


@pytest.mark.parametrize(
    ("model", "why"),
    [
        ("course-sim:drops_tools", "聊天模板没有把工具定义交给模型"),
        ("course-sim:no_tools", "不接受模型"),
        ("course-sim:no_tool_parser", "不接受模型"),
    ],
)
def test_a_stream_switches_to_the_prompt_too_and_the_reply_comes_whole(
    offline_server, model: str, why: str
) -> None:
    client = client_for(offline_server, model, check_template=True)
    shown: list[str] = []
    events = []
    streaming = StreamingClient(client, on_text=shown.append)
    run = Agent(streaming, basic_registry(), on_event=events.append).run("17 乘以 23 等于多少")
    assert run.stop_reason == "final" and "391" in (run.answer or ""), (run.stop_reason, run.error)
    assert [record.call.name for record in run.tool_calls] == ["calculator"]
    assert client.tools_in_prompt
    # the call was never shown as text: only the answer was, in one piece
    assert shown == [run.answer], shown
    notes = prompt_notes(events)
    assert any(why in note for note in notes) and any("一次给出整段" in n for n in notes), notes
    again = Agent(streaming, basic_registry(), on_event=events.append).run("100 除以 8 是多少")
    assert "12.5" in (again.answer or "") and len(prompt_notes(events)) == len(notes)  # said once


def test_servers_run_by_hand_are_checked_and_cloud_providers_are_not() -> None:
    from handwritten_agent.config import resolve

    def checks(values: dict[str, str]) -> bool:
        return ChatClient.from_settings(resolve(values)).check_template

    assert checks({"LLM_BASE_URL": "http://127.0.0.1:9/v1", "LLM_MODEL": "m"})
    assert checks({"LLM_PROVIDER": "ollama"}) and checks({"LLM_PROVIDER": "llamacpp"})
    assert not checks({"LLM_PROVIDER": "deepseek", "LLM_API_KEY": "sk-test-0000"})


def test_the_verdict_is_unknown_when_the_server_reports_no_usage_or_fails() -> None:
    from types import SimpleNamespace

    from handwritten_agent.llm.template_check import PROBE_TOOL, judge, probe

    def no_usage(**_: object) -> object:
        return SimpleNamespace(usage=None)

    def broken(**_: object) -> object:
        raise RuntimeError("连接断了")

    assert probe(no_usage, "m").reaches is None and probe(broken, "m").reaches is None
    assert judge(40, 40) is False and judge(None, 40) is None
    assert judge(40, 41, PROBE_TOOL) is False and judge(40, 400, PROBE_TOOL) is True


# -- a template that shows the tools, and a parser that does not read the calls back ------------


def test_calls_the_server_left_as_text_are_read_once_said_and_run(offline_server) -> None:
    client = client_for(offline_server, "course-sim:text_tool_calls", check_template=True)
    events = []
    run = Agent(client, basic_registry(), on_event=events.append).run("17 乘以 23 等于多少")
    assert run.stop_reason == "final" and "391" in (run.answer or ""), (run.stop_reason, run.error)
    assert [record.call.name for record in run.tool_calls] == ["calculator"]
    assert run.tool_calls[0].call.id.startswith("call_")
    notes = prompt_notes(events)
    assert len(notes) == 1 and "当成文字" in notes[0] and "<tool_call>" in notes[0], notes
    assert client.template.reaches is True and client.tools_in_prompt is False


def test_without_the_check_the_text_calls_would_pass_for_the_answer(offline_server) -> None:
    client = client_for(offline_server, "course-sim:text_tool_calls")
    run = Agent(client, basic_registry()).run("17 乘以 23 等于多少")
    assert run.tool_calls == [] and "<tool_call>" in (run.answer or "")


@pytest.mark.parametrize(
    ("text", "read"),
    [
        (
            '<tool_call>\n{"name": "calculator", "arguments": {"expression": "2+2"}}\n</tool_call>',
            1,
        ),
        ('```json\n{"name": "calculator", "arguments": {"expression": "2+2"}}\n```', 1),
        (
            '{"name": "calculator", "arguments": {"expression": "1"}}\n'
            '{"name": "calculator", "arguments": {"expression": "2"}}',
            2,
        ),
        ('我来算一下：{"name": "calculator", "arguments": {"expression": "2+2"}}\n请稍等。', 1),
        ('<tool_call>\n{"name": "delete_all", "arguments": {}}\n</tool_call>', 0),  # not offered
        ('{"name": "calculator", "arguments": {"expression": "2+2"', 0),  # broken
        ("二加二等于四。", 0),
        ("", 0),
    ],
)
def test_only_a_reply_that_is_nothing_but_offered_calls_is_read_as_calls(text, read) -> None:
    from handwritten_agent.prompt_tools import calls_written_as_text

    calls = calls_written_as_text(text, basic_registry().schemas())
    assert len(calls) == read and all(call.id.startswith("call_") for call in calls)
    assert len({call.id for call in calls}) == len(calls)


def test_an_assistant_call_without_text_goes_out_without_a_content_key() -> None:
    from handwritten_agent.llm.client import _wire_message

    call = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    sent = _wire_message({"role": "assistant", "content": None, "tool_calls": [call]})
    assert sent == {"role": "assistant", "tool_calls": [call]}  # llama_cpp.server rejects null
    kept = {"role": "assistant", "content": "先查一下。", "tool_calls": [call]}
    assert _wire_message(kept) == kept
    assert _wire_message({"role": "user", "content": None}) == {"role": "user", "content": None}


# -- calls written as text in other models' formats ----------------------------------------------

# One call in each format a server may hand back as text, with who writes it (and which server
# parser reads it natively: llama.cpp's common/chat.cpp, vLLM's tool parsers).
QWEN_CALL = '{"name": "get_weather", "arguments": {"city": "北京"}}'
FORMATS = {
    # Qwen2.5 / Hermes 2 Pro chat templates ask for these tags (llama.cpp: Hermes 2 Pro format)
    "qwen_tags": f"<tool_call>\n{QWEN_CALL}\n</tool_call>",
    # Qwen2.5-Coder 1.5B on llama_cpp.server with the GGUF's own template (seen in this course)
    "qwen_coder_xml": (
        '<tools><function name="get_weather"><arguments>{"city": "北京"}</arguments></function>'
        "</tools>"
    ),
    # Qwen2.5-Coder in <tools> tags (vLLM PRs #32931/#33083, its qwen2_5_coder parser)
    "qwen_coder_tools": f"<tools>\n{QWEN_CALL}\n</tools>",
    # Llama 3.1 / Functionary v3.1 (llama.cpp: <function=NAME>{…}</function>)
    "llama_function_tag": '<function=get_weather>{"city": "北京"}</function>',
    # Llama 3.x JSON tool calls, "parameters" not "arguments" (llama.cpp: Llama 3.x format)
    "llama_json": '{"name": "get_weather", "parameters": {"city": "北京"}}',
    "llama_python_tag": '<|python_tag|>{"name": "get_weather", "parameters": {"city": "北京"}}',
    # Mistral Nemo / v0.3 (llama.cpp: [TOOL_CALLS] then a JSON list)
    "mistral_list": f"[TOOL_CALLS] [{QWEN_CALL}]",
    # newer Mistral tokenizers put the name before [ARGS]
    "mistral_args": '[TOOL_CALLS]get_weather[ARGS]{"city": "北京"}',
    # Qwen2.5-Coder on Ollama: a bare object (ollama/ollama#12174, openai/codex#2229)
    "bare_json": QWEN_CALL,
}


def read_calls(text: str) -> list[tuple[str, dict]]:
    from handwritten_agent.prompt_tools import calls_written_as_text

    calls = calls_written_as_text(text, basic_registry().schemas())
    assert all(call.id.startswith("call_") for call in calls)
    return [(call.name, call.args) for call in calls]


@pytest.mark.parametrize("text", FORMATS.values(), ids=FORMATS.keys())
def test_each_format_of_a_call_written_as_text_is_read(text) -> None:
    assert read_calls(text) == [("get_weather", {"city": "北京"})]


@pytest.mark.parametrize("text", FORMATS.values(), ids=FORMATS.keys())
def test_a_call_of_a_tool_that_was_not_offered_stays_text(text) -> None:
    assert read_calls(text.replace("get_weather", "delete_all_files")) == []


@pytest.mark.parametrize("text", FORMATS.values(), ids=FORMATS.keys())
def test_a_call_whose_json_is_broken_stays_text(text) -> None:
    broken = text.replace('"北京"}', '"北京"', 1)  # the arguments' object never closes
    assert broken != text and read_calls(broken) == []


@pytest.mark.parametrize("text", FORMATS.values(), ids=FORMATS.keys())
def test_prose_around_a_call_stays_out_of_it(text) -> None:
    said = f"好的，我先查一下天气：{{城市}}\n{text}\n查到以后再告诉你（大约 1 秒）。"
    assert read_calls(said) == [("get_weather", {"city": "北京"})]


@pytest.mark.parametrize(
    ("text", "read"),
    [
        (  # two calls in Llama 3.1's tags, and in Qwen2.5-Coder's
            '<function=calculator>{"expression": "1+1"}</function>\n'
            '<function=get_weather>{"city": "上海"}</function>',
            [("calculator", {"expression": "1+1"}), ("get_weather", {"city": "上海"})],
        ),
        (
            '<tools><function name="calculator"><arguments>{"expression": "1+1"}</arguments>'
            '</function><function name="get_weather"><arguments>{"city": "上海"}</arguments>'
            "</function></tools>",
            [("calculator", {"expression": "1+1"}), ("get_weather", {"city": "上海"})],
        ),
        # one offered call and one that is not: nothing is run
        (
            '<function=calculator>{"expression": "1"}</function>'
            '<function=rm>{"path": "/"}</function>',
            [],
        ),
        ('<function=calculator>["1+1"]</function>', []),  # arguments that are not an object
        ('<function=calculator> 先想想 {"expression": "2"}</function>', []),  # words before them
        ("写法是 <function=工具名>，后面跟参数的 JSON。", []),  # the format explained, no call
        ('{"name": "李雷", "parameters": {"city": "北京"}}', []),  # JSON that only looks like one
        (  # Qwen2.5-Coder 1.5B on llama_cpp.server: a call, then a tool result it made up
            '```json\n{"name": "get_weather", "arguments": "{\\"city\\": \\"北京\\"}"}\n```\n\n'
            '<tool_response>\n{"weather": "晴", "temperature_max": "26℃"}\n</tool_response>',
            [("get_weather", {"city": "北京"})],
        ),
        (
            '<function=calculator>{"expression": "2+2",}</function>',
            [("calculator", {"expression": "2+2"})],
        ),
    ],
)
def test_mixed_and_doubtful_text_calls(text, read) -> None:
    assert read_calls(text) == read


# the offline fault writes each format; the client reads it, natively and streamed

TEXT_CALL_FAULTS = ["text_tool_calls", *TEXT_CALL_FORMATS]


@pytest.mark.parametrize("fault", TEXT_CALL_FAULTS)
def test_the_fault_writes_its_format_and_the_client_reads_it(offline_server, fault) -> None:
    tools = basic_registry().schemas()
    ask = [{"role": "user", "content": "17 乘以 23 等于多少"}]
    raw = client_for(offline_server, f"course-sim:{fault}").complete(ask, tools)
    assert raw.tool_calls == [] and "calculator" in (raw.content or "")
    marks = {
        "text_tool_calls": "<tool_call>",
        "text_calls_xml": '<function name="calculator">',
        "text_calls_llama": "<function=calculator>",
        "text_calls_mistral": "[TOOL_CALLS] [",
        "text_calls_json": '"parameters"',
    }
    assert marks[fault] in raw.content, raw.content
    client = client_for(offline_server, f"course-sim:{fault}", check_template=True)
    events = []
    run = Agent(client, basic_registry(), on_event=events.append).run("17 乘以 23 等于多少")
    assert run.stop_reason == "final" and "391" in (run.answer or ""), (run.stop_reason, run.error)
    assert [record.call.name for record in run.tool_calls] == ["calculator"]
    assert len(prompt_notes(events)) == 1


@pytest.mark.parametrize("fault", ["text_tool_calls", "text_calls_llama", "text_calls_mistral"])
def test_a_streamed_reply_that_was_a_call_written_as_text_ends_as_the_call(
    offline_server, capsys, fault
) -> None:
    client = client_for(offline_server, f"course-sim:{fault}", check_template=True)
    messages = [{"role": "user", "content": "17 乘以 23 等于多少"}]
    events = list(client.stream(messages, basic_registry().schemas()))
    shown = "".join(event.text for event in events if event.kind == "content")
    assert "calculator" in shown  # the text was streamed as it came: it cannot be taken back
    done = events[-1]
    assert done.kind == "done" and done.result.content is None
    assert [call.name for call in done.result.tool_calls] == ["calculator"]
    assert "17" in done.result.tool_calls[0].args["expression"]
    assert done.result.finish_reason == "tool_calls"
    calls = [event for event in events if event.kind == "tool_call"]
    assert [(e.name, e.id) for e in calls] == [("calculator", done.result.tool_calls[0].id)]
    said = capsys.readouterr().out
    assert said.count("流式显示出来的那段文字其实是工具调用") == 1 and "当成文字" in said
    list(client.stream(messages, basic_registry().schemas()))
    assert "流式显示" not in capsys.readouterr().out  # said once per client


def test_a_streaming_agent_runs_the_calls_it_streamed_as_text(offline_server) -> None:
    from handwritten_agent.llm import StreamingClient

    client = client_for(offline_server, "course-sim:text_calls_xml", check_template=True)
    shown: list[str] = []
    events = []
    run = Agent(
        StreamingClient(client, on_text=shown.append), basic_registry(), on_event=events.append
    ).run("17 乘以 23 等于多少")
    assert run.stop_reason == "final" and "391" in (run.answer or ""), (run.stop_reason, run.error)
    assert [record.call.name for record in run.tool_calls] == ["calculator"]
    assert "<tools>" in "".join(shown)  # shown while it streamed, and then run as the call
    notes = prompt_notes(events)
    assert len(notes) == 1 and "流式显示" in notes[0] and "当成文字" in notes[0], notes


def test_without_the_check_a_streamed_text_call_stays_text(offline_server) -> None:
    client = client_for(offline_server, "course-sim:text_calls_llama")
    messages = [{"role": "user", "content": "17 乘以 23 等于多少"}]
    done = list(client.stream(messages, basic_registry().schemas()))[-1]
    assert done.result.tool_calls == [] and "<function=calculator>" in done.result.content
