"""Keeps the appended failures in a module-global list that is never cleared: the next call starts
with the previous conversation's broken replies and error texts."""

from handwritten_agent.parsing import ParseError, parse_tool_call

_failures = []


def ask_for_tool_call(client, messages, max_attempts=3):
    error = None
    for _ in range(max_attempts):
        text = client.complete(list(messages) + _failures).content or ""
        parsed = parse_tool_call(text)
        if not isinstance(parsed, ParseError):
            return parsed
        error = parsed
        _failures.extend(
            [{"role": "assistant", "content": text}, {"role": "user", "content": error.message}]
        )
    raise ValueError(f"问了 {max_attempts} 次仍然无法解析：{error.message}")


FAILS_AT = "原文整段追加"
ARGS = (ask_for_tool_call,)
