"""Correct, another way: the room by either name, a count and a row check as two queries, and the booking id as the fact."""

from handwritten_agent.course.evaluation import EvalCase, ExpectedCall, OneOf, StateCheck
from handwritten_agent.course.exercises.check.day6 import EVAL_REQUEST


def make_case():
    mine = "FROM bookings WHERE booked_by = 'E001'"
    return EvalCase("weekly_meeting_room", EVAL_REQUEST, "预订", decide="approve",
                    expected_calls=[ExpectedCall("book_meeting_room", {"room_id": OneOf("room_302", "A302"), "attendee_count": 3})],
                    state=[StateCheck(f"SELECT COUNT(*) {mine}", [[1]], "只订了一间"),
                           StateCheck(f"SELECT room_id, start_time, end_time, attendees {mine}",
                                      [["room_302", "2026-03-16 09:00", "2026-03-16 10:00", 3]], "订的是这一间、这个时段、这么多人")],
                    answer_facts=[OneOf("BK0002", "bk0002")])


ARGS = (make_case,)
