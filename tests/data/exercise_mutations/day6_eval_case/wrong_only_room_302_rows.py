"""Looks only at room_302's bookings by E001: an agent that also books room_301 is not noticed."""

from handwritten_agent.course.evaluation import EvalCase, ExpectedCall, StateCheck
from handwritten_agent.course.exercises.check.day6 import EVAL_REQUEST


def make_case():
    return EvalCase("book_weekly", EVAL_REQUEST, "预订", decide="approve",
                    expected_calls=[ExpectedCall("book_meeting_room", {"room_id": "room_302", "start_time": "2026-03-16 09:00",
                                                                       "end_time": "2026-03-16 10:00", "attendee_count": 3})],
                    state=[StateCheck("SELECT start_time, end_time, attendees FROM bookings WHERE booked_by = 'E001' AND room_id = 'room_302'",
                                      [["2026-03-16 09:00", "2026-03-16 10:00", 3]])],
                    answer_facts=["BK0002"])


FAILS_AT = "订了两间"
ARGS = (make_case,)
