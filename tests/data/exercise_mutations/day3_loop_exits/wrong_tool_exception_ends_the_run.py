"""Puts the model call and the tool calls in one try: an exception from registry.dispatch ends the
run with "error" instead of reaching the model as a failed result."""

FAILS_AT = "dispatch 自己抛出异常"


def run_loop(client, registry, user_message, max_steps=5):
    messages = [{"role": "user", "content": user_message}]
    try:
        for _ in range(max_steps):
            reply = client.complete(messages, tools=registry.schemas())
            if not reply.tool_calls:
                if not (reply.content or "").strip():
                    return "error", messages
                messages.append(reply.to_message())
                return "final", messages
            messages.append(reply.to_message())
            for call in reply.tool_calls:
                result = registry.dispatch(call.name, call.arguments)
                messages.append({"role": "tool", "tool_call_id": call.id, "content": result.to_content()})
    except Exception:
        return "error", messages
    return "max_steps", messages


ARGS = (run_loop,)
