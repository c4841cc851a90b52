"""Asks once and gives up on the first parse error."""

from handwritten_agent.parsing import ParseError, parse_tool_call


def ask_for_tool_call(client, messages, max_attempts=3):
    parsed = parse_tool_call(client.complete(messages).content or "")
    if isinstance(parsed, ParseError):
        raise ValueError(parsed.message)
    return parsed


ARGS = (ask_for_tool_call,)
FAILS_AT = "第一次回复被截断"
