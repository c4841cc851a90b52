"""Writes the expected times as ISO text with a T and seconds ("2026-03-16T09:00:00"): the database
stores "2026-03-16 09:00", so the right agent fails the database check."""

from handwritten_agent.course.evaluation import EvalCase, ExpectedCall, StateCheck
from handwritten_agent.course.exercises.check.day6 import EVAL_REQUEST


def make_case():
    return EvalCase("book_weekly", EVAL_REQUEST, "预订", decide="approve",
                    expected_calls=[ExpectedCall("book_meeting_room", {"room_id": "room_302"})],
                    state=[StateCheck("SELECT room_id, start_time, end_time, attendees FROM bookings WHERE booked_by = 'E001'",
                                      [["room_302", "2026-03-16T09:00:00", "2026-03-16T10:00:00", 3]])],
                    answer_facts=["BK0002"])


FAILS_AT = "对的 Agent"
ARGS = (make_case,)
