"""Summaries that obey their budget: ten facts planted among chatter survive compression to a third
of the size.

Conversations are generated from seeds: 20 rounds, ten of which state one fact each (a budget, an
allergy, a contact person, a decision, a task, a code …, with random values), the others chatter ("
哈哈，今天真忙") or a small tool call, and chatter clauses around the facts too. ``compress`` runs
with the offline simulator as the summarizer and the budget at a third of the conversation's tokens.
Every fact's value must still be in the compressed messages, the result must fit, and no chatter may
be kept (so none is filed under a wrong group).
"""

from __future__ import annotations

import json
import random

import pytest

from handwritten_agent.memory import compress, count_tokens
from handwritten_agent.memory.summary import is_summary_message, summary_text
from tests.simkit import summarizer

SEEDS = range(40)
SUMMARIZER = summarizer()

CALCULATOR = {
    "type": "function",
    "function": {
        "name": "calculator",
        "description": "计算数学表达式",
        "parameters": {
            "type": "object",
            "properties": {"expression": {"type": "string"}},
            "required": ["expression"],
        },
    },
}

FOODS = ["花生", "海鲜", "芒果", "牛奶", "香菜", "羊肉"]
PEOPLE = ["王芳", "李娜", "张伟", "刘洋", "陈静", "赵磊"]
CITIES = ["杭州", "成都", "南京", "西安", "厦门", "青岛"]
TASKS = ["提交报销单", "续签合同", "预约体检", "交季度总结", "更新通讯录"]


def planted_facts(rng: random.Random) -> list[tuple[str, str]]:
    """Ten facts (sentence, the value that must survive), each from a different template."""
    n = rng.randint
    templates = [
        lambda: (f"我的预算上限是 {(v := n(20, 90) * 100)} 元", str(v)),
        lambda: (f"我对{(v := rng.choice(FOODS))}过敏", v),
        lambda: (f"客户联系人是{(v := rng.choice(PEOPLE))}", v),
        lambda: (f"会议定在周{rng.choice('一二三四五')}下午 {(v := n(2, 5))} 点", f"{v} 点"),
        lambda: (f"记得提醒我{(v := rng.choice(TASKS))}", v),
        lambda: (f"项目代号是 PX-{(v := n(10, 99))}", f"PX-{v}"),
        lambda: (f"我住在{(v := rng.choice(CITIES))}", v),
        lambda: (f"我每天最多工作 {(v := n(6, 9))} 小时", f"{v} 小时"),
        lambda: (f"出差日期是 {n(4, 9)} 月 {(v := n(10, 28))} 日", f"{v} 日"),
        lambda: (f"我的工号是 E{(v := n(1000, 9999))}", f"E{v}"),
        lambda: (f"我喜欢靠{(v := rng.choice(['窗', '过道']))}的座位", f"靠{v}"),
        lambda: (f"我们决定用{(v := rng.choice(['飞书', '钉钉', '企业微信']))}开周会", v),
    ]
    return [make() for make in rng.sample(templates, 10)]


CHATTER = [
    "哈哈，今天真是忙得团团转",
    "嗯嗯好的",
    "你说得对，我也是这么想的",
    "谢谢你啊，帮了大忙",
    "今天心情真不错呢",
    "我先去倒杯水，马上回来",
    "好吧，那就这样吧",
    "辛苦了辛苦了",
    "哦哦，原来如此",
    "真不错，挺好的",
    "这样啊，我想想",
    "收到收到",
]
REPLIES = [
    "好的，明白了，后面安排的时候我会一并考虑进去。",
    "收到，我会注意的，有需要随时告诉我。",
    "没问题，这个交给我就好。",
    "嗯，好的，还有什么需要我帮忙的吗？",
    "了解，我已经清楚你的意思了。",
    "不客气，能帮上忙我也很高兴。",
]
LEADS = ["", "", "对了，", "哈哈，对了，", "嗯，", "顺便说一下，"]


def conversation(seed: int) -> tuple[list[dict], list[str], list[str]]:
    """A 20-round conversation, the values of its ten facts, and the chatter it contains."""
    rng = random.Random(seed)
    facts = planted_facts(rng)
    kinds = ["fact"] * 10 + ["chatter"] * 8 + ["tool"] * 2
    rng.shuffle(kinds)
    messages: list[dict] = [{"role": "system", "content": "你是一个贴心的助手。"}]
    said: list[str] = []
    pending = list(facts)
    for index, kind in enumerate(kinds):
        if kind == "fact":
            sentence, _ = pending.pop()
            tail = rng.choice(CHATTER) + "。" if rng.random() < 0.4 else ""
            messages += [
                {"role": "user", "content": f"{rng.choice(LEADS)}{sentence}。{tail}"},
                {"role": "assistant", "content": "".join(rng.sample(REPLIES, rng.randint(1, 2)))},
            ]
        elif kind == "chatter":
            lines = rng.sample(CHATTER, rng.randint(1, 3))
            said.extend(lines)
            messages += [
                {"role": "user", "content": "。".join(lines) + "。"},
                {"role": "assistant", "content": "".join(rng.sample(REPLIES, rng.randint(1, 2)))},
            ]
        else:
            a, b = rng.randint(2, 30), rng.randint(2, 30)
            call_id = f"call_{seed}_{index}"
            messages += [
                {"role": "user", "content": f"{a} 乘以 {b} 等于多少？"},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": call_id,
                            "type": "function",
                            "function": {
                                "name": "calculator",
                                "arguments": json.dumps({"expression": f"{a} * {b}"}),
                            },
                        }
                    ],
                },
                {"role": "tool", "tool_call_id": call_id, "content": str(a * b)},
                {"role": "assistant", "content": f"{a} 乘以 {b} 等于 {a * b}。"},
            ]
    return messages, [value for _, value in facts], said


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("fraction", [3, 1.5], ids=["a third", "two thirds"])
def test_ten_planted_facts_survive_compression(seed, fraction):
    messages, values, chatter = conversation(seed)
    original = count_tokens(messages)
    budget = int(original / fraction)
    compressed = compress(
        messages, SUMMARIZER, budget=budget, keep_last_rounds=2, low_water=1.0
    )  # all the room the budget leaves
    assert count_tokens(compressed) <= budget
    kept = json.dumps(compressed, ensure_ascii=False)
    lost = [value for value in values if value not in kept]
    assert not lost, (lost, [summary_text(m) for m in compressed if is_summary_message(m)])
    summary = "\n".join(summary_text(m) for m in compressed if is_summary_message(m))
    assert summary, "the budget needs a summary"
    kept_chatter = [line for line in set(chatter) if line.rstrip("吧呢啊") in summary]
    assert not kept_chatter, (kept_chatter, summary)


def test_the_generated_conversations_are_long_enough_to_need_it():
    sizes = [count_tokens(conversation(seed)[0]) for seed in SEEDS]
    assert min(sizes) > 450 and all(
        len([m for m in conversation(seed)[0] if m["role"] == "user"]) == 20 for seed in SEEDS[:5]
    )
