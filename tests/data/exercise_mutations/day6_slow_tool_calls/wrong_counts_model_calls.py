"""Uses duration_ms as a fallback, so slow model calls are reported as slow tools."""


def slow_tool_calls(lines, limit_ms):
    found = []
    for line in lines:
        duration = line.get("tool_duration_ms", line.get("duration_ms"))
        if duration is not None and duration > limit_ms:
            found.append({"request_id": line.get("request_id"), "step": line.get("step"), "tool": line.get("tool"),
                          "tool_call_id": line.get("gen_ai.tool.call.id"), "duration_ms": duration})
    return found


ARGS = (slow_tool_calls,)
