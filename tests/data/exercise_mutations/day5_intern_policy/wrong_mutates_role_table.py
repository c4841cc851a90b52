"""Writes the intern into the course's shared ROLE_TABLE instead of returning a new dict."""

from handwritten_agent.scenarios.office import ROLE_TABLE


def build_intern_rules():
    ROLE_TABLE["实习生"] = {"tools": ["query_room_availability", "read_email", "book_meeting_room"], "levels": {"book_meeting_room": "L3"}}
    return ROLE_TABLE["实习生"]


ARGS = (build_intern_rules,)
