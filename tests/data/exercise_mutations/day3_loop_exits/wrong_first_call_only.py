"""Answers only reply.tool_calls[0]: the other parallel calls get no result (a real API then answers 400)."""


def run_loop(client, registry, user_message, max_steps=5):
    messages = [{"role": "user", "content": user_message}]
    for _ in range(max_steps):
        try:
            reply = client.complete(messages, tools=registry.schemas())
        except Exception:
            return "error", messages
        messages.append(reply.to_message())
        if not reply.tool_calls:
            return ("final" if (reply.content or "").strip() else "error"), messages
        call = reply.tool_calls[0]
        messages.append({"role": "tool", "tool_call_id": call.id, "content": registry.dispatch(call.name, call.arguments).to_content()})
    return "max_steps", messages


ARGS = (run_loop,)
FAILS_AT = "并行"
