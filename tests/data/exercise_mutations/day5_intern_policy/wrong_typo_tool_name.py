"""A typo in a tool name: the whitelist says book_room, so the intern cannot see book_meeting_room at all."""


def build_intern_rules():
    return {"tools": ["query_room_availability", "read_email", "book_room"], "levels": {"book_room": "L3"}}


ARGS = (build_intern_rules,)
