"""Strips the broken reply before appending it: the 原文 has its blank lines removed."""

from handwritten_agent.parsing import ParseError, parse_tool_call


def ask_for_tool_call(client, messages, max_attempts=3):
    messages = list(messages)
    error = None
    for _ in range(max_attempts):
        text = client.complete(messages).content or ""
        parsed = parse_tool_call(text)
        if not isinstance(parsed, ParseError):
            return parsed
        error = parsed
        messages += [{"role": "assistant", "content": text.strip()}, {"role": "user", "content": error.message}]
    raise ValueError(f"问了 {max_attempts} 次仍然无法解析：{error.message}")


FAILS_AT = "原文整段追加"
ARGS = (ask_for_tool_call,)
