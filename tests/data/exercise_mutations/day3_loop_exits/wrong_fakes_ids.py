"""Makes up its own tool_call_id for each result instead of using call.id."""


def run_loop(client, registry, user_message, max_steps=5):
    messages = [{"role": "user", "content": user_message}]
    for step in range(max_steps):
        try:
            reply = client.complete(messages, tools=registry.schemas())
        except Exception:
            return "error", messages
        messages.append(reply.to_message())
        if not reply.tool_calls:
            return ("final" if (reply.content or "").strip() else "error"), messages
        for number, call in enumerate(reply.tool_calls):
            result = registry.dispatch(call.name, call.arguments)
            messages.append({"role": "tool", "tool_call_id": f"call_{step}_{number}", "content": result.to_content()})
    return "max_steps", messages


ARGS = (run_loop,)
FAILS_AT = "调用一次工具后给出答案"
