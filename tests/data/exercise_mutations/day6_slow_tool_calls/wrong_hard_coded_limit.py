"""Ignores limit_ms and uses a fixed 500 ms."""


def slow_tool_calls(lines, limit_ms):
    return [{"request_id": l.get("request_id"), "step": l.get("step"), "tool": l.get("tool"),
             "tool_call_id": l.get("gen_ai.tool.call.id"), "duration_ms": l.get("tool_duration_ms")}
            for l in lines if l.get("event") == "tool_result" and (l.get("tool_duration_ms") or 0) > 500]


ARGS = (slow_tool_calls,)
