"""No try/except around the model call: a network error or HTTP 500 crashes the caller instead of ending as "error"."""


def run_loop(client, registry, user_message, max_steps=5):
    messages = [{"role": "user", "content": user_message}]
    for _ in range(max_steps):
        reply = client.complete(messages, tools=registry.schemas())
        messages.append(reply.to_message())
        if not reply.tool_calls:
            return ("final" if (reply.content or "").strip() else "error"), messages
        for call in reply.tool_calls:
            result = registry.dispatch(call.name, call.arguments)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result.to_content()})
    return "max_steps", messages


ARGS = (run_loop,)
FAILS_AT = "抛出异常 → error"
