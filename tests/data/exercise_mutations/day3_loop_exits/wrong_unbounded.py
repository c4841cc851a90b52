"""while True: a model that keeps calling tools keeps the loop going until something else breaks."""


def run_loop(client, registry, user_message, max_steps=5):
    messages = [{"role": "user", "content": user_message}]
    while True:
        try:
            reply = client.complete(messages, tools=registry.schemas())
        except Exception:
            return "error", messages
        messages.append(reply.to_message())
        if not reply.tool_calls:
            return ("final" if (reply.content or "").strip() else "error"), messages
        for call in reply.tool_calls:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": registry.dispatch(call.name, call.arguments).to_content()})


ARGS = (run_loop,)
FAILS_AT = "max_steps=3"
