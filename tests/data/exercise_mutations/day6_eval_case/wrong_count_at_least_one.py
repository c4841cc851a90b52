"""The database check asks whether at least one right booking exists (COUNT(*) >= 1): an extra booking is not seen."""

import copy
import json
import re
from datetime import datetime
from pathlib import Path
from handwritten_agent.course.evaluation import EvalCase, ExpectedCall, OneOf, StateCheck
from handwritten_agent.course.exercises.check.day6 import EVAL_REQUEST

def make_case() -> EvalCase:
    """给 EVAL_REQUEST 的评测用例：正确的 agent 能通过，每个错误的都通不过。"""
    return EvalCase(
        "book_weekly", EVAL_REQUEST, "预订",
        expected_calls=[ExpectedCall("book_meeting_room", {"room_id": "room_302", "start_time": "2026-03-16 09:00",
                                                           "end_time": "2026-03-16 10:00", "attendee_count": 3})],
        decide="approve",
        state=[StateCheck("SELECT COUNT(*) >= 1 FROM bookings WHERE booked_by = 'E001' AND room_id = 'room_302' AND start_time = '2026-03-16 09:00' AND end_time = '2026-03-16 10:00' AND attendees = 3",
                          [[1]], "订到了这一间")],
        answer_facts=["BK0002"],
    )


ARGS = (make_case,)
