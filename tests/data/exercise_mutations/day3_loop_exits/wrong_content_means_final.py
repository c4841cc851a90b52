"""Ends as soon as the reply has text, even when the same reply also asks for tools."""


def run_loop(client, registry, user_message, max_steps=5):
    messages = [{"role": "user", "content": user_message}]
    for _ in range(max_steps):
        try:
            reply = client.complete(messages, tools=registry.schemas())
        except Exception:
            return "error", messages
        messages.append(reply.to_message())
        if (reply.content or "").strip():
            return "final", messages
        if not reply.tool_calls:
            return "error", messages
        for call in reply.tool_calls:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": registry.dispatch(call.name, call.arguments).to_content()})
    return "max_steps", messages


ARGS = (run_loop,)
FAILS_AT = "既有文字又有工具调用"
