"""Reports only successful tool calls: a call that timed out after 30 s (status "error") is not reported as slow."""


def slow_tool_calls(lines, limit_ms):
    found = []
    for line in lines:
        if line.get("event") != "tool_result" or line.get("status") != "success":
            continue
        duration = line.get("tool_duration_ms")
        if duration is not None and duration > limit_ms:
            found.append({"request_id": line.get("request_id"), "step": line.get("step"), "tool": line.get("tool"),
                          "tool_call_id": line.get("gen_ai.tool.call.id"), "duration_ms": duration})
    return found


ARGS = (slow_tool_calls,)
FAILS_AT = "失败"
