"""Gives up correctly, but reports the first error instead of the last one."""

from handwritten_agent.parsing import ParseError, parse_tool_call


def ask_for_tool_call(client, messages, max_attempts=3):
    messages = list(messages)
    errors = []
    for _ in range(max_attempts):
        text = client.complete(messages).content or ""
        parsed = parse_tool_call(text)
        if not isinstance(parsed, ParseError):
            return parsed
        errors.append(parsed.message)
        messages += [{"role": "assistant", "content": text}, {"role": "user", "content": parsed.message}]
    raise ValueError(f"重试 {max_attempts} 次仍然失败：{errors[0]}")


ARGS = (ask_for_tool_call,)
FAILS_AT = "问 3 次后抛出"
