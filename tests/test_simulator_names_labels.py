"""The simulator on tools it never met: a whole name for a name asked in two parts, arguments
named back with the tool's own words, field names said as a reader says them, and a part that is
only a label and the value that went into the call never called "not understood".
"""

from __future__ import annotations

from typing import Any

import pytest

from handwritten_agent.course.offline.simulator import CourseSimulator
from handwritten_agent.course.offline.simulator.fieldwords import field_label
from tests.simkit import fn, run_request

SIMULATOR = CourseSimulator()


def run(tools: list[dict[str, Any]], request: str) -> tuple[list[tuple[str, dict]], str]:
    return run_request(
        SIMULATOR, tools, request, default={"success": True, "data": {"status": "ok"}}
    )


GYM = [
    fn(
        "create_member",
        "Sign up a new gym member",
        first_name=("string", "Member's first name, e.g. Anna"),
        last_name=("string", "Member's last name, e.g. Lee"),
        phone=("string", "Contact phone"),
    ),
    fn("list_classes", "List today's group classes", day=("string", "Day of week")),
]

CLINIC = [
    fn(
        "jiandang",
        "建档：给新病人建立档案",
        family_name=("string", "病人的姓氏"),
        given_name=("string", "病人的名字（不含姓）"),
    ),
    fn("chaxun", "查询病人档案", patient_id=("string", "病人档案号")),
]


@pytest.mark.parametrize(
    ("tools", "request_text", "want"),
    [
        (
            GYM,
            "帮我开个会员，名叫 Emma Watson，电话 13912345678",
            {"first_name": "Emma", "last_name": "Watson", "phone": "13912345678"},
        ),
        (
            GYM,
            "Please sign up a member named Mary Ann Jones, phone 13800001111",
            {"first_name": "Mary Ann", "last_name": "Jones", "phone": "13800001111"},
        ),
        (CLINIC, "给新病人建档，她叫欧阳娜娜", {"family_name": "欧阳", "given_name": "娜娜"}),
        (CLINIC, "建档，病人姓名是李建国", {"family_name": "李", "given_name": "建国"}),
    ],
)
def test_a_whole_name_fills_a_name_asked_in_two_parts(tools, request_text, want):
    calls, answer = run(tools, request_text)
    assert calls and calls[0][1] == want, (calls, answer)
    assert "没看懂" not in answer, answer


def test_two_names_in_one_request_are_asked_about_never_split_by_guess():
    calls, answer = run(GYM, "帮我开会员，一个叫 Emma Watson，另一个叫 Tom Hardy，电话 13912345678")
    assert not [c for c in calls if c[0] == "create_member" and c[1].get("last_name") == "Hardy"]
    assert not [
        c for c in calls if c[0] == "create_member" and c[1].get("first_name") == "Emma Watson"
    ]


@pytest.mark.parametrize(
    ("name", "zh", "en"),
    [
        ("order_number", "订单号", "order number"),
        ("room_number", "房间号", "room number"),
        ("phone_number", "电话号码", "phone number"),
        ("first_name", "名", "first name"),
        ("last_name", "姓", "last name"),
        ("surname", "姓", "surname"),
        ("booking_id", "预订编号", "booking ID"),
    ],
)
def test_field_names_are_said_as_a_reader_says_them(name, zh, en):
    assert field_label(name, "zh") == zh
    assert field_label(name, "en") == en


def test_number_of_something_is_a_count_and_a_things_number_is_its_number():
    assert field_label("number_of_guests", "zh").endswith("数")
    assert field_label("seat_number", "zh").endswith("号")
    assert "数量" not in field_label("seat_number", "zh")


def test_arguments_are_named_back_with_the_tools_own_chinese_words():
    locker = [
        fn(
            "cunfang",
            "登记寄存的行李",
            owner=("string", "寄存人姓名（例如 王芳）"),
            bag_count=("integer", "行李件数"),
        )
    ]
    calls, answer = run(locker, "登记一下寄存的行李，寄存人姓名是赵磊，行李件数是 3")
    assert calls == [("cunfang", {"owner": "赵磊", "bag_count": 3})], (calls, answer)
    assert "寄存人姓名 赵磊" in answer, answer
    assert "没看懂" not in answer, answer


def test_a_part_that_is_a_label_and_its_value_is_not_called_unclear():
    calls, answer = run(GYM, "注册一个名为 Leo Chan 的会员，联系电话为 13700002222")
    assert calls and calls[0][1]["phone"] == "13700002222", (calls, answer)
    assert "没看懂" not in answer, answer
