"""Short-term memory: rounds, the window, summary compression, the Agent's memory hook and
Conversation.
"""

from __future__ import annotations

import copy
import json
import re

import pytest

from conftest import FIXED_NOW
from handwritten_agent.agent import Agent
from handwritten_agent.llm import ChatClient
from handwritten_agent.memory import (
    SUMMARY_HEADING,
    SUMMARY_PROMPT,
    ContextTooLong,
    Conversation,
    Summarizer,
    Window,
    compress,
    count_tokens,
    pairing_problems,
    render_transcript,
    split_rounds,
    trim_messages,
)
from handwritten_agent.memory.sample import PLANTED, ask_planted, rounds
from handwritten_agent.memory.summary import is_external_summary, is_summary_message, summary_text
from handwritten_agent.messages import ChatResult
from handwritten_agent.scenarios import basic_registry
from handwritten_agent.scripted import FunctionClient, ScriptedClient, reply


def tool_call(call_id: str, name: str = "get_weather", **arguments) -> dict:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)},
    }


def history() -> list[dict]:
    return [
        {"role": "system", "content": "你是助手。"},
        {"role": "user", "content": "北京和上海明天天气怎么样？"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [tool_call("a1", city="北京"), tool_call("a2", city="上海")],
        },
        {"role": "tool", "tool_call_id": "a2", "content": "上海：阴"},
        {"role": "tool", "tool_call_id": "a1", "content": "北京：多云"},
        {"role": "assistant", "content": "北京多云，上海阴。"},
        {"role": "user", "content": "我的预算上限是 5000 元。"},
        {"role": "assistant", "content": "好的。"},
        {"role": "user", "content": "17 乘以 9 等于多少？"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [tool_call("b1", "calculator", expression="17 * 9")],
        },
        {"role": "tool", "tool_call_id": "b1", "content": "153"},
        {"role": "assistant", "content": "153。"},
    ]


@pytest.fixture(scope="module")
def sim(offline_server) -> ChatClient:
    return ChatClient(offline_server.base_url, "test", "course-sim", max_retries=0)


# -- rounds ----------------------------------------------------------------------------------------


def test_split_rounds_keeps_parallel_calls_with_their_results_and_leaves_the_system_out():
    rounds_ = split_rounds(history())
    assert [len(r) for r in rounds_] == [5, 2, 4]
    assert all(r[0]["role"] == "user" for r in rounds_)
    assert rounds_[0][1]["tool_calls"] and {m["tool_call_id"] for m in rounds_[0][2:4]} == {
        "a1",
        "a2",
    }
    assert sum(len(r) for r in rounds_) == len(history()) - 1


def test_split_rounds_edges():
    assert split_rounds([]) == [] and split_rounds([{"role": "system", "content": "s"}]) == []
    preamble = [
        {"role": "system", "content": "s"},
        {"role": "assistant", "content": "欢迎"},
        {"role": "user", "content": "你好"},
    ]
    assert split_rounds(preamble) == [[preamble[1]], [preamble[2]]]
    mid_system = history()[:8] + [{"role": "system", "content": "提醒"}] + history()[8:]
    assert [m["role"] for m in split_rounds(mid_system)[1]] == ["user", "assistant", "system"]


def test_pairing_problems_names_orphans_and_unanswered_calls():
    messages = history()
    assert pairing_problems(messages) == []
    assert "没有回答" in pairing_problems([messages[0], messages[3]])[0]
    assert "a1" in pairing_problems(messages[:4])[0] and "结束" in pairing_problems(messages[:4])[0]


# -- the window ------------------------------------------------------------------------------------


def test_trim_drops_whole_oldest_rounds_and_keeps_system_and_latest_user():
    messages = history()
    before = copy.deepcopy(messages)
    budget = count_tokens([messages[0]] + messages[6:])
    trimmed = trim_messages(messages, budget)
    assert trimmed == [messages[0]] + messages[6:]
    assert messages == before
    only_last = trim_messages(messages, count_tokens([messages[0]] + messages[8:]))
    assert only_last == [messages[0]] + messages[8:] and not pairing_problems(only_last)
    assert trim_messages(messages, 10**6) == messages


def test_trim_shortens_long_tool_results_of_the_kept_rounds_before_giving_up():
    messages = history()
    messages[10] = {"role": "tool", "tool_call_id": "b1", "content": "数据" * 3000}
    budget = count_tokens(
        [messages[0]]
        + messages[8:10]
        + [{"role": "tool", "tool_call_id": "b1", "content": "数据" * 200}]
        + messages[11:]
    )
    trimmed = trim_messages(messages, budget)
    assert (
        count_tokens(trimmed) <= budget and trimmed[0] == messages[0] and trimmed[1] == messages[8]
    )
    assert "已截断，原文 6000 字" in trimmed[3]["content"] and len(trimmed[3]["content"]) < 6000
    with pytest.raises(ContextTooLong) as error:
        trim_messages(messages, 30)
    assert (
        "预算 30 个 token" in str(error.value)
        and "调大预算" in str(error.value)
        and error.value.budget == 30
    )
    assert error.value.tokens > 30


