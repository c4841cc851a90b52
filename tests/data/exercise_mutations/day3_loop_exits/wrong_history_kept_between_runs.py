"""Keeps the conversation in a module-level list: the second run sends the first run's messages to the
model again (another user's question leaks into this one)."""

HISTORY = []


def run_loop(client, registry, user_message, max_steps=5):
    HISTORY.append({"role": "user", "content": user_message})
    start = len(HISTORY) - 1
    for _ in range(max_steps):
        try:
            answer = client.complete(HISTORY, tools=registry.schemas())
        except Exception:  # noqa: BLE001
            return "error", HISTORY[start:]
        HISTORY.append(answer.to_message())
        if not answer.tool_calls:
            text = answer.content.strip() if isinstance(answer.content, str) else ""
            return ("final" if text else "error"), HISTORY[start:]
        for c in answer.tool_calls:
            HISTORY.append({"role": "tool", "tool_call_id": c.id, "content": registry.dispatch(c.name, c.arguments).to_content()})
    return "max_steps", HISTORY[start:]


ARGS = (run_loop,)
FAILS_AT = "又一次"
