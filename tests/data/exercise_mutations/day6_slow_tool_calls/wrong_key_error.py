"""Reads line["tool_duration_ms"] directly: a line without the field raises KeyError, null raises TypeError."""


def slow_tool_calls(lines, limit_ms):
    return [{"request_id": l["request_id"], "step": l["step"], "tool": l["tool"], "tool_call_id": l["gen_ai.tool.call.id"],
             "duration_ms": l["tool_duration_ms"]}
            for l in lines if l["event"] == "tool_result" and l["tool_duration_ms"] > limit_ms]


ARGS = (slow_tool_calls,)
