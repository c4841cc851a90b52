"""Whitelists the internal export and lifts it from L0 to L1: the model could export every customer's ID number."""


def build_intern_rules():
    return {"tools": ["query_room_availability", "read_email", "book_meeting_room", "export_customer_list"],
            "levels": {"book_meeting_room": "L3", "export_customer_list": "L1"}}


ARGS = (build_intern_rules,)