def test_trim_keeps_keep_last_rounds_and_rejects_invalid_input():
    messages = history()
    kept = trim_messages(messages, count_tokens(messages) - 1, keep_last_rounds=2)
    assert kept == [messages[0]] + messages[6:]
    with pytest.raises(ValueError, match="keep_last_rounds"):
        trim_messages(messages, 100, keep_last_rounds=0)
    with pytest.raises(ValueError, match="不合法"):
        trim_messages(messages[:4], 100)


def test_window_inside_one_run_shortens_a_huge_tool_result(sim):
    """The hook runs before every model call: a huge tool result in the current round is cut before
    the next call.
    """
    from handwritten_agent.tools import tool

    @tool
    def fetch_page(url: str) -> str:
        """读取一个网页的全文，例如用户说“读一下 https://example.com”时使用。

        Args:
            url: 网页地址，例如：https://example.com
        """
        return "网页正文。" * 2000

    sent = []
    agent = Agent(
        sim, basic_registry(now=FIXED_NOW), memory=Window(1500), on_event=lambda e: sent.append(e)
    )
    agent.registry.register(fetch_page)
    result = agent.run("读一下 https://example.com")
    calls_made = [e for e in sent if e.kind == "model_call"]
    assert result.stop_reason == "final" and len(calls_made) == 2
    assert count_tokens(calls_made[1].messages) <= 1500
    assert any(
        "已截断" in m.get("content", "") for m in calls_made[1].messages if m["role"] == "tool"
    )
    assert len(result.messages[3]["content"]) > 10000, (
        "the run keeps the full result; only what is sent is cut"
    )
    memory_events = [e for e in sent if e.kind == "memory"]
    assert (
        memory_events
        and memory_events[0].data["tokens_after"] < memory_events[0].data["tokens_before"]
    )


# -- summary compression ---------------------------------------------------------------------------


def test_render_transcript_puts_each_call_next_to_its_result():
    text = render_transcript(split_rounds(history())[:1], previous_summary="- 用户住在杭州")
    assert text.startswith("之前的摘要：\n- 用户住在杭州")
    assert "助手调用工具 get_weather，参数" in text and "工具 get_weather 返回：上海：阴" in text


def test_compress_summarizes_old_rounds_into_one_message_after_the_system_prompt():
    seen = []

    def summarizer(messages, tools):
        seen.append(messages)
        return ChatResult(content="【约束】\n- 用户的预算上限是 5000 元")

    messages = history()
    budget = count_tokens(messages) - 20
    compressed = compress(messages, FunctionClient(summarizer), budget=budget, keep_last_rounds=1)
    # the old rounds hold tool results (text from outside): the summary is a user message marked
    # external, never system
    assert [m["role"] for m in compressed[:2]] == ["system", "user"] and is_summary_message(
        compressed[1]
    )
    assert is_external_summary(compressed[1])
    assert compressed[1]["content"].startswith(SUMMARY_HEADING) and "5000" in summary_text(
        compressed[1]
    )
    assert compressed[2:] == messages[8:] and not pairing_problems(compressed)
    assert (
        seen[0][0]["content"].startswith(SUMMARY_PROMPT)
        and "预算上限是 5000 元" in seen[0][1]["content"]
    )
    assert re.search(
        r"摘要的长度上限：\d+ 个 token", seen[0][0]["content"]
    )  # the model is told its budget
    assert (
        compress(messages, FunctionClient(summarizer), budget=10**6) == messages and len(seen) == 1
    )


def test_compress_rolls_an_earlier_summary_into_the_new_one():
    inputs = []

    def summarizer(messages, tools):
        inputs.append(messages[1]["content"])
        return ChatResult(content=f"- 第 {len(inputs)} 次摘要")

    messages = history()
    first = compress(
        messages, FunctionClient(summarizer), budget=count_tokens(messages) - 20, keep_last_rounds=1
    )
    more = first + [
        {"role": "user", "content": "现在几点了？"},
        {"role": "assistant", "content": "14:30。"},
    ]
    second = compress(
        more, FunctionClient(summarizer), budget=count_tokens(more) - 5, keep_last_rounds=1
    )
    assert sum(is_summary_message(m) for m in second) == 1 and "第 2 次摘要" in second[1]["content"]
    assert "之前的摘要：\n- 第 1 次摘要" in inputs[1]


