"""Sends json.dumps(result.data): a failed tool's result becomes "null" and the model never learns why."""

import json


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
        for call in reply.tool_calls:
            result = registry.dispatch(call.name, call.arguments)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(result.data, ensure_ascii=False)})
    return "max_steps", messages


ARGS = (run_loop,)
FAILS_AT = "调用一次工具后给出答案"
