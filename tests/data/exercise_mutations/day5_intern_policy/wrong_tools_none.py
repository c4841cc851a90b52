"""Writes tools=None thinking it means "no extra tools": None means every tool, so the intern sees SMS and email too."""


def build_intern_rules():
    return {"tools": None, "levels": {"book_meeting_room": "L3"}}


ARGS = (build_intern_rules,)
