"""The budget, the low-water mark and prompt caching: what a memory policy sends, how often it
changes, what it costs.

- ``context_budget``: the request's budget is the context window minus the reply's room minus a
  margin;
- a window or a summary with ``low_water`` fills only that share of the room the budget leaves once
  the parts always kept are counted, so the next rounds are appended to an unchanged prefix — fewer
  prefix changes, fewer summaries — and the facts stay;
- ``CallLog`` records every call (the summarizer's too) with the prefix shared with an earlier
  request;
- the simulator reads back a tight summary (one line per group) and keeps its items' rank when it
  rolls it.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from conftest import FIXED_NOW
from handwritten_agent.course.offline.backend import ChatRequest
from handwritten_agent.course.offline.simulator import CourseSimulator
from handwritten_agent.llm import ChatClient
from handwritten_agent.llm.replies import usage_of
from handwritten_agent.memory import (
    CallLog,
    Conversation,
    Summarizer,
    Window,
    compress,
    context_budget,
    count_tokens,
    pairing_problems,
    split_rounds,
    trim_messages,
)
from handwritten_agent.memory.caching import shared_prefix_tokens
from handwritten_agent.memory.sample import PLANTED, ask_planted, rounds
from handwritten_agent.memory.summary import is_summary_message, summary_message
from handwritten_agent.messages import ChatResult, Usage
from handwritten_agent.pricing import Price
from handwritten_agent.scenarios import basic_registry
from handwritten_agent.scripted import FunctionClient
from handwritten_agent.tokens import estimate_tokens


@pytest.fixture(scope="module")
def sim(offline_server) -> ChatClient:
    return ChatClient(offline_server.base_url, "test", "course-sim", max_retries=0)


def chat(n: int) -> list[dict]:
    messages = [{"role": "system", "content": "你是助手。"}]
    for i in range(n):
        messages += [
            {"role": "user", "content": f"第 {i} 个问题：北京明天天气怎么样，要带伞吗？"},
            {"role": "assistant", "content": f"第 {i} 个回答：多云，不用带伞，温度 4 到 15 度。"},
        ]
    return messages


# -- the budget ------------------------------------------------------------------------------------


def test_context_budget_leaves_room_for_the_reply_and_a_margin():
    assert context_budget(4096, 1024) == int(4096 * 0.9) - 1024
    assert context_budget(128_000, 4_000, margin=0.05) == 117_600
    assert context_budget(8192, 0, margin=0) == 8192
    with pytest.raises(ValueError, match="没有空间"):
        context_budget(2048, 2000)
    with pytest.raises(ValueError, match="margin"):
        context_budget(4096, 100, margin=1.5)


# -- the low-water mark ----------------------------------------------------------------------------


def test_a_window_with_a_low_water_mark_cuts_deeper_but_keeps_the_latest_rounds():
    messages = chat(12)
    budget = count_tokens(messages) - 10
    just = trim_messages(messages, budget)
    deep = trim_messages(messages, budget, low_water=0.6)
    assert count_tokens(just) <= budget and count_tokens(just) > 0.9 * budget
    fixed = count_tokens(
        [messages[0]] + messages[-2:]
    )  # the head and the one round that is always kept
    assert count_tokens(deep) <= fixed + 0.6 * (budget - fixed) and len(split_rounds(deep)) < len(
        split_rounds(just)
    )
    assert deep[-2:] == messages[-2:] and deep[0] == messages[0] and not pairing_problems(deep)
    assert trim_messages(messages, 10**6, low_water=0.5) == messages, (
        "under the budget nothing changes"
    )
    # the kept rounds fill the budget: nothing older fits under the mark, they are kept
    tight = trim_messages(
        messages, count_tokens([messages[0]] + messages[-4:]), keep_last_rounds=2, low_water=0.5
    )
    assert tight == [messages[0]] + messages[-4:]
    with pytest.raises(ValueError, match="low_water"):
        trim_messages(messages, budget, low_water=0)


def prefix_changes(requests: list[list[dict]]) -> int:
    """How many requests do not start with the whole previous request (a provider's cache then
    misses).
    """
    return sum(1 for before, after in zip(requests, requests[1:]) if after[: len(before)] != before)


def verbose_summarizer(calls: list[int]) -> FunctionClient:
    """A summarizer that fills the room it is told (as a wordy model would): the worst case for a
    summary written to fit.
    """

    def summarize(messages, tools):
        told = int(re.search(r"摘要的长度上限：(\d+) 个 token", messages[0]["content"]).group(1))
        calls.append(told)
        text = "- 用户说过的事。"
        while estimate_tokens(text + "\n- 用户说过的另一件事。") <= told:
            text += "\n- 用户说过的另一件事。"
        return ChatResult(content=text)

    return FunctionClient(summarize, max_calls=10**6)


def test_the_low_water_mark_changes_the_prefix_less_often_and_writes_fewer_summaries(sim):
    registry = basic_registry(now=FIXED_NOW)
    tools = registry.schemas()
    changes, summaries = {}, {}
    for low_water in (1.0, 0.6):
        written: list[int] = []
        for name, make in (
            (
                "window",
                lambda low_water=low_water: Window(
                    1800, keep_last_rounds=2, tools=tools, low_water=low_water
                ),
            ),
            (
                "summary",
                lambda low_water=low_water, written=written: Summarizer(
                    verbose_summarizer(written),
                    1800,
                    keep_last_rounds=2,
                    tools=tools,
                    low_water=low_water,
                ),
            ),
        ):
            log = CallLog(sim)
            conversation = Conversation(log, registry, memory=make())
            for text in rounds():
                conversation.ask(text)
            requests = [call.messages for call in log.calls]
            assert max(count_tokens(m, tools) for m in requests) <= 1800
            changes[name, low_water] = prefix_changes(requests)
        summaries[low_water] = len(written)
    assert changes["window", 0.6] < changes["window", 1.0], changes
    assert changes["summary", 0.6] < changes["summary", 1.0] / 2, changes
    assert summaries[0.6] < summaries[1.0] / 2, summaries


def test_with_the_low_water_mark_the_simulator_still_answers_every_planted_question(sim):
    registry = basic_registry(now=FIXED_NOW)
    policy = Summarizer(sim, 1600, keep_last_rounds=2, tools=registry.schemas(), low_water=0.6)
    conversation = Conversation(sim, registry, memory=policy)
    for text in rounds():
        conversation.ask(text)
    said = [m["content"] for m in conversation.messages if m["role"] == "user"]
    assert sum(planted.statement not in said for planted in PLANTED) >= 6, (
        "the answers must come from the summary"
    )
    assert sum(r.kept for r in ask_planted(conversation)) == len(PLANTED)


def test_compress_aims_at_the_low_water_mark_and_tells_the_summarizer():
    told = []

    def summarizer(messages, tools):
        told.append(messages[0]["content"])
        return ChatResult(content="- 用户问过天气")

    messages = chat(12)
    for budget, low_water in (
        (count_tokens(messages) - 10, 0.6),
        (count_tokens(messages) // 2, 0.5),
        (count_tokens(messages) - 10, 1.0),
    ):
        result = compress(
            messages,
            FunctionClient(summarizer),
            budget=budget,
            keep_last_rounds=2,
            low_water=low_water,
        )
        fixed = count_tokens([messages[0], summary_message("")] + messages[-4:])
        room = int(low_water * (budget - fixed))
        assert f"摘要的长度上限：{room} 个 token" in told[-1], (budget, low_water, told[-1][-80:])
        assert (
            is_summary_message(result[1])
            and result[2:] == messages[-4:]
            and count_tokens(result) <= fixed + room
        )


# -- prompt caching --------------------------------------------------------------------------------


def test_shared_prefix_counts_whole_messages_with_the_same_tools():
    tools = [
        {
            "type": "function",
            "function": {
                "name": "f",
                "description": "一个工具",
                "parameters": {"type": "object", "properties": {}},
            },
        }
    ]
    first = chat(2)
    grown = first + [{"role": "user", "content": "再问一次"}]
    assert shared_prefix_tokens(grown, tools, [(first, tools)]) == count_tokens(first, tools)
    assert shared_prefix_tokens(grown, None, [(first, tools)]) == 0, "other tools: another prefix"
    moved = (
        [first[0]] + first[3:] + [{"role": "user", "content": "再问一次"}]
    )  # a window dropped the oldest round
    assert shared_prefix_tokens(moved, tools, [(first, tools)]) == count_tokens(first[:1], tools)
    assert shared_prefix_tokens(grown, tools, [(first, tools)], minimum=10**6) == 0
    assert shared_prefix_tokens(grown, tools, [(first, tools)], step=128) % 128 == 0


def test_call_log_records_every_call_and_prices_it():
    def model(messages, tools):
        return ChatResult(
            content="好的",
            usage=Usage(prompt_tokens=count_tokens(messages, tools), completion_tokens=3),
        )

    log = CallLog(FunctionClient(model))
    log.complete(chat(1))
    log.complete(chat(2))
    log.complete([{"role": "system", "content": "请总结"}, {"role": "user", "content": "对话"}])
    assert [c.cached_estimate for c in log.calls] == [0, count_tokens(chat(1)), 0]
    assert (
        log.totals()["calls"] == 3
        and log.totals()["output"] == 9
        and log.calls[0].cached_reported is None
    )
    prices = Price(input=2.0, output=8.0, cached_input=0.5)
    assert prices.cost(1_000_000, 0, 400_000) == pytest.approx(1.4)
    assert log.cost(prices) < log.cost(prices, cached=False)
    assert log.cost(prices, cached=False) == pytest.approx(
        sum(prices.cost(c.input_tokens, c.output_tokens) for c in log.calls)
    )


def test_reported_cached_tokens_reads_openai_and_deepseek_usage():
    openai_like = usage_of(
        SimpleNamespace(
            usage=SimpleNamespace(prompt_tokens_details=SimpleNamespace(cached_tokens=1152))
        )
    )
    deepseek_like = usage_of(
        SimpleNamespace(
            usage=SimpleNamespace(prompt_tokens_details=None, prompt_cache_hit_tokens=640)
        )
    )
    assert openai_like.cached_tokens == 1152 and deepseek_like.cached_tokens == 640
    assert usage_of(SimpleNamespace(usage=None)) is None and usage_of(None) is None


# -- the simulator reads a tight summary back ------------------------------------------------------

SIMULATOR = CourseSimulator()


def test_a_tight_summary_is_read_item_by_item_and_rolls_without_losing_its_ranks():
    compact = (
        "【约束】预算上限 7300 元；对芒果过敏\n【偏好】喜欢靠过道的座位\n"
        "【事实与数字】get_weather(city=北京) → 多云；calculator(expression=3 * 4) → 12"
    )
    asked = [
        {"role": "system", "content": "你是助手。"},
        summary_message(compact),
        {"role": "user", "content": "我对什么过敏？"},
    ]
    answer = SIMULATOR.complete(
        ChatRequest(
            model="course-sim", messages=asked, tools=basic_registry(now=FIXED_NOW).schemas()
        )
    ).content
    assert "芒果" in answer and "7300" not in answer, answer
    again = SIMULATOR.complete(
        ChatRequest(
            model="course-sim",
            messages=[
                {
                    "role": "system",
                    "content": (
                        "请压缩对话，保留事实和数字、偏好、约束。摘要的长度上限：40 个 token"
                    ),
                },
                {
                    "role": "user",
                    "content": f"之前的摘要：\n{compact}\n\n之后的对话：\n用户：我的工号是 E4821。",
                },
            ],
        )
    ).content
    assert again.count("【约束】") == 1 and "7300" in again and "靠过道" in again, again
    assert "get_weather" not in again, (
        "a tool result from the earlier summary yields first when the budget is tight"
    )
