"""The database check reads only the first row (LIMIT 1): an agent that booked room_302 and then another room still passes."""

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
        state=[StateCheck("SELECT room_id, start_time, end_time, attendees FROM bookings WHERE booked_by = 'E001' ORDER BY id LIMIT 1",
                          [["room_302", "2026-03-16 09:00", "2026-03-16 10:00", 3]], "张明只订了这一间")],
        answer_facts=["BK0002"],
    )


ARGS = (make_case,)
