"""Rebuilds the assistant message from the decoded arguments: the argument text is no longer what the model wrote."""

import json


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
            messages.append({"role": "assistant", "content": reply.content})
            return "final", messages
        messages.append({"role": "assistant", "content": reply.content, "tool_calls": [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": json.dumps(c.args)}} for c in reply.tool_calls]})
        for call in reply.tool_calls:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": registry.dispatch(call.name, call.arguments).to_content()})
    return "max_steps", messages


ARGS = (run_loop,)
FAILS_AT = "调用一次工具后给出答案"
