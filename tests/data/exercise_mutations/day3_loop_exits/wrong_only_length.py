"""Ends on a cut-off reply ("length") but takes a reply the provider's content filter withheld as
the final answer."""

from handwritten_agent.tools import ToolResult


def run_loop(client, registry, user_message, max_steps=5):
    messages = [{"role": "user", "content": user_message}]
    for _ in range(max_steps):
        try:
            reply = client.complete(messages, tools=registry.schemas())
        except Exception:
            return "error", messages
        if reply.finish_reason == "length":
            return "length", messages
        if not reply.tool_calls:
            if not (reply.content or "").strip():
                return "error", messages
            messages.append(reply.to_message())
            return "final", messages
        messages.append(reply.to_message())
        for call in reply.tool_calls:
            try:
                result = registry.dispatch(call.name, call.arguments)
            except Exception as exc:
                result = ToolResult.fail(f"工具 {call.name} 出错：{type(exc).__name__}: {exc}")
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result.to_content()})
    return "max_steps", messages


ARGS = (run_loop,)
FAILS_AT = "content_filter"
