"""Correct, another way: a RoleRules object, a tuple for the whitelist and an int level."""

from handwritten_agent.permissions import RoleRules


def build_intern_rules():
    return RoleRules(tools=("book_meeting_room", "query_room_availability", "read_email"), levels={"book_meeting_room": 3})


ARGS = (build_intern_rules,)
