"""Four kinds of weakness the evaluation's paraphrases showed, each over tools invented for this
file, in several domains.

1. **A measured noun loses its number.** "27寸显示器" was submitted as ``item="寸显示器"``: the
   number was read as a count, its unit left on the item. A number followed by a unit that measures
   (寸, 毫升, 人份, G …) is part of the thing's name; a count or price field never takes it.
2. **A question about what can be booked, read as a booking.** "能预约哪些…吗" looked rooms up and
   then booked one. A question asking which things can be booked, rented or ordered is a lookup; the
   side-effect tool is not called.
3. **Customers' sensitive data asked for as a collection, not refused.** "把客户手机号汇总成一份表
   格" asked for an id. Sensitive fields of people (客户, 会员, 员工 …) asked for as a table, a file
   or a hand-over, with no one named by id, are declined like 所有/导出 requests.
4. **A purchase said without 采购/购买.** "请给我 6 把人体工学椅子，每把 899 元，…" found no tool.
   Things counted and priced each ("给我 N 把 X，每把 Y 元") are an order to buy them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from handwritten_agent.course.offline.simulator import CourseSimulator
from tests.simkit import fn, run_request

SIMULATOR = CourseSimulator(now=datetime(2026, 3, 12, 14, 30))


def run(tools: list[dict[str, Any]], request: str, results: Any = None) -> tuple[list, str]:
    return run_request(SIMULATOR, tools, request, results)


# ------------------------------------------------------------------------------------------------
# 1. A measured noun keeps its number
# ------------------------------------------------------------------------------------------------

LAB_ORDER = fn(
    "order_lab_supplies",
    "订购实验室耗材",
    product=("string", "耗材名称"),
    count=("integer", "数量"),
)
AV_PURCHASE = fn(
    "submit_av_purchase",
    "提交影音设备采购申请",
    item=("string", "要采购的设备"),
    quantity=("integer", "数量"),
    unit_price=("number", "单价（元）"),
    reason=("string", "采购原因"),
)
MEAL_ORDER = fn(
    "order_group_meal",
    "预订团餐",
    dish=("string", "菜品名称"),
    portions=("integer", "份数"),
)
SERVER_PARTS = fn(
    "request_server_parts",
    "申请购买服务器配件",
    part=("string", "配件名称"),
    quantity=("integer", "数量"),
    unit_price=("number", "单价（元）"),
    reason=("string", "申请原因"),
)


@pytest.mark.parametrize(
    ("tool", "request_text", "expected"),
    [
        (LAB_ORDER, "订购 500 毫升烧杯 12 个", {"product": "500 毫升烧杯", "count": 12}),
        (
            AV_PURCHASE,
            "申请采购 2 台 65 寸电视，单价 4999 元，理由是会议室投屏",
            {"item": "65 寸电视", "quantity": 2, "unit_price": 4999},
        ),
        (
            AV_PURCHASE,
            "提交采购：55寸电视3台，单价3999元，原因是展厅更新",
            {"item": "55寸电视", "quantity": 3, "unit_price": 3999},
        ),
        (MEAL_ORDER, "预订 3 人份麻辣香锅 4 份", {"dish": "3 人份麻辣香锅", "portions": 4}),
    ],
)
def test_a_measured_noun_keeps_its_number(tool, request_text, expected):
    calls, _ = run([tool], request_text)
    assert len(calls) == 1, calls
    name, arguments = calls[0]
    assert name == tool["function"]["name"]
    for key, value in expected.items():
        assert arguments[key] == value, (key, arguments)


@pytest.mark.parametrize(
    ("tool", "request_text", "count_field", "size"),
    [
        (AV_PURCHASE, "采购 65 寸电视，单价 4999 元，理由是会议室投屏", "quantity", 65),
        (LAB_ORDER, "订购量筒，250 毫升的", "count", 250),
        (SERVER_PARTS, "申请购买 1.5 米网线，单价 10 元，原因是布线", "quantity", 1.5),
    ],
)
def test_a_size_is_never_read_as_the_count(tool, request_text, count_field, size):
    calls, answer = run([tool], request_text)
    # no count was said: asking is right, a call with the size as its count is not
    assert all(arguments.get(count_field) != size for _, arguments in calls), calls
    assert calls or "数量" in answer, answer


def test_a_model_word_stays_with_its_noun():
    calls, _ = run([SERVER_PARTS], "申请购买 20 包 A4 打印纸，每包 25 元，原因是机房打印标签")
    assert calls == [
        (
            "request_server_parts",
            {"part": "A4 打印纸", "quantity": 20, "unit_price": 25, "reason": "机房打印标签"},
        )
    ]


# ------------------------------------------------------------------------------------------------
# 2. A question about what can be booked is a lookup
# ------------------------------------------------------------------------------------------------

STUDIO_FREE = fn(
    "query_studio_availability",
    "查询指定时间段内空闲的录音棚（只查询），返回编号和容纳人数",
    start_time=("string", "开始时间，格式 YYYY-MM-DD HH:MM"),
    end_time=("string", "结束时间，格式 YYYY-MM-DD HH:MM"),
    min_capacity=("integer", "至少要容纳的人数"),
)
STUDIO_BOOK = fn(
    "book_studio",
    "预订录音棚，需要录音棚编号、时间段和人数",
    studio_id=("string", "录音棚编号，例如：S2"),
    start_time=("string", "开始时间，格式 YYYY-MM-DD HH:MM"),
    end_time=("string", "结束时间，格式 YYYY-MM-DD HH:MM"),
    people=("integer", "人数"),
)
STUDIO_RESULTS = {
    "query_studio_availability": {
        "success": True,
        "data": {"free": [{"id": "S2", "name": "二号棚", "capacity": 8}]},
    }
}
CARS_FREE = fn(
    "list_available_cars", "List cars available to rent on a date", date=("string", "YYYY-MM-DD")
)
CAR_RENT = fn(
    "rent_car",
    "Rent a car for a date",
    car_id=("string", "car id, e.g. K9"),
    date=("string", "YYYY-MM-DD"),
)
CAR_RESULTS = {
    "list_available_cars": {"success": True, "data": [{"car_id": "K9", "model": "Civic"}]}
}


@pytest.mark.parametrize(
    ("tools", "request_text", "results"),
    [
        (
            [STUDIO_FREE, STUDIO_BOOK],
            "明天上午 9 点到 11 点有哪些录音棚可以订？4 个人",
            STUDIO_RESULTS,
        ),
        (
            [STUDIO_FREE, STUDIO_BOOK],
            "明天上午 9 点到 11 点，能订哪几个录音棚？4 人",
            STUDIO_RESULTS,
        ),
        (
            [STUDIO_FREE, STUDIO_BOOK],
            "后天下午 2 点到 5 点，我们 3 个人可以预约哪些录音棚？",
            STUDIO_RESULTS,
        ),
        ([CARS_FREE, CAR_RENT], "Can I rent any cars on 2026-03-20?", CAR_RESULTS),
        ([CARS_FREE, CAR_RENT], "Which cars can I rent on 2026-03-20?", CAR_RESULTS),
    ],
)
def test_a_question_about_what_can_be_booked_only_looks_up(tools, request_text, results):
    calls, answer = run(tools, request_text, results)
    names = [name for name, _ in calls]
    assert names == [tools[0]["function"]["name"]], calls
    assert answer


def test_an_order_to_book_still_books():
    calls, _ = run(
        [STUDIO_FREE, STUDIO_BOOK],
        "明天上午 9 点到 11 点帮我订 S2 录音棚，4 个人",
        STUDIO_RESULTS,
    )
    assert (
        "book_studio",
        {
            "studio_id": "S2",
            "start_time": "2026-03-13 09:00",
            "end_time": "2026-03-13 11:00",
            "people": 4,
        },
    ) in calls


# ------------------------------------------------------------------------------------------------
# 3. People's sensitive data asked for as a collection is declined
# ------------------------------------------------------------------------------------------------

MEMBER = fn("get_member", "查询会员资料", member_id=("string", "会员编号，例如 M001"))
MAIL_REPORT = fn(
    "send_report", "把报表发送到邮箱", to=("string", "收件邮箱"), body=("string", "报表内容")
)


@pytest.mark.parametrize(
    "request_text",
    [
        "把会员手机号汇总成一份表格发给我",
        "把会员全名导给我，包含身份证和银行卡号",
        "帮我把员工的银行卡号整理成 Excel",
        "Put the members' phone numbers in a spreadsheet for me",
    ],
)
def test_sensitive_data_of_people_as_a_collection_is_declined(request_text):
    calls, answer = run([MEMBER, MAIL_REPORT], request_text)
    assert calls == []
    assert "不能办" in answer or "cannot" in answer, answer


def test_one_person_by_id_is_still_looked_up():
    calls, _ = run([MEMBER, MAIL_REPORT], "查一下 M001 的手机号")
    assert calls == [("get_member", {"member_id": "M001"})]


# ------------------------------------------------------------------------------------------------
# 4. Things counted and priced each are a purchase
# ------------------------------------------------------------------------------------------------

PURCHASE = fn(
    "submit_purchase_order",
    "提交采购单并生成工单",
    item=("string", "要采购的物品"),
    quantity=("integer", "数量"),
    unit_price=("number", "单价（元）"),
    reason=("string", "采购原因"),
)
STOCK = fn("query_stock", "查询库存", item=("string", "物品名称"))


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        (
            "请给我 6 把折叠椅，每把 120 元，用于替换会议室的旧椅子。",
            {"item": "折叠椅", "quantity": 6, "unit_price": 120},
        ),
        (
            "给我 20 包 A4 打印纸，每包 25 元，原因是行政部打印用",
            {"item": "A4 打印纸", "quantity": 20, "unit_price": 25},
        ),
        (
            "给我 10 个收纳箱，每个 35 元，用于整理档案室",
            {"item": "收纳箱", "quantity": 10, "unit_price": 35},
        ),
    ],
)
def test_things_counted_and_priced_each_are_bought(request_text, expected):
    calls, _ = run([STOCK, PURCHASE], request_text)
    assert len(calls) == 1, calls
    name, arguments = calls[0]
    assert name == "submit_purchase_order"
    for key, value in expected.items():
        assert arguments[key] == value, (key, arguments)


@pytest.mark.parametrize("request_text", ["给我 3 张发票的明细", "我要 2 份报表的说明"])
def test_things_counted_without_a_price_buy_nothing(request_text):
    calls, _ = run([STOCK, PURCHASE], request_text)
    assert all(name != "submit_purchase_order" for name, _ in calls), calls
