"""Asks again with the very same messages: the model is never told what was wrong."""

from handwritten_agent.parsing import ParseError, parse_tool_call


def ask_for_tool_call(client, messages, max_attempts=3):
    error = None
    for _ in range(max_attempts):
        parsed = parse_tool_call(client.complete(messages).content or "")
        if not isinstance(parsed, ParseError):
            return parsed
        error = parsed
    raise ValueError(error.message)


ARGS = (ask_for_tool_call,)
FAILS_AT = "第一次回复被截断"
