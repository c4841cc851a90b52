"""The pre-flight check before every side effect: each invariant catches a planted violation.

Three tool sets are built here — Chinese office-like tools, tools described in English, and tools
with pinyin names and Chinese descriptions. Requests are generated from seeded random pieces (ids,
names, times, items, phrasing templates); for each invariant a violation is planted in the planned
call and shown to be caught, while the same request without the violation acts. A few generated
requests then go through the whole simulator (native tools and the prompt-JSON mode) to show that
the check guards the calls it emits.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest

from handwritten_agent.course.offline.backend import ChatRequest
from handwritten_agent.course.offline.simulator import CourseSimulator
from handwritten_agent.course.offline.simulator.planner import PlannedCall
from handwritten_agent.course.offline.simulator.preflight import (
    Conversation,
    check_calls,
    condition_check,
    conditions,
    free_text_check,
    items,
    items_check,
    reads,
    target_check,
    time_check,
)

SEEDS = range(40)
QUESTION = re.compile(r"[？?]\s*$")


def fn(name: str, description: str, properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "parameters": {"type": "object", "properties": properties, "required": list(properties)},
    }


def field(kind: str, description: str) -> dict[str, Any]:
    return {"type": kind, "description": description}


@dataclass(frozen=True)
class ToolSet:
    """One tool set and which of its fields play which part."""

    book: dict[str, Any]  # book(target, start, end)
    send: dict[str, Any]  # send(target, body)
    buy: dict[str, Any]  # buy(item, quantity, price, reason)
    lookup: dict[str, Any]  # read-only lookup(target)
    fields: dict[str, str]  # part -> field name
    id_format: str  # how a target id looks ("C{:03d}")
    found_key: str  # the word a lookup result uses for what it found ("订单", "visits")
    predicates: tuple[str, ...]  # conditions about a target, each meeting ``found_key``

    @property
    def specs(self) -> list[dict[str, Any]]:
        return [self.lookup, self.book, self.send, self.buy]


OFFICE = ToolSet(
    book=fn(
        "reserve_room",
        "预订会议室，需要会议室编号和时间段",
        {
            "room_id": field("string", "会议室编号，例如：room_301"),
            "start_time": field("string", "开始时间，格式 YYYY-MM-DD HH:MM"),
            "end_time": field("string", "结束时间，格式 YYYY-MM-DD HH:MM"),
        },
    ),
    send=fn(
        "send_mail",
        "给客户发送一封邮件",
        {
            "customer_id": field("string", "收件客户编号，例如 C001"),
            "body": field("string", "邮件正文"),
        },
    ),
    buy=fn(
        "submit_purchase",
        "提交采购申请",
        {
            "item": field("string", "要采购的物品"),
            "quantity": field("integer", "数量"),
            "unit_price": field("number", "单价（元）"),
            "reason": field("string", "采购原因"),
        },
    ),
    lookup=fn(
        "query_orders",
        "查询客户的订单记录（只查询）",
        {"customer_id": field("string", "客户编号，例如 C001")},
    ),
    fields={
        "book_target": "room_id",
        "start": "start_time",
        "end": "end_time",
        "send_target": "customer_id",
        "body": "body",
        "item": "item",
        "quantity": "quantity",
        "price": "unit_price",
        "reason": "reason",
        "lookup_target": "customer_id",
    },
    id_format="C{:03d}",
    found_key="订单",
    predicates=("上个月下过订单", "还有没付款的订单", "这周有新订单"),
)

ENGLISH = ToolSet(
    book=fn(
        "reserve_slot",
        "Reserve a consultation slot for a patient",
        {
            "patient_id": field("string", "patient id like P1234"),
            "start": field("string", "start time, format YYYY-MM-DD HH:MM"),
            "end": field("string", "end time, format YYYY-MM-DD HH:MM"),
        },
    ),
    send=fn(
        "notify_patient",
        "Send a text message to a patient",
        {
            "patient_id": field("string", "patient id like P1234"),
            "message": field("string", "the message text"),
        },
    ),
    buy=fn(
        "order_supplies",
        "Order medical supplies for the clinic",
        {
            "product": field("string", "the product to order"),
            "quantity": field("integer", "how many units"),
            "unit_price": field("number", "price per unit"),
            "reason": field("string", "why it is needed"),
        },
    ),
    lookup=fn(
        "lookup_visits",
        "Look up a patient's past visits",
        {"patient_id": field("string", "patient id like P1234")},
    ),
    fields={
        "book_target": "patient_id",
        "start": "start",
        "end": "end",
        "send_target": "patient_id",
        "body": "message",
        "item": "product",
        "quantity": "quantity",
        "price": "unit_price",
        "reason": "reason",
        "lookup_target": "patient_id",
    },
    id_format="P{:04d}",
    found_key="visits",
    predicates=("had visits last month", "has visits this week"),
)

PINYIN = ToolSet(
    book=fn(
        "yuding_changdi",
        "预订场地",
        {
            "changdi_bianhao": field("string", "场地编号，例如 CD12"),
            "kaishi_shijian": field("string", "开始时间 YYYY-MM-DD HH:MM"),
            "jieshu_shijian": field("string", "结束时间 YYYY-MM-DD HH:MM"),
        },
    ),
    send=fn(
        "fasong_tongzhi",
        "发送通知给会员",
        {
            "huiyuan_bianhao": field("string", "会员编号，例如 M0012"),
            "neirong": field("string", "通知内容"),
        },
    ),
    buy=fn(
        "tijiao_caigou",
        "提交采购单",
        {
            "wupin": field("string", "物品"),
            "shuliang": field("integer", "数量"),
            "danjia": field("number", "单价"),
            "yuanyin": field("string", "原因"),
        },
    ),
    lookup=fn(
        "chaxun_jilu",
        "查询会员的消费记录",
        {"huiyuan_bianhao": field("string", "会员编号，例如 M0012")},
    ),
    fields={
        "book_target": "changdi_bianhao",
        "start": "kaishi_shijian",
        "end": "jieshu_shijian",
        "send_target": "huiyuan_bianhao",
        "body": "neirong",
        "item": "wupin",
        "quantity": "shuliang",
        "price": "danjia",
        "reason": "yuanyin",
        "lookup_target": "huiyuan_bianhao",
    },
    id_format="M{:04d}",
    found_key="消费记录",
    predicates=("这个月有消费记录", "上周留下过消费记录"),
)

TOOL_SETS = {"office": OFFICE, "english": ENGLISH, "pinyin": PINYIN}

CONTENTS = [
    "周五的项目周会改到下周一上午十点",
    "您预约的体检报告已经出来了",
    "本周六上午系统维护暂停服务两小时",
    "新到的一批样品请到前台领取",
    "下个月起会员积分规则有调整",
    "请记得带上身份证和医保卡",
]
ITEMS = [
    ("显示器", "台"),
    ("键盘", "个"),
    ("椅子", "把"),
    ("打印纸", "箱"),
    ("白板笔", "盒"),
    ("文件柜", "套"),
    ("投影仪", "台"),
    ("鼠标垫", "个"),
]
REASONS = ["新同事入职", "旧的坏了", "下季度备用", "会议室改造"]
CN_DIGITS = "零一两三四五六七八九"


def now_for(rng: random.Random) -> datetime:
    return datetime(
        2026,
        rng.randint(1, 12),
        rng.randint(1, 28),
        rng.randint(8, 18),
        rng.choice([0, 15, 30, 45]),
    )


def new_id(rng: random.Random, tools: ToolSet, avoid: str = "") -> str:
    while True:
        value = tools.id_format.format(rng.randint(1, 999))
        if value.lower() not in avoid.lower():
            return value


def conv(
    now: datetime,
    results: tuple = (),
    texts: tuple = (),
    planned: tuple = (),
    specs: tuple = (),
    precise: bool = True,
    dated: bool = True,
) -> Conversation:
    return Conversation(now, precise, results, texts, planned, specs, dated=dated)


def number_words(rng: random.Random, value: int) -> str:
    return CN_DIGITS[value] if value < 10 and rng.random() < 0.3 else str(value)


# -- 1. time -----------------------------------------------------------------------------------


def booking(rng: random.Random, tools: ToolSet, start: datetime) -> tuple[str, PlannedCall]:
    target = new_id(rng, tools)
    when = rng.choice(["{d} {h}点", "{d}的{h}点", "{d} {h}:00"]).format(
        d=start.strftime("%Y-%m-%d"), h=start.hour
    )
    request = rng.choice(
        ["帮我订{when}的 {t}，一个小时", "{t} {when}给我留一个小时", "{when}用一下 {t}，一小时就够"]
    )
    f = tools.fields
    call = PlannedCall(
        tools.book["name"],
        {
            f["book_target"]: target,
            f["start"]: start.strftime("%Y-%m-%d %H:%M"),
            f["end"]: (start + timedelta(hours=1)).strftime("%Y-%m-%d %H:%M"),
        },
    )
    return request.format(when=when, t=target), call


@pytest.mark.parametrize("name", TOOL_SETS)
def test_a_time_in_the_past_is_caught_and_a_future_one_acts(name):
    tools = TOOL_SETS[name]
    for seed in SEEDS:
        rng = random.Random(seed)
        now = now_for(rng)
        future = now + timedelta(minutes=rng.randint(30, 60 * 24 * 20))
        past = now - timedelta(minutes=rng.randint(60, 60 * 24 * 20))
        request, good = booking(rng, tools, future)
        _, planted = booking(random.Random(seed), tools, past)
        context = conv(now)
        assert time_check(request, good, tools.book, context) is None, (request, good)
        finding = time_check(request, planted, tools.book, context)
        assert (
            finding is not None
            and "已经过去" in finding.question
            and QUESTION.search(finding.question)
        ), planted
        assert past.strftime("%Y-%m-%d") in finding.question  # says which time it means


def test_without_a_known_time_of_day_only_the_day_counts():
    for seed in SEEDS:
        rng = random.Random(seed)
        now = now_for(rng).replace(hour=17)
        earlier_today = now.replace(hour=rng.randint(8, 15))
        yesterday = now - timedelta(days=rng.randint(1, 5))
        _, today_call = booking(rng, OFFICE, earlier_today)
        _, old_call = booking(rng, OFFICE, yesterday)
        assert time_check("", today_call, OFFICE.book, conv(now, precise=False)) is None
        assert time_check("", today_call, OFFICE.book, conv(now, precise=True)) is not None
        assert time_check("", old_call, OFFICE.book, conv(now, precise=False)) is not None


def test_with_only_the_machines_clock_a_date_written_out_is_the_users_choice():
    for seed in SEEDS:
        rng = random.Random(seed)
        now = now_for(rng)
        past = now - timedelta(days=rng.randint(1, 30), hours=rng.randint(0, 5))
        written, call = booking(rng, OFFICE, past)  # the request writes the date out
        relative = "帮我订" + rng.choice(["昨天", "前天", "上周一"]) + "的会议室"  # computed
        undated = conv(now, precise=False, dated=False)
        assert time_check(written, call, OFFICE.book, undated) is None, written
        assert time_check(relative, call, OFFICE.book, undated) is not None, relative
        assert time_check(written, call, OFFICE.book, conv(now, precise=False)) is not None


def test_a_field_that_records_the_past_may_hold_a_past_date():
    spec = fn(
        "submit_expense",
        "提交报销单",
        {"spent_on": field("string", "消费日期 YYYY-MM-DD"), "amount": field("number", "金额")},
    )
    for seed in SEEDS:
        rng = random.Random(seed)
        now = now_for(rng)
        day = (now - timedelta(days=rng.randint(1, 60))).strftime("%Y-%m-%d")
        assert (
            time_check(
                f"报销 {day} 的打车费",
                PlannedCall("submit_expense", {"spent_on": day, "amount": 30}),
                spec,
                conv(now),
            )
            is None
        )


# -- 2. conditions -----------------------------------------------------------------------------


def conditional(rng: random.Random, tools: ToolSet) -> tuple[str, str, str, str]:
    """(request, target, predicate, content), e.g. "假如 C012 上个月下过订单，就给他发个通知：…"."""
    target = new_id(rng, tools)
    predicate = rng.choice(tools.predicates)
    content = rng.choice(CONTENTS)
    lead = rng.choice(["如果", "假如", "要是", "若是", "倘若", "万一"])
    tail = rng.choice(["", "的话"])
    then = rng.choice(["，就给他发个通知：{c}", "，那就通知他：{c}", "就发消息告诉他{c}"]).format(
        c=content
    )
    other = rng.choice(["", "；没有就不用发", "，否则就算了", "，不然别发"])
    return f"{lead} {target} {predicate}{tail}{then}{other}", target, predicate, content


@pytest.mark.parametrize("name", TOOL_SETS)
def test_a_condition_is_evaluated_before_acting(name):
    tools = TOOL_SETS[name]
    f = tools.fields
    looked_up = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        request, target, predicate, content = conditional(rng, tools)
        assert [c.text for c in conditions(request)] and predicate in conditions(request)[0].text, (
            request
        )
        call = PlannedCall(tools.send["name"], {f["send_target"]: target, f["body"]: content})
        lookup = PlannedCall(tools.lookup["name"], {f["lookup_target"]: target})
        rows = [
            {"id": f"X{rng.randint(100, 999)}", "amount": rng.randint(5, 500)}
            for _ in range(rng.randint(1, 3))
        ]
        found = json.dumps({tools.found_key: rows}, ensure_ascii=False)
        nothing = json.dumps({tools.found_key: []}, ensure_ascii=False)
        specs = tuple(tools.specs)
        now = now_for(rng)
        # evaluated and true: acts
        assert (
            condition_check(request, call, tools.send, conv(now, ((lookup, found),), specs=specs))
            is None
        ), request
        # planted: not evaluated — a lookup first, or a question; never the action
        unseen = condition_check(request, call, tools.send, conv(now, specs=specs))
        assert unseen is not None
        if unseen.lookup is not None:
            looked_up += 1
            assert reads(next(s for s in specs if s["name"] == unseen.lookup.name))
        else:
            assert "条件" in unseen.question and QUESTION.search(unseen.question)
        # planted: evaluated and false: not acted on
        false = condition_check(
            request, call, tools.send, conv(now, ((lookup, nothing),), specs=specs)
        )
        assert false is not None and "不成立" in false.question, request
        # planted: the condition copied into the message
        copied = PlannedCall(
            call.name, {**call.arguments, f["body"]: conditions(request)[0].clause + content}
        )
        finding = condition_check(
            request, copied, tools.send, conv(now, ((lookup, found),), specs=specs)
        )
        assert finding is not None and "条件" in finding.question, copied
    assert looked_up, "a fitting read-only tool is never called first"


def test_without_a_tool_that_can_look_it_up_the_condition_is_asked_about():
    for seed in SEEDS:
        rng = random.Random(seed)
        request, target, _, content = conditional(rng, OFFICE)
        call = PlannedCall("send_mail", {"customer_id": target, "body": content})
        finding = condition_check(
            request, call, OFFICE.send, conv(now_for(rng), specs=(OFFICE.send, OFFICE.book))
        )
        assert finding is not None and finding.lookup is None and "条件" in finding.question


def test_a_condition_inside_the_quoted_message_is_content_not_a_condition():
    for seed in SEEDS:
        rng = random.Random(seed)
        target = new_id(rng, OFFICE)
        lead = rng.choice(["如果", "假如", "要是"])
        reason = rng.choice(["明天下雨", "人数不够", "系统还在维护"])
        body = f"{lead}{reason}，{rng.choice(CONTENTS)}"
        request = f"给 {target} 发邮件，正文“{body}”"
        assert conditions(request) == []
        call = PlannedCall("send_mail", {"customer_id": target, "body": body})
        assert (
            condition_check(
                request, call, OFFICE.send, conv(now_for(rng), specs=tuple(OFFICE.specs))
            )
            is None
        )


def test_a_polite_if_is_no_condition():
    for seed in SEEDS:
        rng = random.Random(seed)
        request, target, content = message_request(rng, OFFICE)
        polite = rng.choice(["方便的话", "可以的话", "如果可以，", "您方便的话，", "if possible, "])
        request = polite + request
        assert conditions(request) == [], request
        call = PlannedCall("send_mail", {"customer_id": target, "body": content})
        assert check_calls(request, [call], OFFICE.specs, conv(now_for(rng))) is None, request


# -- 3. items ----------------------------------------------------------------------------------


def shopping(rng: random.Random) -> tuple[str, list[tuple[str, int, int]], str]:
    chosen = rng.sample(ITEMS, rng.randint(2, 3))
    groups, parts = [], []
    for thing, unit in chosen:
        quantity, price = rng.randint(1, 9), rng.randrange(20, 3000)
        q = number_words(rng, quantity)
        parts.append(
            rng.choice(
                [
                    f"{thing} {q} {unit}每{unit} {price}",
                    f"{thing}{q}{unit}，单价 {price} 元",
                    f"{q} {unit}{thing}，每{unit} {price} 元",
                ]
            )
        )
        groups.append((thing, quantity, price))
    reason = rng.choice(REASONS)
    joined = rng.choice(["；", "，还有", "；另外"]).join(parts)
    request = rng.choice(
        ["帮我提交采购：{p}，原因是{r}", "采购一下：{p}。{r}", "{p}，{r}，提交个采购"]
    ).format(p=joined, r=reason)
    return request, groups, reason


@pytest.mark.parametrize("name", TOOL_SETS)
def test_one_call_per_item_and_merged_values_are_refused(name):
    tools = TOOL_SETS[name]
    f = tools.fields
    for seed in SEEDS:
        rng = random.Random(seed)
        request, groups, reason = shopping(rng)
        assert [(i.name, i.quantity, i.price) for i in items(request)] == [
            (t, q, p) for t, q, p in groups
        ], request

        def call(thing, quantity, price, reason=reason):
            return PlannedCall(
                tools.buy["name"],
                {f["item"]: thing, f["quantity"]: quantity, f["price"]: price, f["reason"]: reason},
            )

        good = tuple(call(*g) for g in groups)
        now = now_for(rng)
        for each in good:
            assert items_check(request, each, tools.buy, conv(now, planned=good)) is None, (
                request,
                each,
            )
        # planted: one call with values mixed across items
        first, second = groups[0], groups[1]
        merged = (
            call(first[0], second[1], first[2])
            if first[1] != second[1]
            else call(first[0], first[1], second[2])
        )
        if merged.arguments != good[0].arguments:
            finding = items_check(request, merged, tools.buy, conv(now, planned=(merged,)))
            assert finding is not None and f"{len(groups)} 样" in finding.question, (
                request,
                merged,
            )
        # planted: the items merged into fewer calls than items
        finding = items_check(request, good[0], tools.buy, conv(now, planned=good[:1]))
        assert finding is not None and QUESTION.search(finding.question), request
        # planted: an item name that is none of the items ("每台 1299")
        junk = PlannedCall(
            good[0].name, {**good[0].arguments, f["item"]: f"每{ITEMS[0][1]} {first[2]}"}
        )
        assert (
            items_check(request, junk, tools.buy, conv(now, planned=(junk, *good[1:]))) is not None
        )


def test_one_item_is_no_matter_for_the_item_check():
    for seed in SEEDS:
        rng = random.Random(seed)
        thing, unit = rng.choice(ITEMS)
        quantity, price = rng.randint(1, 9), rng.randrange(20, 3000)
        request = f"采购 {thing} {quantity} {unit}，单价 {price}"
        call = PlannedCall(
            "submit_purchase",
            {"item": thing, "quantity": quantity, "unit_price": price, "reason": "备用"},
        )
        assert items_check(request, call, OFFICE.buy, conv(now_for(rng), planned=(call,))) is None


# -- 4. free text ------------------------------------------------------------------------------


def message_request(rng: random.Random, tools: ToolSet) -> tuple[str, str, str]:
    target = new_id(rng, tools)
    content = rng.choice(CONTENTS)
    request = rng.choice(
        [
            "给 {t} 发个通知，内容是：{c}",
            "通知一下 {t}：{c}",
            "跟 {t} 说一声，{c}",
            "{t} 那边发条消息，告诉他{c}",
        ]
    )
    return request.format(t=target, c=content), target, content


@pytest.mark.parametrize("name", TOOL_SETS)
def test_a_free_text_field_carries_a_meaningful_span(name):
    tools = TOOL_SETS[name]
    f = tools.fields
    for seed in SEEDS:
        rng = random.Random(seed)
        request, target, content = message_request(rng, tools)
        now = now_for(rng)

        def send(body, target=target):
            return PlannedCall(tools.send["name"], {f["send_target"]: target, f["body"]: body})

        assert free_text_check(request, send(content), tools.send, conv(now)) is None, request
        start = rng.randrange(len(content) - 1)
        fragment = content[start : start + rng.randint(1, 2)]
        stranger = "".join(
            ch for ch in "甲乙丙丁戊己庚辛壬癸鼠牛虎兔龙蛇马羊猴鸡狗猪" if ch not in request
        )
        invented = "".join(rng.sample(stranger, 8))
        cut = rng.choice(["就", "然后", "并"]) + content[: rng.randint(3, 6)]
        for planted in (
            fragment,
            invented,
            cut,
            content[: rng.randint(3, 6)] + rng.choice(["给", "把", "的"]),
        ):
            finding = free_text_check(request, send(planted), tools.send, conv(now))
            assert finding is not None and f["body"] in finding.question, (request, planted)


def test_a_message_taken_from_a_tool_result_is_grounded():
    for seed in SEEDS:
        rng = random.Random(seed)
        target = new_id(rng, OFFICE)
        text = rng.choice(CONTENTS)
        result = json.dumps({"notice": text}, ensure_ascii=False)
        lookup = PlannedCall("query_orders", {"customer_id": target})
        call = PlannedCall("send_mail", {"customer_id": target, "body": text})
        assert (
            free_text_check(
                f"把查到的通知转给 {target}",
                call,
                OFFICE.send,
                conv(now_for(rng), ((lookup, result),)),
            )
            is None
        )


# -- 5. targets --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", TOOL_SETS)
def test_every_target_is_named_or_found_in_a_result(name):
    tools = TOOL_SETS[name]
    f = tools.fields
    for seed in SEEDS:
        rng = random.Random(seed)
        request, target, content = message_request(rng, tools)
        now = now_for(rng)
        good = PlannedCall(tools.send["name"], {f["send_target"]: target, f["body"]: content})
        assert target_check(request, good, tools.send, conv(now)) is None
        stranger = new_id(rng, tools, avoid=request)
        planted = PlannedCall(good.name, {**good.arguments, f["send_target"]: stranger})
        finding = target_check(request, planted, tools.send, conv(now))
        assert (
            finding is not None
            and stranger in finding.question
            and QUESTION.search(finding.question)
        )
        # the same id found in a lookup's result is grounded
        lookup = PlannedCall(tools.lookup["name"], {f["lookup_target"]: target})
        result = json.dumps({"related": [{"id": stranger}]})
        assert target_check(request, planted, tools.send, conv(now, ((lookup, result),))) is None


def test_an_id_inside_a_named_range_is_named():
    spec = fn(
        "send_sms",
        "给客户发短信",
        {
            "customer_ids": {
                "type": "array",
                "items": {"type": "string"},
                "description": "客户编号列表",
            },
            "content": field("string", "短信内容"),
        },
    )
    for seed in SEEDS:
        rng = random.Random(seed)
        low = rng.randint(1, 50)
        high = low + rng.randint(2, 6)
        request = f"给 C{low:03d} 到 C{high:03d} 发短信：{rng.choice(CONTENTS)}"
        inside = [f"C{n:03d}" for n in range(low, high + 1)]
        assert (
            target_check(
                request, PlannedCall("send_sms", {"customer_ids": inside}), spec, conv(now_for(rng))
            )
            is None
        )
        outside = inside + [f"C{high + rng.randint(1, 9):03d}"]
        assert target_check(
            request, PlannedCall("send_sms", {"customer_ids": outside}), spec, conv(now_for(rng))
        )


# -- the check as a whole ----------------------------------------------------------------------


@pytest.mark.parametrize("name", TOOL_SETS)
def test_read_only_calls_are_never_blocked(name):
    tools = TOOL_SETS[name]
    for seed in SEEDS:
        rng = random.Random(seed)
        request, _, _, _ = conditional(rng, tools)
        lookup = PlannedCall(
            tools.lookup["name"], {tools.fields["lookup_target"]: new_id(rng, tools, avoid=request)}
        )
        assert check_calls(request, [lookup], tools.specs, conv(now_for(rng))) is None


def test_a_held_side_effect_lets_the_read_only_calls_of_its_turn_go_first():
    for seed in SEEDS:
        rng = random.Random(seed)
        request, target, _, content = conditional(rng, OFFICE)
        lookup = PlannedCall("query_orders", {"customer_id": target})
        send = PlannedCall("send_mail", {"customer_id": target, "body": content})
        plan = check_calls(request, [lookup, send], OFFICE.specs, conv(now_for(rng)))
        assert plan is not None and plan.calls == [lookup]


# -- through the simulator ---------------------------------------------------------------------

NOW = datetime(2026, 3, 12, 14, 30)
SIMULATOR = CourseSimulator(now=NOW)


def wrapped(specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"type": "function", "function": spec} for spec in specs]


def first_turn(
    request: str, specs: list[dict[str, Any]]
) -> tuple[list[tuple[str, dict[str, Any]]], str]:
    completion = SIMULATOR.complete(
        ChatRequest(
            model="course-sim",
            tools=wrapped(specs),
            messages=[{"role": "user", "content": request}],
        )
    )
    calls = [
        (c["function"]["name"], json.loads(c["function"]["arguments"]))
        for c in completion.tool_calls or []
    ]
    return calls, completion.content or ""


def test_the_simulator_asks_instead_of_booking_a_past_time():
    asked = booked = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        room = f"room_{rng.randint(100, 599)}"
        days = rng.randint(1, 9)
        day = NOW + timedelta(days=days if seed % 2 else -days)
        hour = rng.randint(9, 16)
        request = rng.choice(
            ["帮我订 {d} {h}:00 到 {e}:00 的 {r}", "{r} 会议室，{d} {h}:00 到 {e}:00，帮我订下来"]
        ).format(d=day.strftime("%Y-%m-%d"), h=hour, e=hour + 1, r=room)
        calls, answer = first_turn(request, [OFFICE.book])
        if day < NOW:
            assert not calls and "已经过去" in answer and QUESTION.search(answer), (
                request,
                calls,
                answer,
            )
            asked += 1
        elif calls:
            assert calls[0][0] == "reserve_room" and calls[0][1]["room_id"] == room
            booked += 1
    assert asked and booked


def test_the_simulator_never_sends_on_an_unchecked_condition():
    for seed in SEEDS:
        rng = random.Random(seed)
        request, target, _, _ = conditional(rng, OFFICE)
        calls, answer = first_turn(request, OFFICE.specs)
        assert all(name == "query_orders" for name, _ in calls), (request, calls)
        assert calls or QUESTION.search(answer), (request, answer)


def test_the_simulator_never_submits_values_mixed_across_items():
    for seed in SEEDS:
        rng = random.Random(seed)
        request, groups, _ = shopping(rng)
        calls, answer = first_turn(request, [OFFICE.buy])
        for _, arguments in calls:
            assert (arguments["item"], arguments["quantity"], arguments["unit_price"]) in groups, (
                request,
                calls,
            )
        assert calls or QUESTION.search(answer), (request, answer)


def test_the_prompt_json_mode_is_checked_too():
    system = (
        "今天是 2026-03-12。你可以使用下面的工具。需要调用工具时，只输出一个 JSON 对象："
        '{"name": "工具名", "arguments": {参数}}\n' + json.dumps([OFFICE.book], ensure_ascii=False)
    )
    for seed in range(6):
        rng = random.Random(seed)
        day = (NOW - timedelta(days=rng.randint(1, 9))).strftime("%Y-%m-%d")
        request = f"帮我订 {day} 10:00 到 11:00 的 room_{rng.randint(100, 599)}"
        completion = SIMULATOR.complete(
            ChatRequest(
                model="course-sim",
                messages=[
                    {"role": "system", "content": system},
                    {"role": "user", "content": request},
                ],
            )
        )
        assert "reserve_room" not in (completion.content or "") and "已经过去" in (
            completion.content or ""
        ), completion


def test_an_engine_that_adds_a_target_is_stopped_before_the_call(monkeypatch):
    """A planted engine bug (one more id than the user named) is caught inside the simulator."""
    from handwritten_agent.course.offline.simulator.arguments import filler

    ids_field = {
        "type": "array",
        "items": {"type": "string"},
        "description": "客户编号列表，例如 C001",
    }
    spec = fn(
        "send_sms",
        "给客户发短信",
        {"customer_ids": ids_field, "content": field("string", "短信内容")},
    )
    original = filler._Filler.array

    def one_more(self, param):
        return (original(self, param) or []) + ["C999"]

    monkeypatch.setattr(filler._Filler, "array", one_more)
    for seed in range(8):
        rng = random.Random(seed)
        ids = sorted({f"C{rng.randint(1, 99):03d}" for _ in range(rng.randint(1, 3))})
        request = f"给 {' 和 '.join(ids)} 发短信：{rng.choice(CONTENTS)}"
        calls, answer = first_turn(request, [spec])
        assert not calls and "C999" in answer and QUESTION.search(answer), (request, calls, answer)
    monkeypatch.setattr(filler._Filler, "array", original)
    assert first_turn(request, [spec])[0], request  # without the bug the same request acts
