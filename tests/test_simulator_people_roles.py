"""People in a request, by role: which of a tool's person parameters a name goes to.

- A tool with two person parameters (a student and a coach, a user and the new user name) gives a
  name to the one its label or title says ("学员刘洋", "王教练", "教练是王伟"); the one name left
  goes to the one parameter left. A name that no label or title ties to one of them is asked about:
  never the same name for both, never one call per person.
- A name parameter described as a person noun's name ("学员名字", "客户的名字", "name of the
  student") is a person parameter: the name after 给/帮 fills it ("给王丽约下周二的课"). A thing's
  name ("课程名字") is not.
- A clause whose date went into a call ("周五下午3点") is not reported as not understood.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from handwritten_agent.course.offline.simulator import CourseSimulator
from handwritten_agent.course.offline.simulator.arguments.params import Param, classify
from tests.simkit import fn, run_request

SIMULATOR = CourseSimulator(now=datetime(2026, 3, 12, 14, 30))  # a Thursday afternoon


def run(tools, request):
    return run_request(SIMULATOR, tools, request)


LESSON = fn(
    "book_lesson",
    "预约一节网球课",
    student=("string", "学员姓名"),
    coach=("string", "教练姓名"),
    lesson_time=("string", "上课时间"),
)
TRANSFER = fn(
    "transfer_member",
    "把会籍转给另一个人",
    member=("string", "会员姓名"),
    new_member=("string", "新会员的姓名"),
)


@pytest.mark.parametrize(
    "request_, student, coach",
    [
        ("学员陈晨，预约孙教练，周六上午9点", "陈晨", "孙教练"),
        ("给陈晨约孙教练周六上午9点的课", "陈晨", "孙教练"),
        ("学员陈晨，教练是孙强，周六上午9点", "陈晨", "孙强"),
    ],
)
def test_two_people_go_to_the_roles_their_words_say(request_, student, coach):
    calls, answer = run([LESSON], request_)
    assert calls == [
        ("book_lesson", {"student": student, "coach": coach, "lesson_time": "2026-03-14 09:00"})
    ], (request_, calls, answer)


@pytest.mark.parametrize(
    "request_",
    ["给陈晨和孙强约周六上午9点的课", "陈晨、孙强，周六上午9点上课"],
)
def test_names_no_role_ties_are_asked_never_copied_or_fanned_out(request_):
    calls, answer = run([LESSON], request_)
    assert calls == [], (request_, calls)
    assert "？" in answer or "?" in answer, answer


def test_the_one_name_left_goes_to_the_one_person_left():
    calls, _ = run([TRANSFER], "陈晨的会籍转出去，新会员的姓名为孙强")
    assert calls == [("transfer_member", {"member": "陈晨", "new_member": "孙强"})], calls


CLASS = fn(
    "book_class",
    "预约一节课",
    student=("string", "学员名字"),
    class_date=("string", "上课日期"),
)


@pytest.mark.parametrize(
    "request_",
    ["给王丽约下周二的课", "帮王丽预约下周二的课", "王丽约下周二的课", "帮我给王丽约下周二的课"],
)
def test_a_name_for_a_person_nouns_name_parameter(request_):
    calls, answer = run([CLASS], request_)
    assert calls == [("book_class", {"student": "王丽", "class_date": "2026-03-17"})], (
        request_,
        calls,
        answer,
    )


@pytest.mark.parametrize(
    "description, person",
    [
        ("学员名字", True),
        ("客户的名字", True),
        ("name of the student", True),
        ("课程名字", False),
        ("会议室名称", False),
        ("name of the course", False),
    ],
)
def test_which_name_parameters_are_people(description, person):
    param = Param("x", {"type": "string", "description": description}, True)
    assert (classify(param) == "person") is person, classify(param)


def test_a_clause_whose_date_was_used_is_not_reported_as_not_understood():
    visit = fn(
        "book_visit",
        "预约门诊",
        patient=("string", "病人姓名"),
        doctor=("string", "医生姓名"),
        visit_time=("string", "就诊时间"),
    )
    calls, answer = run([visit], "病人王丽，医生张伟，周五下午3点")
    assert calls and calls[0][1]["visit_time"] == "2026-03-13 15:00", calls
    assert "没看懂" not in answer, answer


def test_a_name_read_out_of_a_longer_one_is_asked_without_saying_it_was_never_said():
    # "王五" taken out of the user name "王五456": the question must not claim it was never said
    register = fn(
        "register_user",
        "注册新用户",
        username=("string", "用户的用户名，只能包含字母、数字和下划线"),
        email=("string", "邮箱"),
    )
    calls, answer = run([register], "注册用户王五456，邮箱wang56456@example.com")
    assert calls == [] and "王五456" in answer and "没有出现" not in answer, answer
