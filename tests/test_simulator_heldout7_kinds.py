"""Kinds of request the course simulator asked about in ``heldout_toolsets_5.json`` though they
said what to do, each fixed as a kind and tested here with tool sets and wordings of other domains
(sports clubs, courses, parking permits, gym lockers, museum tickets, rooms):

1. a name in capitalised Latin words right after the tool's own verb ("注册Golden Eagles，…",
   "添加Data Science Basics，…") is the thing's name, as a Chinese name there is; a tool named
   ``register_…`` registers (注册);
2. a number said before 号 and a noun the id parameter names, in any language ("取消我的 884213 号
   停车证" for "ID of the parking permit"), is that id; a number before 号 and another noun ("1203
   号房间的预约" for a booking's id) is not;
3. a message in an assistant's voice ("好的，我收到你的…，我正在取消…", "感谢您注册…") reports an
   action, it asks for none: nothing is done, and the one reply says so and asks whether the user
   wants it done — never a question about another tool; a verb heading a noun ("预约编号") is no
   action of its own, and a label with its value opening the request ("预约编号是 MU2231，请…")
   belongs to the clause after it;
4. a "<field>改为<value>" clause whose field no parameter of the tool has is said not done, naming
   that field.
"""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from handwritten_agent.course.offline.simulator import CourseSimulator
from tests.simkit import fn, run_request

NOW = datetime(2026, 3, 12, 14, 30)  # a Thursday afternoon
SIMULATOR = CourseSimulator(now=NOW)
QUESTION = re.compile(r"[?？]")
DONE = re.compile(r"已(?:取消|注册|登记|添加|修改|更新)|成功")


def run(tools, request_):
    return run_request(SIMULATOR, tools, request_)


# --- 1. a Latin name right after the tool's verb --------------------------------------------------

CARD = fn(
    "register_membership_card",
    "Register a new membership card.",
    {
        "name": {"type": "string", "description": "Name of the membership card"},
        "description": {"type": "string", "description": "Description of the membership card"},
        "price": {"type": "integer", "description": "Price of the membership card"},
    },
)
TEAM = fn(
    "register_team",
    "Register a new team in the league.",
    {
        "name": {"type": "string", "description": "Name of the team"},
        "city": {"type": "string", "description": "Home city of the team"},
    },
)


@pytest.mark.parametrize(
    "tools, request_, call",
    [
        (
            [CARD],
            "请注册Gold Member Card，价格300元，描述为For gold members only。",
            (
                "register_membership_card",
                {"name": "Gold Member Card", "description": "For gold members only", "price": 300},
            ),
        ),
        (
            [TEAM],
            "帮我注册Golden Eagles，主场城市是上海",
            ("register_team", {"name": "Golden Eagles", "city": "上海"}),
        ),
    ],
)
def test_a_latin_name_after_the_tools_verb_is_the_things_name(tools, request_, call):
    calls, answer = run(tools, request_)
    assert calls == [call], (calls, answer)


def test_a_lowercase_phrase_after_the_verb_is_no_name():
    calls, answer = run([TEAM], "帮我注册golden eagles，主场城市是上海")
    assert calls == [] and QUESTION.search(answer), (calls, answer)


# --- 2. a number before 号 and the noun the id names ----------------------------------------------

PERMIT = fn(
    "cancel_permit",
    "Cancel a parking permit.",
    id=("string", "ID of the parking permit"),
)
LOCKER = fn(
    "release_locker",
    "释放一个储物柜",
    locker_id=("string", "储物柜的 ID"),
)
BOOKING = fn(
    "cancel_booking",
    "Cancel a booking.",
    id=("string", "ID of the booking"),
)


@pytest.mark.parametrize(
    "tools, request_, call",
    [
        ([PERMIT], "我想取消我的884213号停车证。", ("cancel_permit", {"id": "884213"})),
        ([PERMIT], "麻烦取消 551020 号停车许可证", ("cancel_permit", {"id": "551020"})),
    ],
)
def test_a_number_before_hao_and_the_ids_noun_is_the_id(tools, request_, call):
    calls, answer = run(tools, request_)
    assert calls == [call], (calls, answer)


@pytest.mark.parametrize(
    "request_", ["取消1203号房间的预约", "取消我在1203号房间的预订", "取消3号的预约"]
)
def test_a_number_before_hao_and_another_noun_is_no_id(request_):
    calls, answer = run([BOOKING], request_)
    assert calls == [] and QUESTION.search(answer), (calls, answer)


# --- 3. a message in an assistant's voice ---------------------------------------------------------

TICKET_TOOLS = [
    fn(
        "book_ticket",
        "预约一张博物馆门票，返回预约编号",
        visitor_id=("string", "游客 ID，格式为 AB1234"),
        exhibit_id=("string", "展览 ID，格式为 AB1234"),
    ),
    fn(
        "cancel_ticket",
        "取消预约的门票，返回取消编号",
        reservation_id=("string", "预约编号，格式为 AB1234"),
    ),
    fn(
        "register_visitor",
        "为新游客登记，生成一个唯一编号",
        visitor_id=("string", "游客 ID，格式为 AB1234"),
        phone=("string", "手机号"),
    ),
]


@pytest.mark.parametrize(
    "request_",
    [
        "好的，我收到你的预约编号 MU2231，我正在取消预约。",
        "好的，已收到您的预约编号 MU2231，我这就为您取消预约。",
        "感谢您登记新游客，您的编号是 VS1234",
    ],
)
def test_an_assistants_voice_is_no_request_and_gets_one_honest_reply(request_):
    calls, answer = run(TICKET_TOOLS, request_)
    assert calls == [], (calls, answer)
    assert not DONE.search(answer.replace("没有", "")), answer  # no claim it was done
    assert "book_ticket" not in answer and "预约一张" not in answer, answer  # no other tool
    assert len(answer.splitlines()) == 1 and QUESTION.search(answer), answer


def test_a_customer_saying_what_they_are_doing_is_no_assistants_voice():
    request_ = "您好，我是赵敏，我的游客ID是VS5678，手机号是13800138000，我正在登记游客。"
    calls, answer = run(TICKET_TOOLS, request_)
    assert "助手的回复" not in answer, answer
    assert calls == [("register_visitor", {"visitor_id": "VS5678", "phone": "13800138000"})], (
        calls,
        answer,
    )


@pytest.mark.parametrize(
    "request_",
    [
        "我收到了预约编号 MU2231，请帮我取消预约。",
        "预约编号是MU2231，请帮我取消预约。",
        "请取消预约，预约编号 MU2231",
    ],
)
def test_a_users_own_request_naming_the_booking_number_is_done(request_):
    # "预约编号" is a noun: no second intent to book, and its value is the cancel's
    calls, answer = run(TICKET_TOOLS, request_)
    assert calls == [("cancel_ticket", {"reservation_id": "MU2231"})], (calls, answer)


# --- 4. a field the tool has no parameter for is named --------------------------------------------

ROOM = fn(
    "update_room",
    "修改会议室信息",
    room_id=("string", "会议室 ID（例如：MR101）"),
    new_name=("string", "新会议室名（例如：星河厅）"),
)


def test_a_field_no_parameter_has_is_named_in_the_note():
    calls, answer = run([ROOM], "修改会议室信息，将ID为MR205的会议室名称改为银河厅，容量改为30人。")
    assert calls == [("update_room", {"room_id": "MR205", "new_name": "银河厅"})], (calls, answer)
    assert re.search(r"「容量」", answer), answer