def test_summarizer_asks_the_model_once_per_set_of_old_rounds():
    client = ScriptedClient([reply("- 摘要")])
    policy = Summarizer(client, count_tokens(history()) - 20, keep_last_rounds=1)
    first = policy(history())
    assert policy(history()) == first and policy.summaries_written == 1 and client.remaining == 0


def test_compress_with_the_simulator_keeps_what_the_prompt_asks_for(sim):
    messages = history()
    compressed = compress(messages, sim, budget=count_tokens(messages) - 20, keep_last_rounds=1)
    summary = summary_text(compressed[1])
    assert re.search(r"预算上限(是)? 5000 元", summary) and "calculator" not in summary
    tutorial_prompt = "把下面的对话压缩成要点，保留关键事实和未完成的任务。"
    compressed = compress(
        messages,
        sim,
        budget=count_tokens(messages) - 20,
        keep_last_rounds=1,
        prompt=tutorial_prompt,
    )
    assert "5000" in summary_text(compressed[1]) and "【约束】" not in compressed[1]["content"]


# -- the conversation ------------------------------------------------------------------------------


def test_conversation_carries_history_and_resolves_references(sim):
    conversation = Conversation(sim, basic_registry(now=FIXED_NOW))
    first = conversation.ask("北京明天天气怎么样？")
    second = conversation.ask("那上海呢？")
    assert [r.call.args for r in first.tool_calls] == [{"city": "北京", "date": "tomorrow"}]
    assert [r.call.args for r in second.tool_calls] == [{"city": "上海", "date": "tomorrow"}]
    assert "上海" in second.answer and "阴" in second.answer
    conversation.ask("17 乘以 9 等于多少？")
    doubled = conversation.ask("刚才那个结果乘以 2")
    assert [r.call.args for r in doubled.tool_calls] == [
        {"expression": "153 * 2"}
    ] and "306" in doubled.answer
    assert len(conversation.runs) == 4 and conversation.messages == conversation.transcript
    assert sum(m["role"] == "user" for m in conversation.messages) == 4


def test_conversation_applies_its_policy_before_every_call_and_keeps_the_compacted_history(sim):
    registry = basic_registry(now=FIXED_NOW)
    conversation = Conversation(sim, registry, memory=Window(1200, tools=registry.schemas()))
    for text in rounds()[:8]:
        conversation.ask(text)
    assert count_tokens(conversation.messages, registry.schemas()) <= 1200
    assert len(conversation.transcript) > len(conversation.messages)
    assert not pairing_problems(conversation.messages)


def test_summary_keeps_the_planted_facts_and_the_window_loses_them(sim):
    """Compression keeps at least 9 of 10 planted facts in a scripted 20-round conversation."""
    registry = basic_registry(now=FIXED_NOW)
    tools = registry.schemas()
    kept = {}
    for name, policy in [
        ("summary", Summarizer(sim, 1600, keep_last_rounds=2, tools=tools)),
        ("window", Window(1600, keep_last_rounds=2, tools=tools)),
    ]:
        conversation = Conversation(sim, registry, memory=policy)
        for text in rounds():
            assert conversation.ask(text).stop_reason == "final"
        said = [m["content"] for m in conversation.messages if m["role"] == "user"]
        gone = [planted for planted in PLANTED if planted.statement not in said]
        assert len(gone) >= 6, (
            "most planted rounds must have left the history, so the answers come from the summary"
        )
        recalls = ask_planted(conversation)
        kept[name] = sum(r.kept for r in recalls)
        kept[name + "_of_gone"] = sum(r.kept for r in recalls if r.planted in gone), len(gone)
    assert kept["summary"] >= 9, kept
    assert kept["summary_of_gone"][0] >= kept["summary_of_gone"][1] - 1, kept
    assert kept["window_of_gone"][0] == 0, kept


def test_tokens_per_call_and_the_plot(sim):
    import matplotlib

    matplotlib.use("Agg")
    from handwritten_agent.memory.plot import chinese_font, plot_tokens_per_call, tokens_per_call

    registry = basic_registry(now=FIXED_NOW)
    texts = ["北京明天天气怎么样？", "那上海呢？", "你好"]
    counts = tokens_per_call(lambda: Conversation(sim, registry), texts, registry.schemas())
    assert len(counts) == 5 and counts == sorted(counts), (
        "2 + 2 + 1 model calls, each sending more than the last"
    )
    figure = plot_tokens_per_call(
        {("不管理", "no policy"): counts, "window": counts[:3]}, budget=1000
    )
    axes = figure.axes[0]
    assert len(axes.lines) == 3 and [line.get_label() for line in axes.lines][1] == "window"
    assert axes.lines[0].get_label() == ("不管理" if chinese_font() else "no policy")
