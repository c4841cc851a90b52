"""Checks `if not reply.content` — a reply of only spaces and newlines passes as the final answer."""


def run_loop(client, registry, user_message, max_steps=5):
    messages = [{"role": "user", "content": user_message}]
    for _ in range(max_steps):
        try:
            reply = client.complete(messages, tools=registry.schemas())
        except Exception:
            return "error", messages
        if not reply.tool_calls:
            if not reply.content:
                return "error", messages
            messages.append(reply.to_message())
            return "final", messages
        messages.append(reply.to_message())
        for call in reply.tool_calls:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": registry.dispatch(call.name, call.arguments).to_content()})
    return "max_steps", messages


ARGS = (run_loop,)
FAILS_AT = "只有空白"
