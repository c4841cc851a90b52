"""Reads the call id from a field named tool_call_id, which trace lines do not have (it is gen_ai.tool.call.id)."""


def slow_tool_calls(lines, limit_ms):
    return [{"request_id": l.get("request_id"), "step": l.get("step"), "tool": l.get("tool"),
             "tool_call_id": l.get("tool_call_id"), "duration_ms": l.get("tool_duration_ms")}
            for l in lines if l.get("event") == "tool_result" and (l.get("tool_duration_ms") or 0) > limit_ms]


ARGS = (slow_tool_calls,)
