"""Adds send_sms_to_customers to the whitelist "just in case"."""


def build_intern_rules():
    return {"tools": ["query_room_availability", "read_email", "book_meeting_room", "send_sms_to_customers"],
            "levels": {"book_meeting_room": "L3"}}


ARGS = (build_intern_rules,)
