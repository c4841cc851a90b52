"""The tests' one check that a run's messages are well formed (stricter than the API: answers in
call order).
"""

from __future__ import annotations


def assert_well_formed(messages: list[dict]) -> None:
    """Every assistant tool call is answered right after it, by id, in call order, and by nothing
    else.
    """
    for i, message in enumerate(messages):
        if message["role"] == "assistant" and message.get("tool_calls"):
            ids = [c["id"] for c in message["tool_calls"]]
            answers = messages[i + 1 : i + 1 + len(ids)]
            assert [m["role"] for m in answers] == ["tool"] * len(ids)
            assert [m.get("tool_call_id") for m in answers] == ids
