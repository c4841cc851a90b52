"""Always tries three times, whatever max_attempts says."""

from handwritten_agent.parsing import ParseError, parse_tool_call


def ask_for_tool_call(client, messages, max_attempts=3):
    messages = list(messages)
    error = None
    for _ in range(3):
        text = client.complete(messages).content or ""
        parsed = parse_tool_call(text)
        if not isinstance(parsed, ParseError):
            return parsed
        error = parsed
        messages += [{"role": "assistant", "content": text}, {"role": "user", "content": parsed.message}]
    raise ValueError(f"失败了：{error.message}")


ARGS = (ask_for_tool_call,)
FAILS_AT = "max_attempts=5"
