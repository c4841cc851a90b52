"""Summaries that keep facts: ten facts planted among chatter survive ``compress`` at a third of the
conversation's size, through the offline backend.

Conversations are generated from seeds, combinatorially: ten facts of different kinds (a budget, a
dish the user does not eat, a person, a place, a date, a time, an order id, an employee id, a count,
a preference, a task, a decision, an English note …), each in one of several wordings, with or
without a memory request ("记一下：", "别忘了，", "Remember that" …) and with chatter around it;
rounds of chatter (greetings, thanks, small talk, built from parts) and a tool call or two between
them; the last two rounds are chatter, so every fact must pass through the summary. ``compress``
runs the real path — a ``ChatClient`` over the offline server — with the budget at a third of the
conversation's tokens, at the default low-water mark and with all the room the budget leaves.

Measured on the 48 conversations (``MEASURED``), conversations keeping at least 9 of their 10 facts:

- the default low-water mark (the summary may fill 60% of the room the budget leaves): 30 before
  this change (24 keep all ten; 5 to 8 facts in the other 18, a median of 9.5), 46 now (41 keep all
  ten, 5 keep nine, 2 keep eight; a median of 10);
- all the room (``low_water=1.0``): 48 before (46 keep all ten), 48 now (all 48 keep all ten).

What lost them was the layout, not the ranking: at the default mark the summary was told 57 to 124
tokens, and a heading per group (【事实与数字】, 【未完成的任务】 … up to seven of them, 3 to 6
tokens each) took 12% to 31% of that (a median of 19%). A tight summary now drops the headings when
that keeps more of what the user said — one dense "-" line per item, the groups one after another
("-工号 E1230", "-meeting room B462") — and the summary message's note no longer repeats what its
heading says (10 tokens shorter, so the summary is told about 6 more). Neither is enough alone: the
layout alone gives 41 (43 with dense English lines: "the meeting room is B462" → "meeting room
B462"), the shorter note alone 34, both 46. Seeds 0 and 39 keep 8: they are told 62 and 66 tokens,
and nine of their facts take 68 and 69 even in the dense layout.
``tests/test_summary_facts_kinds.py`` measures the same on facts of other words and kinds.

Rolled round by round, as a ``Conversation`` keeps its history (``ROLLED``), the summary is
summarized again with every round that drops out: at the default mark it is rewritten in 42% of the
rounds from the first summary on (44% before) and 42 conversations keep at least 9 facts at the end
(21 before); with all the room, 55% and 48. That is the low-water mark's trade-off, measured the
same way: at 0.5 / 0.6 / 0.7 / 0.8 / 1.0 the summary is rewritten in 38% / 42% / 45% / 50% / 55% of
the rounds, 27 / 42 / 47 / 48 / 48 conversations keep 9 facts rolled, and 40 / 46 / 48 / 48 / 48
keep them through one compression. The default stays at 0.6 (the Day 4 notebook and exercise check
are built on it): a higher mark buys facts with rewrites, and the dense layout already keeps most of
them.

An earlier change: 46 of the 48 summaries (at the default mark) filed chatter under a group ("一定
要开心哦" under 【约束】, "这两天好忙啊" under 【事实与数字】) and 21 filed a city under 【人名】;
since then none, and no dense line carries anything but a fact or a tool result.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from handwritten_agent.course.offline.simulator.summary import extractive_summary
from handwritten_agent.llm import ChatClient
from handwritten_agent.memory import Summarizer, compress, count_tokens, split_rounds
from handwritten_agent.memory.summary import (
    EXTERNAL_SUMMARY_NOTE,
    LOW_WATER,
    SUMMARY_PROMPT,
    budget_line,
    is_summary_message,
    summary_text,
)
from handwritten_agent.tokens import estimate_tokens

SEEDS = range(48)

PEOPLE = ["王芳", "李娜", "张伟", "刘洋", "陈静", "赵磊", "孙悦", "吴敏", "郑凯", "林涛"]
CITIES = ["杭州", "成都", "南京", "西安", "厦门", "青岛", "苏州", "武汉", "长沙", "昆明"]
FOODS = ["香菜", "花生", "海鲜", "芒果", "羊肉", "辣"]
TASKS = ["提交报销单", "续签合同", "预约体检", "交季度总结", "更新通讯录", "退掉旧酒店"]
DRINKS = ["美式咖啡", "绿茶", "温水", "豆浆"]
APPS = ["飞书", "钉钉", "企业微信", "腾讯会议"]


def _fact_kinds(rng: random.Random) -> list:
    """Makers of one fact each: ``() -> (sentence, value that must survive, kind)``."""
    n, pick = rng.randint, rng.choice

    def digits(k: int) -> str:
        return "".join(str(n(0, 9)) for _ in range(k - 1)) + str(n(1, 9))

    def budget():
        v = n(20, 90) * 100
        words = [
            "预算不超过 {v} 元",
            "我的预算上限是 {v} 块",
            "总花费别超过 {v} 元",
            "这次最多花 {v} 元",
        ]
        return pick(words).format(v=v), str(v), "constraint"

    def diet():
        v = pick(FOODS)
        words = ["我不吃{v}", "我对{v}过敏", "{v}我一点都不能吃"]
        return pick(words).format(v=v), v, "constraint"

    def person():
        v = pick(PEOPLE)
        words = [
            "客户联系人是{v}",
            "我的经理叫{v}",
            "这件事找{v}对接",
            "负责人是{v}",
            "有问题可以问{v}",
        ]
        return pick(words).format(v=v), v, "person"

    def place():
        v = pick(CITIES)
        words = ["我住在{v}", "这次出差去{v}", "我们公司在{v}", "酒店订在{v}", "我老家是{v}的"]
        return pick(words).format(v=v), v, "place"

    def date():
        m, d = n(1, 12), n(1, 28)
        v = pick([f"{m} 月 {d} 日", f"{m}月{d}号"])
        words = ["会议定在 {v}", "{v}要出发", "出差日期是 {v}", "{v}交报告"]
        return pick(words).format(v=v), v, "date"

    def time():
        h = n(2, 9)
        v = pick([f"下午 {h} 点", f"晚上 {h} 点半"])
        words = [f"例会改到周{pick('一二三四五')}{{v}}", "我一般{v}以后才有空", "每天{v}提醒我吃药"]
        return pick(words).format(v=v), v, "time"

    def order_id():
        v = pick([f"OD2024{n(1, 12):02d}{n(1, 28):02d}", f"SF{digits(10)}"])
        words = ["订单号是 {v}", "我的单号 {v}", "快递单号是 {v}"]
        return pick(words).format(v=v), v, "id"

    def employee_id():
        v = f"E{n(1000, 9999)}"
        words = ["我的工号是 {v}", "工号 {v}，报销用得上", "报销时填工号 {v}"]
        return pick(words).format(v=v), v, "id"

    def count():
        k = n(3, 12)
        v, word = pick(
            [
                (f"{k} 个人", "我们一共 {v}"),
                (f"{k} 间房", "要订 {v}"),
                (f"{k} 位同事", "参会的有 {v}"),
            ]
        )
        return word.format(v=v), v, "number"

    def preference():
        v, word = pick(
            [
                (pick(["靠窗", "靠过道"]), "我喜欢{v}的座位"),
                (pick(DRINKS), "我更喜欢喝{v}"),
                (pick(APPS), "我习惯用{v}"),
                (pick(["黑色", "白色", "蓝色"]), "只要{v}的"),
            ]
        )
        return word.format(v=v), v, "preference"

    def task():
        v = pick(TASKS)
        words = ["记得提醒我{v}", "我还没{v}", "下周之前要{v}"]
        return pick(words).format(v=v), v, "task"

    def decision():
        v, word = pick(
            [
                (pick(APPS), "我们决定用{v}开周会"),
                (f"方案{pick('ABC')}", "就按{v}来"),
                (pick(["全季", "亚朵", "汉庭"]), "最后定了{v}酒店"),
            ]
        )
        return word.format(v=v), v, "decision"

    def english():
        v, word = pick(
            [
                (f"CA{n(1000, 9999)}", "my flight is {v}"),
                (f"B{n(100, 999)}", "the meeting room is {v}"),
            ]
        )
        return word.format(v=v), v, "english"

    def phone():
        v = digits(4)
        words = ["我的手机尾号是 {v}", "我的分机号 {v}"]
        return pick(words).format(v=v), v, "number"

    makers = [budget, diet, person, place, date, time, order_id, employee_id, count, preference]
    return makers + [task, decision, english, phone]


MARKERS = ["记一下：", "帮我记住，", "别忘了，", "请记住：", "记住：", "帮我记一下，", "备注一下："]
ENGLISH_MARKERS = ["Remember that ", "Note that ", "Please remember: "]
LEADS = ["", "", "", "对了，", "哈哈，对了，", "嗯，", "顺便说一下，", "另外，"]

# Chatter from parts: greetings, thanks, small talk — some with words that look like content
# (别 / 一定要 / 喜欢 / a day / a numeral) and still say nothing worth keeping.
GREETINGS = ["你好", "早上好呀", "哈喽", "在吗", "嗨", "good morning"]
THANKS = ["谢谢你啊", "太感谢了，帮了大忙", "辛苦了", "多谢多谢", "麻烦你了", "thanks a lot"]
SMALL_TALK = [
    when + what
    for when in ["今天", "最近", "这两天"]
    for what in ["天气真好", "好忙啊", "有点累", "心情不错", "事情特别多"]
] + [
    when + what
    for when in ["周末", "昨天", "中午"]
    for what in ["去爬山了", "看了场电影", "在家睡了一天", "吃了顿火锅"]
]
CHATTER_LINES = [
    "哈哈，你真幽默",
    "笑死我了",
    "你说得对，我也是这么想的",
    "好的好的",
    "嗯嗯，收到",
    "不用客气",
    "别客气",
    "一定要开心哦",
    "我先去倒杯水，马上回来",
    "这个问题挺有意思的",
    "让我想想啊",
    "你们这边服务真不错",
    "我挺喜欢和你聊天的",
]
REPLIES = [
    "好的，明白了，后面安排的时候我会一并考虑进去。",
    "收到，我会注意的，有需要随时告诉我。",
    "没问题，这个交给我就好。",
    "嗯，好的，还有什么需要我帮忙的吗？",
    "了解，我已经清楚你的意思了。",
    "不客气，能帮上忙我也很高兴。",
    "哈哈，是啊，注意休息。",
]


def chatter(rng: random.Random) -> str:
    kind = rng.choice([GREETINGS, THANKS, SMALL_TALK, SMALL_TALK, CHATTER_LINES, CHATTER_LINES])
    return rng.choice(kind)


def fact_message(rng: random.Random, sentence: str, kind: str) -> tuple[str, list[str]]:
    """A user message stating one fact, and the chatter said around it."""
    said: list[str] = []
    if kind == "english":
        marker = rng.choice(ENGLISH_MARKERS + [""])
        text = f"{marker}{sentence}." if marker else f"{sentence[0].upper()}{sentence[1:]}."
        return text, said
    marker = rng.choice(MARKERS) if rng.random() < 0.5 else ""
    lead = rng.choice(LEADS)
    text = f"{lead}{marker}{sentence}。"
    if rng.random() < 0.3:
        said.append(chatter(rng))
        text = f"{said[-1]}。{text}"
    if rng.random() < 0.4:
        said.append(chatter(rng))
        text += f"{said[-1]}。"
    return text, said


def tool_round(rng: random.Random, call_id: str) -> list[dict]:
    a, b = rng.randint(2, 30), rng.randint(2, 30)
    call = {
        "id": call_id,
        "type": "function",
        "function": {"name": "calculator", "arguments": json.dumps({"expression": f"{a} * {b}"})},
    }
    return [
        {"role": "user", "content": f"{a} 乘以 {b} 等于多少？"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": call_id, "content": str(a * b)},
        {"role": "assistant", "content": f"{a} 乘以 {b} 等于 {a * b}。"},
    ]


def conversation(seed: int) -> tuple[list[dict], dict[str, str], list[str]]:
    """Messages, the planted facts (value → kind) and the chatter said, for one seed."""
    rng = random.Random(seed)
    facts = [make() for make in rng.sample(_fact_kinds(rng), 10)]
    rounds = ["fact"] * 10 + ["chatter"] * rng.randint(6, 10) + ["tool"] * rng.randint(0, 2)
    rng.shuffle(rounds)
    rounds += ["chatter", "chatter"]  # the rounds compress keeps whole: no fact in them
    messages: list[dict] = [{"role": "system", "content": "你是一个贴心的助手。"}]
    said: list[str] = []
    pending = list(facts)
    for index, kind in enumerate(rounds):
        if kind == "tool":
            messages += tool_round(rng, f"call_{seed}_{index}")
            continue
        if kind == "fact":
            sentence, _, fact_kind = pending.pop()
            text, around = fact_message(rng, sentence, fact_kind)
            said += around
        else:
            lines = [chatter(rng) for _ in range(rng.randint(1, 3))]
            said += lines
            text = "。".join(lines) + rng.choice(["。", "！", "~"])
        reply = "".join(rng.sample(REPLIES, rng.randint(1, 2)))
        messages += [{"role": "user", "content": text}, {"role": "assistant", "content": reply}]
    return messages, {value: kind for _, value, kind in facts}, said


def summary_groups(summary: str) -> list[tuple[str, str]]:
    """(heading, item) pairs of a summary, in any layout ("【约束】a；b", "【约束】" and "- a"
    lines, or dense "-a" lines without a heading: the heading is then "").
    """
    pairs: list[tuple[str, str]] = []
    heading = ""
    for line in summary.splitlines():
        match = re.match(r"^【([^】]+)】(.*)$", line.strip())
        if match:
            heading = match.group(1)
            pairs += [
                (heading, part.strip()) for part in match.group(2).split("；") if part.strip()
            ]
        elif line.strip().startswith("-"):  # "- a" under a heading, or a dense line "-a"
            pairs.append((heading, line.strip()[1:].strip()))
    return pairs


# low-water mark → conversations (of 48) that keep at least 9 of their 10 facts: (the floor
# asserted, measured before this change, measured now). The default mark leaves 40% of the room for
# the rounds to come, so the summary is told 62 to 124 tokens; keeping 9 facts takes 53 to 78 of
# them in the dense layout (73 to 95 with a heading per group).
MEASURED = {LOW_WATER: (46, 30, 46), 1.0: (48, 48, 48)}


@pytest.fixture(scope="module")
def compressed(offline_server) -> dict[tuple[float, int], tuple[list[dict], str, int]]:
    """Each seed's compressed messages, summary and budget, at each low-water mark: the real path,
    through the server.
    """
    client = ChatClient(offline_server.base_url, "test", "course-sim", max_retries=0)
    results = {}
    for low_water in MEASURED:
        for seed in SEEDS:
            messages, _, _ = conversation(seed)
            budget = count_tokens(messages) // 3
            kept = compress(messages, client, budget=budget, low_water=low_water)
            summary = "\n".join(summary_text(m) for m in kept if is_summary_message(m))
            results[low_water, seed] = (kept, summary, budget)
    return results


def test_the_generated_conversations_vary_and_need_a_summary():
    texts = [conversation(seed) for seed in SEEDS]
    assert min(count_tokens(messages) for messages, _, _ in texts) > 600
    assert all(len(facts) == 10 for _, facts, _ in texts)
    users = [m["content"] for messages, _, _ in texts for m in messages if m["role"] == "user"]
    assert len(set(users)) > 0.9 * len(users), "the chatter and the facts' wordings vary"
    marked = [u for u in users if re.search(r"记一下|记住|别忘了|备注|Remember|Note that", u)]
    facts = sum(len(facts) for _, facts, _ in texts)
    assert 0.3 * facts < len(marked) < 0.7 * facts, "facts come with and without a memory request"


@pytest.mark.parametrize("low_water", list(MEASURED), ids=["default low water", "all the room"])
def test_nine_of_ten_planted_facts_survive_a_third(compressed, low_water):
    kept_counts = []
    for seed in SEEDS:
        _, facts, _ = conversation(seed)
        kept, summary, budget = compressed[low_water, seed]
        assert count_tokens(kept) <= budget
        assert summary, "a third of the conversation needs a summary"
        kept_counts.append(sum(value in summary for value in facts))
    good = sum(count >= 9 for count in kept_counts)
    floor, before, now = MEASURED[low_water]
    assert good >= floor, (good, len(SEEDS), sorted(kept_counts))


@pytest.mark.parametrize("low_water", list(MEASURED), ids=["default low water", "all the room"])
def test_chatter_never_lands_under_a_category_and_a_place_never_under_names(compressed, low_water):
    for seed in SEEDS:
        _, facts, said = conversation(seed)
        _, summary, _ = compressed[low_water, seed]
        for heading, item in summary_groups(summary):
            assert heading != "要点", summary  # the prompt names its groups: no gist
            carried = [value for value in facts if value in item]
            assert carried or " → " in item, f"{item!r} under 【{heading}】 carries no fact"
            if heading == "人名":
                assert all(facts[value] != "place" for value in carried), (heading, item)
        for line in said:
            for clause in re.split(r"[，,]", line):
                third = clause.replace("我", "用户")
                assert clause not in summary and third not in summary, (clause, summary)


# low-water mark → (summaries written per round from the first one on, conversations keeping at
# least 9 of 10 facts at the end): measured now, and before the dense layout and the shorter note
ROLLED = {LOW_WATER: ((0.42, 42), (0.44, 21)), 1.0: ((0.55, 48), (0.56, 48))}


def test_rolled_round_by_round_the_summary_keeps_the_facts_without_a_rewrite_every_round(
    offline_server,
):
    """As a ``Conversation`` keeps it: after every round the history is what the policy returned,
    so the summary rolls (an earlier summary is summarized again with the newly dropped rounds).
    The low-water mark is what keeps the summary from being rewritten every round.
    """
    client = ChatClient(offline_server.base_url, "test", "course-sim", max_retries=0)
    measured = {}
    for low_water in ROLLED:
        written = rounds_after = good = 0
        for seed in SEEDS:
            messages, facts, _ = conversation(seed)
            policy = Summarizer(client, count_tokens(messages) // 3, low_water=low_water)
            history = messages[:1]
            for round_ in split_rounds(messages):
                history = policy(history + round_)
                rounds_after += policy.summaries_written > 0
            written += policy.summaries_written
            summary = "\n".join(summary_text(m) for m in history if is_summary_message(m))
            good += sum(value in summary for value in facts) >= 9
        measured[low_water] = (round(written / rounds_after, 2), good)
    for low_water, ((rate, kept), _) in ROLLED.items():
        assert measured[low_water][0] <= rate and measured[low_water][1] >= kept, measured
    assert measured[LOW_WATER][0] < measured[1.0][0] - 0.1, measured


def test_the_summary_is_external_when_a_tool_result_is_in_it(compressed):
    """Provenance stays: a summary of tool results is a user message marked external."""
    for seed in SEEDS:
        messages, _, _ = conversation(seed)
        kept, _, _ = compressed[LOW_WATER, seed]
        summary = next(m for m in kept if is_summary_message(m))
        older_tool = any(m["role"] == "tool" for m in messages[: len(messages) - 4])
        assert summary["role"] == ("user" if older_tool else "system"), summary
        assert (EXTERNAL_SUMMARY_NOTE in summary["content"]) == older_tool


# -- the rules, one by one ------------------------------------------------------------------------

TRANSCRIPT = "\n".join(
    [
        "用户：你好！今天天气真好。",
        "用户：别客气。一定要开心哦。我挺喜欢和你聊天的。周末在家睡了一天。",
        "用户：我住在杭州。我们公司在朝阳区。负责人是王芳。",
        "用户：记一下：我的车是白色的。",
        "用户：Note that the meeting room is B302. Thanks a lot.",
        "用户：我喜欢靠窗的座位。我的预算上限是 8000 元。",
    ]
)


def test_places_people_and_memory_requests_go_under_their_own_headings():
    summary = extractive_summary(SUMMARY_PROMPT, TRANSCRIPT)
    groups = summary_groups(summary)
    assert ("地点", "用户住在杭州") in groups and ("地点", "我们公司在朝阳区") in groups, summary
    assert ("人名", "负责人是王芳") in groups, summary
    # asked to be remembered, fits no group: a neutral heading, without the request
    assert ("备忘", "用户的车是白色的") in groups, summary
    assert ("事实与数字", "the meeting room is B302") in groups, summary
    for chatter in ["天气", "客气", "开心", "聊天", "睡了", "Thanks", "记一下"]:
        assert chatter not in summary, (chatter, summary)


def test_a_tight_budget_keeps_what_the_user_asked_to_remember_first():
    for budget in (12, 16):
        tight = extractive_summary(f"{SUMMARY_PROMPT}\n{budget_line(budget)}", TRANSCRIPT)
        assert estimate_tokens(tight) <= budget, tight
        assert "白色" in tight and "8000" not in tight and "王芳" not in tight, tight
    assert "B302" in tight, tight  # both requests to remember, before what was only stated
    roomy = extractive_summary(f"{SUMMARY_PROMPT}\n{budget_line(70)}", TRANSCRIPT)
    assert estimate_tokens(roomy) <= 70 and "8000" in roomy and "杭州" in roomy, roomy


def test_a_rolled_summary_keeps_places_and_notes_under_their_headings():
    rolled = extractive_summary(
        f"{SUMMARY_PROMPT}\n{budget_line(30)}",
        "之前的摘要：\n【地点】住在杭州\n【备忘】车是白色的\n\n之后的对话：\n"
        "用户：我的工号是 E4821。今天好累啊。",
    )
    groups = summary_groups(rolled)
    assert ("地点", "住在杭州") in groups and ("备忘", "车是白色的") in groups, rolled
    assert "E4821" in rolled and "累" not in rolled, rolled
