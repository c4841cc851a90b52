"""Catches an exception from registry.dispatch but reports only "工具出错了": the model never sees
what went wrong (the exception's message is thrown away)."""

from handwritten_agent.tools import ToolResult

FAILS_AT = "dispatch 自己抛出异常"


def run_loop(client, registry, user_message, max_steps=5):
    messages = [{"role": "user", "content": user_message}]
    for _ in range(max_steps):
        try:
            reply = client.complete(messages, tools=registry.schemas())
        except Exception:
            return "error", messages
        if not reply.tool_calls:
            if not (reply.content or "").strip():
                return "error", messages
            messages.append(reply.to_message())
            return "final", messages
        messages.append(reply.to_message())
        for call in reply.tool_calls:
            try:
                result = registry.dispatch(call.name, call.arguments)
            except Exception:
                result = ToolResult.fail("工具出错了，请稍后再试。")
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result.to_content()})
    return "max_steps", messages


ARGS = (run_loop,)
