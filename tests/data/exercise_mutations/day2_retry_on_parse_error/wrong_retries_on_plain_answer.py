"""Treats a plain-text answer (None) as a failure and asks again instead of returning None."""

from handwritten_agent.parsing import ParseError, parse_tool_call


def ask_for_tool_call(client, messages, max_attempts=3):
    messages = list(messages)
    for _ in range(max_attempts):
        text = client.complete(messages).content or ""
        parsed = parse_tool_call(text)
        if parsed is not None and not isinstance(parsed, ParseError):
            return parsed
        message = parsed.message if parsed is not None else "请调用工具，只输出 JSON。"
        messages += [{"role": "assistant", "content": text}, {"role": "user", "content": message}]
    raise ValueError(f"没有得到工具调用：{message}")


ARGS = (ask_for_tool_call,)
FAILS_AT = "文字回答"
