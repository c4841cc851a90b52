"""Four kinds of misreading, each over tools invented for this file, in several domains.

1. **A question about a fact the user stated, read as a request for a tool.** "开学日期定在哪
   天？" after "开学日期是 9 月 1 日" called a clock and answered with today's date; "这次装修的预
   算上限是多少？" called a calculator (算 of 预算). A question whose subject matches a stated fact
   is answered from it; one about a fact of that kind the conversation does not hold says so; a
   tool is called only when it provides the thing asked about (a clock tells the current time, not
   the date of a return flight).
2. **A name glued to the verb after it.** "把郑凯加入白名单" gave ``user_name="郑凯加"`` and a
   second call for "白名单". A name stops where a verb starts (加入, 调到, 拉进, 跟进, 报名 …), and
   one action for one person is one call; people joined by 和/、 still get a call each.
3. **A request whose verb no offered tool does.** "帮我续借一本书" called a catalog search with
   ``keyword="续借一本书"``. A lookup is not chosen for an order whose verb asks for more than
   finding something out, a tool that changes things not for a verb its words never name (续借 is
   not 借阅 nor 预约); the reply says no offered tool does it. A search term never holds the
   order's own verb.
4. **A verb inside a relative clause read as the request.** "我们约好的摄影师叫什么名字？" asked
   for booking details. 约好的, 订好的, 发过的 … describe the noun; the question books nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from handwritten_agent.course.offline.simulator import CourseSimulator
from tests import simkit
from tests.simkit import fn, run_request

NOW = datetime(2026, 3, 12, 14, 30)
SIMULATOR = CourseSimulator(now=NOW)
SYSTEM = {"role": "system", "content": "你是一个可以调用工具的助手。"}
OK = {"success": True, "data": {"status": "ok"}}

Call = tuple[str, dict[str, Any]]


def converse(tools: list[dict[str, Any]], turns: list[str]) -> list[tuple[list[Call], str]]:
    """Each user turn of one conversation run to its answer: (the calls it made, the answer)."""
    return simkit.converse(SIMULATOR, tools, turns, default=OK, system=SYSTEM["content"])


# ------------------------------------------------------------------------------------------------
# Tools
# ------------------------------------------------------------------------------------------------

CLOCK_EN = fn(
    "get_current_time",
    "Get the current date and time.",
    timezone=("string", "IANA time zone, e.g. Asia/Shanghai"),
    required=[],
)
CLOCK_ZH = fn("get_current_time", "获取当前的日期、时间和星期几", required=[])
CALCULATOR = fn("calculate", "计算数学表达式，例如 12 * 3", expression=("string", "算式"))
CONVERTER = fn(
    "convert_currency",
    "Convert an amount of money from one currency to another.",
    amount=("number", "the amount"),
    source=("string", "source currency, e.g. USD"),
    target=("string", "target currency, e.g. CNY"),
)
WEATHER = fn("get_weather", "查询城市天气", city=("string", "城市名，例如 北京"))

# ------------------------------------------------------------------------------------------------
# 1. A question about a stated fact
# ------------------------------------------------------------------------------------------------

# (tools, what the user said, the question, words the answer must hold)
STATED = [
    (
        [CLOCK_EN, CALCULATOR],
        "记一下：开学日期是 9 月 1 日",
        "开学日期定在哪天？",
        "9 月 1 日",
    ),  # school: a clock tells today's date, not that one
    (
        [CALCULATOR, CLOCK_ZH],
        "装修预算上限 12 万",
        "这次装修的预算上限是多少？",
        "12 万",
    ),  # renovation: 预算 is no sum to work out
    (
        [CLOCK_EN, WEATHER],
        "记一下：航班起飞时间是晚上 8 点",
        "航班几点起飞？",
        "晚上 8 点",
    ),  # travel: "几点" asks the flight's time, not the clock's
]


@pytest.mark.parametrize("tools, told, question, value", STATED, ids=["school", "budget", "flight"])
def test_a_question_about_a_stated_fact_is_answered_from_it(tools, told, question, value):
    (_, _), (calls, answer) = converse(tools, [told, question])
    assert calls == [], (question, calls, answer)
    assert value in answer and "之前告诉我" in answer, answer


# (tools, an earlier round that tells nothing about it, the question)
NOT_STATED = [
    ([CLOCK_EN, CALCULATOR, WEATHER], "北京明天天气怎么样？", "这次旅行的返程日期是哪天？"),
    ([CLOCK_ZH, CALCULATOR], "17 乘以 9 等于多少？", "装修的预算上限是多少？"),
    ([CONVERTER, WEATHER], "上海明天天气怎么样？", "每晚的房费最多多少钱？"),
    ([WEATHER, CALCULATOR], "3 加 5 等于多少？", "这次同行的摄影师是谁？"),
    ([WEATHER, CALCULATOR], "3 加 5 等于多少？", "物业联系人的电话是多少？"),
]


@pytest.mark.parametrize(
    "tools, earlier, question",
    NOT_STATED,
    ids=["return_date", "budget", "room_rate", "photographer", "contact"],
)
def test_a_stated_kind_of_fact_the_conversation_lacks_is_said_to_be_missing(
    tools, earlier, question
):
    (_, _), (calls, answer) = converse(tools, [earlier, question])
    assert calls == [], (question, calls, answer)
    assert "没有找到" in answer, answer


def test_a_fact_of_the_same_kind_is_not_given_for_another():
    (_, _), (calls, answer) = converse(
        [CLOCK_EN, CALCULATOR], ["记一下：出发日期是 4 月 2 日", "回程日期是哪天？"]
    )
    assert calls == [] and "4 月 2 日" not in answer and "没有找到" in answer, (calls, answer)


@pytest.mark.parametrize(
    "tools, question",
    [
        ([CLOCK_EN], "返程日期定在哪天？"),
        ([CLOCK_ZH], "面试定在几点？"),
        ([CALCULATOR], "这次出差的预算是多少？"),
    ],
    ids=["return_date", "interview", "trip_budget"],
)
def test_a_tool_that_does_not_provide_the_subject_is_neither_called_nor_asked_about(
    tools, question
):
    calls, answer = run_request(SIMULATOR, tools, question)
    assert calls == [], (question, calls)
    assert "算式" not in answer and "expression" not in answer, answer


@pytest.mark.parametrize(
    "tools, question, tool",
    [
        ([CLOCK_EN, WEATHER], "现在几点了？", "get_current_time"),
        ([CLOCK_ZH, WEATHER], "北京明天天气怎么样？", "get_weather"),
        ([CONVERTER, CLOCK_EN], "100 美元能换多少人民币？", "convert_currency"),
        ([CALCULATOR, CLOCK_ZH], "17 乘以 9 等于多少？", "calculate"),
    ],
    ids=["clock", "weather", "currency", "arithmetic"],
)
def test_a_tool_that_provides_the_subject_is_still_called(tools, question, tool):
    calls, _ = run_request(SIMULATOR, tools, question)
    assert [name for name, _ in calls][:1] == [tool], (question, calls)


# ------------------------------------------------------------------------------------------------
# 2. A name glued to the verb after it
# ------------------------------------------------------------------------------------------------

NAMES = [
    (
        fn("add_to_whitelist", "把用户加入白名单", user_name=("string", "用户名")),
        "把郑凯加入白名单",
        {"user_name": "郑凯"},
    ),
    (
        fn(
            "transfer_employee",
            "Move an employee to another department.",
            employee_name=("string", "the employee's name"),
            department=("string", "target department, e.g. 销售部"),
        ),
        "把王磊调到销售部",
        {"employee_name": "王磊", "department": "销售部"},
    ),
    (
        fn(
            "add_group_member",
            "把成员拉进群聊",
            member=("string", "成员姓名"),
            group=("string", "群名称，例如 项目群"),
        ),
        "把陈晨拉进项目群",
        {"member": "陈晨", "group": "项目群"},
    ),
    (
        fn(
            "assign_ticket",
            "把工单指派给处理人",
            ticket_id=("string", "工单号，例如 TK1001"),
            assignee=("string", "处理人姓名"),
        ),
        "TK1001 交给王磊跟进",
        {"ticket_id": "TK1001", "assignee": "王磊"},
    ),
    (
        fn(
            "enroll_student",
            "Enroll a student in a course.",
            student=("string", "student name"),
            course=("string", "course name, e.g. 游泳"),
        ),
        "帮何静报名游泳",
        {"student": "何静", "course": "游泳"},
    ),
]


@pytest.mark.parametrize(
    "tool, request_text, arguments",
    NAMES,
    ids=["whitelist", "department", "group_chat", "ticket", "course"],
)
def test_a_name_stops_at_the_verb_after_it_and_one_action_is_one_call(
    tool, request_text, arguments
):
    calls, _ = run_request(SIMULATOR, [tool], request_text)
    assert calls == [(tool["function"]["name"], arguments)], (request_text, calls)


def test_people_joined_by_a_conjunction_still_get_a_call_each():
    tool = NAMES[0][0]
    calls, _ = run_request(SIMULATOR, [tool], "把张三和李四加入白名单")
    assert calls == [
        ("add_to_whitelist", {"user_name": "张三"}),
        ("add_to_whitelist", {"user_name": "李四"}),
    ], calls


# ------------------------------------------------------------------------------------------------
# 3. A verb no offered tool does
# ------------------------------------------------------------------------------------------------

# lookups whose words share much with the request, but which do not do its verb
SEARCHES = [
    (
        fn("search_catalog", "查找一本书的借阅和续借信息", keyword=("string", "关键词")),
        "帮我续借一本书",
        "续借",
    ),
    (
        fn(
            "search_plans",
            "搜索手机套餐，结果里会标出哪些套餐可以升级",
            keyword=("string", "搜索关键词"),
        ),
        "帮我升级一个套餐",
        "升级",
    ),
    (
        fn("search_classes", "查找健身课程和续费说明，例如“一节课”", keyword=("string", "关键词")),
        "帮我续费一节课",
        "续费",
    ),
    (
        fn(
            "search_rooms",
            "Search hotel rooms; each result says whether the stay can be extended (续住一晚).",
            query=("string", "search text"),
        ),
        "帮我续住一晚",
        "续住",
    ),
]


@pytest.mark.parametrize(
    "tool, request_text, verb", SEARCHES, ids=["library", "phone_plan", "gym", "hotel"]
)
def test_a_lookup_is_not_run_for_an_order_it_does_not_do(tool, request_text, verb):
    calls, answer = run_request(SIMULATOR, [tool], request_text)
    assert calls == [], (request_text, calls)
    assert f"没有能{verb}的" in answer, answer


LIBRARY = [
    SEARCHES[0][0],
    fn("borrow_book", "借阅一本图书", book_id=("string", "图书编号，例如 BK1024")),
    fn("reserve_book", "预约一本已借出的书", book_id=("string", "图书编号，例如 BK1024")),
]


@pytest.mark.parametrize("request_text", ["续借 BK1024", "把 BK1024 续借一下"])
def test_a_tool_that_changes_things_is_not_run_for_a_verb_its_words_never_name(request_text):
    calls, answer = run_request(SIMULATOR, LIBRARY, request_text)
    assert calls == [], (request_text, calls)
    assert "借阅一本图书" not in answer and "没有能续借的" in answer, answer


def test_a_lookup_set_aside_lets_no_other_tool_take_its_place():
    bikes = [
        fn(
            "list_bikes",
            "List available bikes of a type at a station, with prices (read only)",
            bike_type=("string", "e.g. 山地车, 公路车"),
            station=("string", "station name"),
        ),
        fn(
            "reserve_bike",
            "Reserve a bike for a rider",
            rider=("string", "rider's full name"),
            bike_type=("string", "e.g. 山地车"),
            station=("string", "station name"),
        ),
    ]
    calls, answer = run_request(SIMULATOR, bikes, "退下一辆山地车")
    assert calls == [] and "station" not in answer and "rider" not in answer, (calls, answer)


def test_a_tool_that_does_the_verb_is_still_chosen():
    renew = fn(
        "renew_loan",
        "Renew (extend) a current book loan by its loan id, e.g. LN5521",
        loan_id=("string", "loan id like LN5521"),
    )
    calls, _ = run_request(SIMULATOR, [*LIBRARY, renew], "LN5521 续借一下")
    assert calls == [("renew_loan", {"loan_id": "LN5521"})], calls


@pytest.mark.parametrize(
    "request_text",
    ["帮我核对一下华东区的销售记录", "帮我统计一下华东区的销售记录", "帮我瞧瞧华东区的销售记录"],
)
def test_a_search_term_does_not_keep_the_verb_that_asks_for_the_search(request_text):
    tool = fn("search_sales", "按关键词搜索销售记录", keyword=("string", "搜索关键词"))
    calls, _ = run_request(SIMULATOR, [tool], request_text)
    assert calls == [("search_sales", {"keyword": "华东区"})], (request_text, calls)


# ------------------------------------------------------------------------------------------------
# 4. A verb inside a relative clause
# ------------------------------------------------------------------------------------------------

PHOTOGRAPHER = fn(
    "book_photographer",
    "预约摄影师拍摄",
    photographer=("string", "摄影师姓名"),
    date=("string", "拍摄日期，格式 YYYY-MM-DD"),
)
TAXI = fn(
    "order_taxi",
    "预约出租车",
    pickup=("string", "上车地点"),
    time=("string", "用车时间，格式 HH:MM"),
)
MAIL = fn(
    "send_email",
    "Send an email.",
    to=("string", "recipient address"),
    subject=("string", "subject"),
    body=("string", "body"),
)


@pytest.mark.parametrize(
    "tool, question, parameter",
    [
        (PHOTOGRAPHER, "我们约好的摄影师叫什么名字？", "photographer"),
        (TAXI, "我们约好的车几点到？", "pickup"),
        (MAIL, "上周发过的那封邮件是发给谁的？", "recipient"),
    ],
    ids=["photographer", "taxi", "email"],
)
def test_a_question_about_what_was_arranged_arranges_nothing(tool, question, parameter):
    calls, answer = run_request(SIMULATOR, [tool], question)
    assert calls == [], (question, calls)
    assert parameter not in answer, answer  # no question for the tool's arguments


def test_a_question_about_what_was_arranged_is_answered_from_the_conversation():
    (_, _), (calls, answer) = converse(
        [PHOTOGRAPHER, WEATHER],
        ["记一下：摄影师是林峰，周六拍外景", "我们约好的摄影师叫什么名字？"],
    )
    assert calls == [] and "林峰" in answer, (calls, answer)


def test_an_order_about_what_was_arranged_is_still_an_order():
    cancel = fn("cancel_ride", "取消已预约的出租车", ride_id=("string", "行程号，例如 RD2031"))
    calls, _ = run_request(SIMULATOR, [TAXI, cancel], "把约好的车 RD2031 取消")
    assert calls == [("cancel_ride", {"ride_id": "RD2031"})], calls


@pytest.mark.parametrize(
    ("question", "lines", "told_by"),
    [
        ("周会定在什么时候？", ["周会定在周一下午 3 点。", "我们决定用企业微信开周会。"], 0),
        ("体检安排在哪天？", ["体检安排在 4 月 2 日。", "我们打算去市一医院做体检。"], 0),
        ("年会的预算是多少？", ["年会的预算是 8 万元。", "年会请了乐队，预算另算。"], 0),
    ],
)
def test_of_two_lines_naming_the_subject_the_one_that_tells_what_was_asked_answers(
    question: str, lines: list[str], told_by: int
) -> None:
    from handwritten_agent.course.offline.simulator.subjects import answering_line

    for order in (lines, lines[::-1]):  # whichever was said last
        assert answering_line(question, order) == lines[told_by]


@pytest.mark.parametrize(
    ("told", "later", "question", "value"),
    [
        (
            "周会定在周一下午 3 点。",
            "我们决定用企业微信开周会。",
            "周会定在什么时候？",
            "周一下午 3 点",
        ),
        ("复诊约在下周三上午。", "我们打算去市一医院复诊。", "复诊约在哪天？", "下周三上午"),
        ("团建安排在 5 月 18 日。", "团建大家想去爬山。", "团建安排在哪天？", "5 月 18 日"),
    ],
)
def test_a_thing_said_to_be_set_for_a_time_answers_when_it_is_set(
    told: str, later: str, question: str, value: str
) -> None:
    # a clock among the tools must not answer "when is it set" with today's date, and a later line
    # naming the same thing ("…用企业微信沟通这件事") must not answer it either
    clock = fn("get_current_time", "返回现在的日期和时间")
    rounds = converse([clock], [told, later, question])
    calls, answer = rounds[-1]
    assert calls == [] and value in answer, rounds[-1]
