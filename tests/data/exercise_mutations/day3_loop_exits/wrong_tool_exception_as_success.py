"""Reports an exception from registry.dispatch as a successful result whose data is the message:
the model reads it as the tool's answer."""

import json

FAILS_AT = "dispatch 自己抛出异常"


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
            messages.append(reply.to_message())
            return "final", messages
        messages.append(reply.to_message())
        for call in reply.tool_calls:
            try:
                content = registry.dispatch(call.name, call.arguments).to_content()
            except Exception as exc:
                content = json.dumps({"success": True, "data": str(exc), "error": None}, ensure_ascii=False)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
    return "max_steps", messages


ARGS = (run_loop,)
