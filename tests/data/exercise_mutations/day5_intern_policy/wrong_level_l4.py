"""Invents a level L4 for "very strict"."""


def build_intern_rules():
    return {"tools": ["query_room_availability", "read_email", "book_meeting_room"], "levels": {"book_meeting_room": "L4"}}


ARGS = (build_intern_rules,)
