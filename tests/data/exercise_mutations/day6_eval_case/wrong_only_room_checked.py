"""Checks only which room: the call's room_id and a query of room ids; a wrong time or headcount passes."""

from handwritten_agent.course.evaluation import EvalCase, ExpectedCall, StateCheck
from handwritten_agent.course.exercises.check.day6 import EVAL_REQUEST


def make_case():
    return EvalCase("book_weekly", EVAL_REQUEST, "预订", decide="approve",
                    expected_calls=[ExpectedCall("book_meeting_room", {"room_id": "room_302"})],
                    state=[StateCheck("SELECT room_id FROM bookings WHERE booked_by = 'E001'", [["room_302"]])],
                    answer_facts=["BK0002"])


FAILS_AT = "订错了时间"
ARGS = (make_case,)
