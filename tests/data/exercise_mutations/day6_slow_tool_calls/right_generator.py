"""Correct, written as a generator filtered into a list, with the fields renamed by a mapping."""

FIELDS = {"request_id": "request_id", "step": "step", "tool": "tool", "tool_call_id": "gen_ai.tool.call.id",
          "duration_ms": "tool_duration_ms"}


def slow_tool_calls(lines, limit_ms):
    def slow():
        for line in lines:
            ms = line.get("tool_duration_ms") if line.get("event") == "tool_result" else None
            if ms is not None and ms > limit_ms:
                yield {ours: line.get(theirs) for ours, theirs in FIELDS.items()}
    return list(slow())


ARGS = (slow_tool_calls,)
