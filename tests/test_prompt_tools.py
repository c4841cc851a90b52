"""Servers that refuse native tools (Ollama's "does not support tools", vLLM without its tool
parser) and reasoning models that refuse max_tokens/temperature: the offline server imitates each
error word for word, the client says in Chinese what to do, and an agent goes on with Day 2's prompt
mode."""

from __future__ import annotations

import pytest

from handwritten_agent.agent import Agent
from handwritten_agent.display import format_event
from handwritten_agent.llm import BadRequest, ChatClient, ToolsUnsupported
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
