"""Sorts the findings by duration, slowest first, instead of keeping the order of the lines."""


def slow_tool_calls(lines, limit_ms):
    found = [{"request_id": l.get("request_id"), "step": l.get("step"), "tool": l.get("tool"),
              "tool_call_id": l.get("gen_ai.tool.call.id"), "duration_ms": l.get("tool_duration_ms")}
             for l in lines if l.get("event") == "tool_result" and (l.get("tool_duration_ms") or 0) > limit_ms]
    return sorted(found, key=lambda f: -f["duration_ms"])


ARGS = (slow_tool_calls,)
