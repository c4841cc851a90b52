"""Forgets the level override: booking stays at its default L2, so an intern could book without the supervisor."""


def build_intern_rules():
    return {"tools": ["query_room_availability", "read_email", "book_meeting_room"], "levels": {}}


ARGS = (build_intern_rules,)
