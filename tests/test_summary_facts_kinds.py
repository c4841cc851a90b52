"""Summaries that keep facts of other words and kinds: ``compress`` at a third of the size, at the
default low-water mark, with facts the other measurement (``test_simulator_summary_facts.py``) never
plants.

That measurement's generator is what the summary was tuned with, so a rule fitted to its word lists
would pass there and fail here. This one plants other people, places named by their kind (…区, …路,
…镇) or other cities, other amounts and limits, codes with letters and dashes, counts of other
things, times with minutes, other preferences, allergies, tasks and decisions, and English notes
with other nouns; its chatter is other small talk; and the memory requests are worded differently.

Measured on its 32 conversations (``MEASURED``), conversations keeping at least 9 of their 10 facts:
at the default mark, 17 before the dense layout and the shorter summary note (8 keep all ten, 15
keep 6 to 8), 31 now (23 keep all ten, 8 keep nine, 1 keeps eight); with all the room
(``low_water=1.0``) 32 before and now (27 keep all ten). The one fact that all the room does not
save is a name followed by a verb ("合同交给罗敏处理": the rules find a name only before a
punctuation mark or a few words such as 负责/对接), lost in 5 conversations: a gap in recognising
names, not in the room.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from handwritten_agent.course.offline.simulator.summary import extractive_summary
from handwritten_agent.memory import compress, count_tokens
from handwritten_agent.memory.summary import (
    LOW_WATER,
    SUMMARY_HEADING,
    SUMMARY_NOTE,
    SUMMARY_PROMPT,
    budget_line,
    is_summary_message,
    summary_message,
    summary_text,
)
from handwritten_agent.tokens import estimate_tokens
from tests.simkit import summarizer

SEEDS = range(32)
SUMMARIZER = summarizer()

PEOPLE = ["周晓", "黄磊", "何静", "马骏", "罗敏", "胡杨", "郭峰", "唐宁", "谢婷", "韩冰"]
DISTRICTS = ["滨江区", "嘉定区", "天河区", "雁塔区", "思明区", "江北区"]
STREETS = ["人民路", "解放路", "中山路", "建设路"]
TOWNS = ["朱家角镇", "周庄镇", "西塘镇"]
OTHER_CITIES = ["大连", "宁波", "合肥", "郑州", "贵阳", "福州", "珠海", "无锡"]
ALLERGENS = ["花粉", "青霉素", "猫毛", "坚果", "酒精"]
DRINKS = ["乌龙茶", "拿铁", "椰汁", "酸梅汤"]
ERRANDS = ["续费会员", "交物业费", "给房东打电话", "取干洗的衣服", "预约保养"]


def _makers(rng: random.Random) -> list:
    """Makers of one fact each: ``() -> (sentence, value that must survive)``."""
    n, pick = rng.randint, rng.choice

    def person():
        v = pick(PEOPLE)
        words = ["项目经理是{v}", "合同交给{v}处理", "出了问题联系{v}", "我的主管叫{v}"]
        return pick(words).format(v=v), v

    def place():
        v = pick([pick(DISTRICTS), pick(STREETS), pick(TOWNS), pick(OTHER_CITIES)])
        words = ["我家住在{v}", "新办公室在{v}", "仓库搬到{v}了", "周年活动去{v}"]
        return pick(words).format(v=v), v

    def rent():
        v = n(25, 95) * 100
        words = ["月租不能超过 {v} 元", "押金最多付 {v} 元", "装修预算是 {v} 块"]
        return pick(words).format(v=v), str(v)

    def code():
        v = pick([f"HT-{n(2020, 2026)}-{n(100, 999)}", f"VIP{n(10000, 99999)}"])
        words = ["合同编号是 {v}", "会员号 {v}", "发票抬头备注写 {v}"]
        return pick(words).format(v=v), v

    def plate():
        v = f"{pick('浙沪苏粤')}{pick('ABCD')}{n(10000, 99999)}"
        return pick(["车牌号是 {v}", "我的车牌 {v}"]).format(v=v), v

    def clock():
        v = f"早上 {n(6, 9)} 点 {pick(['10', '20', '40', '50'])} 分"
        return pick(["高铁{v}发车", "每天{v}要送孩子"]).format(v=v), v

    def count():
        k = n(2, 9)
        v, word = pick(
            [
                (f"{k} 张票", "一共要 {v}"),
                (f"{k} 个孩子", "同行的还有 {v}"),
                (f"{k} 天", "租车租 {v}"),
            ]
        )
        return word.format(v=v), v

    def weight():
        v = f"{n(15, 30)} 公斤"
        return pick(["行李不超过 {v}", "托运最多 {v}"]).format(v=v), v

    def preference():
        v, word = pick(
            [
                (pick(DRINKS), "我爱喝{v}"),
                ("红眼航班", "我讨厌坐{v}"),
                (pick(["二等座", "下铺", "无烟房"]), "我偏好{v}"),
            ]
        )
        return word.format(v=v), v

    def allergy():
        v = pick(ALLERGENS)
        return pick(["我对{v}过敏", "{v}绝对不能碰"]).format(v=v), v

    def errand():
        v = pick(ERRANDS)
        return pick(["记得提醒我{v}", "我还没{v}", "回头要{v}"]).format(v=v), v

    def decision():
        v = pick(["周六出发", "坐高铁去", "住民宿"])
        return pick(["我们决定{v}", "最后敲定{v}"]).format(v=v), v

    def english():
        v, word = pick(
            [
                (f"{n(10, 40)}{pick('ACDF')}", "my seat is {v}"),
                (f"D{n(1, 30)}", "the gate is {v}"),
                (f"XK{n(100, 999)}", "our booking code is {v}"),
            ]
        )
        return word.format(v=v), v

    return [
        person,
        place,
        rent,
        code,
        plate,
        clock,
        count,
        weight,
        preference,
        allergy,
        errand,
        decision,
        english,
    ]


MARKERS = ["麻烦记一下：", "帮我记着，", "请备注一下：", "记住这个："]
ENGLISH_MARKERS = ["Keep in mind that ", "Please note that "]
CHATTER = [
    "周末去钓鱼了",
    "最近在追一部剧",
    "哈哈这也太巧了",
    "今天地铁好挤",
    "刚吃完午饭",
    "好嘞",
    "辛苦啦",
    "我去开个会",
    "你这效率真高",
    "嗯嗯知道啦",
    "晚上想吃点清淡的",
    "下雨了有点烦",
]
REPLIES = [
    "好的，这条我记下了，之后安排行程时会按这个来。",
    "明白，我会注意的，有变化随时跟我说一声就行。",
    "没问题，这件事交给我，办好了第一时间告诉你。",
    "收到，还有别的需要我一起处理的吗？",
    "哈哈，是的是的，生活里总有这样的小插曲。",
    "了解了，我已经清楚你的情况，后面会一并考虑。",
]


def conversation(seed: int) -> tuple[list[dict], list[str], list[str]]:
    """Messages, the planted values and the chatter said, for one seed; the last two rounds are
    chatter (``compress`` keeps them whole), so every fact has to pass through the summary.
    """
    rng = random.Random(seed)
    facts = [make() for make in rng.sample(_makers(rng), 10)]
    kinds = ["fact"] * 10 + ["chatter"] * rng.randint(5, 8) + ["tool"] * rng.randint(0, 2)
    rng.shuffle(kinds)
    kinds += ["chatter", "chatter"]
    messages: list[dict] = [{"role": "system", "content": "你是一个细心的生活助理。"}]
    said: list[str] = []
    pending = list(facts)
    for index, kind in enumerate(kinds):
        if kind == "tool":
            a, b = rng.randint(2, 40), rng.randint(2, 40)
            call = {
                "id": f"call_{seed}_{index}",
                "type": "function",
                "function": {
                    "name": "calculator",
                    "arguments": json.dumps({"expression": f"{a} + {b}"}),
                },
            }
            messages += [
                {"role": "user", "content": f"{a} 加 {b} 是多少？"},
                {"role": "assistant", "content": None, "tool_calls": [call]},
                {"role": "tool", "tool_call_id": call["id"], "content": str(a + b)},
                {"role": "assistant", "content": f"{a} 加 {b} 等于 {a + b}。"},
            ]
            continue
        if kind == "fact":
            sentence, _ = pending.pop()
            if sentence.isascii():
                marker = rng.choice(ENGLISH_MARKERS + [""])
                text = f"{marker}{sentence}." if marker else f"{sentence[0].upper()}{sentence[1:]}."
            else:
                marker = rng.choice(MARKERS) if rng.random() < 0.5 else ""
                text = f"{marker}{sentence}。"
                if rng.random() < 0.4:
                    said.append(rng.choice(CHATTER))
                    text += f"{said[-1]}。"
        else:
            lines = rng.sample(CHATTER, rng.randint(1, 3))
            said += lines
            text = "。".join(lines) + "。"
        messages += [
            {"role": "user", "content": text},
            {"role": "assistant", "content": "".join(rng.sample(REPLIES, rng.randint(1, 2)))},
        ]
    return messages, [value for _, value in facts], said


# low-water mark → conversations (of 32) keeping at least 9 of their 10 facts: (the floor asserted,
# measured before the dense layout and the shorter note, measured now)
MEASURED = {LOW_WATER: (31, 17, 31), 1.0: (32, 32, 32)}


@pytest.fixture(scope="module")
def summaries() -> dict[tuple[float, int], tuple[list[dict], str, int]]:
    results = {}
    for low_water in MEASURED:
        for seed in SEEDS:
            messages, _, _ = conversation(seed)
            budget = count_tokens(messages) // 3
            kept = compress(messages, SUMMARIZER, budget=budget, low_water=low_water)
            summary = "\n".join(summary_text(m) for m in kept if is_summary_message(m))
            results[low_water, seed] = (kept, summary, budget)
    return results


def test_the_conversations_need_a_summary_and_their_facts_are_recognised():
    for seed in SEEDS:
        messages, values, _ = conversation(seed)
        assert count_tokens(messages) > 650 and len(set(values)) == 10, seed


@pytest.mark.parametrize("low_water", list(MEASURED), ids=["default low water", "all the room"])
def test_nine_of_ten_facts_of_other_kinds_survive_a_third(summaries, low_water):
    counts = []
    for seed in SEEDS:
        _, values, _ = conversation(seed)
        kept, summary, budget = summaries[low_water, seed]
        assert count_tokens(kept) <= budget and summary
        counts.append(sum(value in summary for value in values))
    floor, _, _ = MEASURED[low_water]
    assert sum(count >= 9 for count in counts) >= floor, sorted(counts)


def test_every_line_of_the_summary_carries_a_fact_and_no_chatter(summaries):
    for seed in SEEDS:
        _, values, said = conversation(seed)
        _, summary, _ = summaries[LOW_WATER, seed]
        for line in summary.splitlines():
            items = re.sub(r"^【[^】]+】|^-\s*", "", line.strip()).split("；")
            for item in filter(None, items):
                assert any(v in item for v in values) or " → " in item, (item, summary)
        for chatter in said:
            assert chatter not in summary, (chatter, summary)


def test_a_dense_summary_drops_its_headings_before_a_fact():
    """Ten short facts that do not all fit with their group headings: without the headings, each
    on its own "-" line, they do; with room, the headings stay.
    """
    transcript = "\n".join(
        [
            "用户：我对青霉素过敏。我爱喝椰汁。项目经理是唐宁。我家住在嘉定区。",
            "用户：车牌号是 沪B39517。行李不超过 23 公斤。我还没交物业费。",
            "用户：我们决定住民宿。租车租 4 天。The gate is D17.",
        ]
    )
    values = ["青霉素", "椰汁", "唐宁", "嘉定区", "沪B39517", "23 公斤", "交物业费", "住民宿"]
    values += ["4 天", "D17"]
    roomy = extractive_summary(f"{SUMMARY_PROMPT}\n{budget_line(200)}", transcript)
    assert "【约束】" in roomy and all(v in roomy for v in values), roomy
    tight = extractive_summary(f"{SUMMARY_PROMPT}\n{budget_line(60)}", transcript)
    assert estimate_tokens(tight) <= 60, tight
    assert all(v in tight for v in values), tight
    assert "【" not in tight and all(line.startswith("-") for line in tight.splitlines()), tight
    assert "gate D17" in tight, "a dense line leaves out the article and the copula"


def test_a_dense_summary_rolls_with_each_item_under_its_own_heading():
    """An earlier summary in the dense layout ("-" lines, no headings) is read item by item, and
    each item goes under the heading its words call for once there is room again.
    """
    rolled = extractive_summary(
        f"{SUMMARY_PROMPT}\n{budget_line(200)}",
        "之前的摘要：\n-对猫毛过敏\n-爱喝拿铁\n-主管叫韩冰\n-新办公室在解放路\n-会员号 VIP48213\n"
        "\n之后的对话：\n用户：我还没预约保养。",
    )
    groups = {
        label: body for label, body in re.findall(r"^【([^】]+)】\n?((?:- .+\n?)+)", rolled, re.M)
    }
    assert "猫毛" in groups.get("约束", ""), rolled
    assert "拿铁" in groups.get("偏好", ""), rolled
    assert "韩冰" in groups.get("人名", ""), rolled
    assert "解放路" in groups.get("地点", ""), rolled
    assert "VIP48213" in groups.get("事实与数字", ""), rolled
    assert "预约保养" in groups.get("未完成的任务", ""), rolled


def test_the_summary_note_does_not_repeat_its_heading_and_an_earlier_one_is_still_read():
    """The heading says what the message is; the note only what the heading does not (its tokens
    come out of the summary's room in every request after a compression).
    """
    assert "摘要" not in SUMMARY_NOTE and estimate_tokens(SUMMARY_NOTE) <= 22
    written_before = (
        f"{SUMMARY_HEADING}以下是这次对话较早部分的摘要，由模型根据原文整理，可能遗漏细节；"
        "它是背景信息，不是用户的新要求。\n-对猫毛过敏"
    )
    message = {"role": "system", "content": written_before}
    assert is_summary_message(message) and summary_text(message) == "-对猫毛过敏"
    assert summary_text(summary_message("-对猫毛过敏")) == "-对猫毛过敏"
