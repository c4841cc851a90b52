"""Puts the whitelist in one string instead of a list."""


def build_intern_rules():
    return {"tools": "query_room_availability, read_email, book_meeting_room", "levels": {"book_meeting_room": "L3"}}


ARGS = (build_intern_rules,)
