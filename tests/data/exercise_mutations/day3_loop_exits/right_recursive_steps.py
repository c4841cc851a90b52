"""Correct, another style: each step is a recursive call with the steps left; the tool results are
built by a list comprehension after the reply is echoed."""

from handwritten_agent.tools import ToolResult


def _result(registry, call):
    try:
        return registry.dispatch(call.name, call.arguments)
    except Exception as exc:  # noqa: BLE001
        return ToolResult.fail(f"执行 {call.name} 时出错：{type(exc).__name__}: {exc}")


def _step(client, registry, messages, left):
    if left == 0:
        return "max_steps", messages
    try:
        reply = client.complete(messages, tools=registry.schemas())
    except Exception:  # noqa: BLE001
        return "error", messages
    if reply.finish_reason in {"length", "content_filter"}:
        return reply.finish_reason, messages
    if not reply.tool_calls:
        if (reply.content or "").strip() == "":
            return "error", messages
        return "final", messages + [reply.to_message()]
    answered = [
        {"role": "tool", "tool_call_id": call.id, "content": _result(registry, call).to_content()}
        for call in reply.tool_calls
    ]
    return _step(client, registry, messages + [reply.to_message()] + answered, left - 1)


def run_loop(client, registry, user_message, max_steps=5):
    return _step(client, registry, [{"role": "user", "content": user_message}], max_steps)


ARGS = (run_loop,)
