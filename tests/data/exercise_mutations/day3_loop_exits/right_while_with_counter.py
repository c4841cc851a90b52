"""Correct, in another style: a while loop with a step counter, the exits written as early returns,
a helper that turns a registry's exception into a failed result with its message."""

import json


def _run_tool(registry, call):
    try:
        return registry.dispatch(call.name, call.arguments).to_content()
    except Exception as exc:  # noqa: BLE001
        return json.dumps({"success": False, "data": None, "error": f"{call.name} 执行失败：{exc!r}"}, ensure_ascii=False)


def run_loop(client, registry, user_message, max_steps=5):
    history = [{"role": "system", "content": "你是一个会用工具的助手。"}, {"role": "user", "content": user_message}]
    steps = 0
    while steps < max_steps:
        steps += 1
        try:
            answer = client.complete(history, tools=registry.schemas())
        except Exception as exc:  # noqa: BLE001
            print(f"模型调用失败：{exc}")
            return "error", history
        if answer.finish_reason == "length":
            return "length", history
        if answer.finish_reason == "content_filter":
            return "content_filter", history
        history.append(answer.to_message())
        if answer.tool_calls:
            history.extend({"role": "tool", "tool_call_id": c.id, "content": _run_tool(registry, c)}
                           for c in answer.tool_calls)
            continue
        text = answer.content.strip() if isinstance(answer.content, str) else ""
        return ("final" if text else "error"), history
    return "max_steps", history


ARGS = (run_loop,)
