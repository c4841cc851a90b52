"""Leaves out every line that carries an "error" field: the call that timed out is exactly such a line."""


def slow_tool_calls(lines, limit_ms):
    return [{"request_id": line.get("request_id"), "step": line.get("step"), "tool": line.get("tool"),
             "tool_call_id": line.get("gen_ai.tool.call.id"), "duration_ms": line.get("tool_duration_ms")}
            for line in lines
            if line.get("event") == "tool_result" and not line.get("error")
            and line.get("tool_duration_ms") is not None and line["tool_duration_ms"] > limit_ms]


ARGS = (slow_tool_calls,)
FAILS_AT = "失败的调用也算"
