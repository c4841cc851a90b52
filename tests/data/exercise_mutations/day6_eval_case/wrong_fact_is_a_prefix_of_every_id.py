"""Checks the answer for "BK000" instead of the new booking's id: a prefix that every booking id
has, so an answer that names the other person's BK0001 passes too (a near miss)."""

from handwritten_agent.course.evaluation import EvalCase, ExpectedCall, StateCheck
from handwritten_agent.course.exercises.check.day6 import EVAL_REQUEST


def make_case():
    return EvalCase(
        "book_weekly", EVAL_REQUEST, "预订",
        expected_calls=[ExpectedCall("book_meeting_room", {"room_id": "room_302", "start_time": "2026-03-16 09:00",
                                                           "end_time": "2026-03-16 10:00", "attendee_count": 3})],
        decide="approve",
        state=[StateCheck("SELECT room_id, start_time, end_time, attendees FROM bookings WHERE booked_by = 'E001' ORDER BY id",
                          [["room_302", "2026-03-16 09:00", "2026-03-16 10:00", 3]], "张明只订了这一间")],
        answer_facts=["BK000"],
    )


ARGS = (make_case,)
