"""Returns [stop_reason, messages] as a list and the reason in capitals."""


def run_loop(client, registry, user_message, max_steps=5):
    messages = [{"role": "user", "content": user_message}]
    for _ in range(max_steps):
        try:
            reply = client.complete(messages, tools=registry.schemas())
        except Exception:
            return ["ERROR", messages]
        messages.append(reply.to_message())
        if not reply.tool_calls:
            return ["FINAL" if (reply.content or "").strip() else "ERROR", messages]
        for call in reply.tool_calls:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": registry.dispatch(call.name, call.arguments).to_content()})
    return ["MAX_STEPS", messages]


ARGS = (run_loop,)
FAILS_AT = "调用一次工具后给出答案"
