"""Correct, another style: no expected calls at all — two counts in SQL (E001 has exactly one
booking, and it is the right room, time and size) and the booking id as the fact."""

from handwritten_agent.course.evaluation import EvalCase, StateCheck
from handwritten_agent.course.exercises.check.day6 import EVAL_REQUEST


def make_case():
    mine = "FROM bookings WHERE booked_by = 'E001'"
    exact = (" AND room_id = 'room_302' AND start_time = '2026-03-16 09:00'"
             " AND end_time = '2026-03-16 10:00' AND attendees = 3")
    return EvalCase(
        "weekly_302", EVAL_REQUEST, "预订", decide="approve",
        state=[StateCheck(f"SELECT COUNT(*) {mine}", [[1]], "只订了一间"),
               StateCheck(f"SELECT COUNT(*) {mine}{exact}", [[1]], "这一间的会议室、时间、人数都对")],
        answer_facts=["BK0002"],
    )


ARGS = (make_case,)
