"""Counts a call that took exactly the limit as slow (>= instead of >)."""


def slow_tool_calls(lines, limit_ms):
    return [{"request_id": l.get("request_id"), "step": l.get("step"), "tool": l.get("tool"),
             "tool_call_id": l.get("gen_ai.tool.call.id"), "duration_ms": l.get("tool_duration_ms")}
            for l in lines if l.get("event") == "tool_result" and l.get("tool_duration_ms") is not None
            and l["tool_duration_ms"] >= limit_ms]


ARGS = (slow_tool_calls,)
