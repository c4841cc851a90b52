"""Strips only ASCII spaces, tabs and newlines: a reply of full-width spaces (　, typed with a
Chinese input method) counts as text and becomes the final answer."""


def run_loop(client, registry, user_message, max_steps=5):
    messages = [{"role": "user", "content": user_message}]
    for _ in range(max_steps):
        try:
            reply = client.complete(messages, tools=registry.schemas())
        except Exception:
            return "error", messages
        if not reply.tool_calls:
            if not (reply.content or "").strip(" \t\r\n"):
                return "error", messages
            messages.append(reply.to_message())
            return "final", messages
        messages.append(reply.to_message())
        for call in reply.tool_calls:
            result = registry.dispatch(call.name, call.arguments)
            messages.append(
                {"role": "tool", "tool_call_id": call.id, "content": result.to_content()}
            )
    return "max_steps", messages


ARGS = (run_loop,)
FAILS_AT = "全角空格"
