"""Matches the time by its date only (start_time LIKE '2026-03-16%'): a booking at the wrong hour on
the right day passes the database check, and the expected call leaves the times out."""

from handwritten_agent.course.evaluation import EvalCase, ExpectedCall, StateCheck
from handwritten_agent.course.exercises.check.day6 import EVAL_REQUEST


def make_case():
    return EvalCase(
        "book_weekly",
        EVAL_REQUEST,
        "预订",
        decide="approve",
        expected_calls=[
            ExpectedCall("book_meeting_room", {"room_id": "room_302", "attendee_count": 3})
        ],
        state=[
            StateCheck(
                "SELECT room_id, attendees FROM bookings WHERE booked_by = 'E001'"
                " AND start_time LIKE '2026-03-16%'",
                [["room_302", 3]],
            )
        ],
        answer_facts=["BK0002"],
    )


FAILS_AT = "订错了时间"
ARGS = (make_case,)
