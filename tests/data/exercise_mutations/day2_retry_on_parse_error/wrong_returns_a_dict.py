"""Returns the call as a dict {"name", "arguments"} instead of the ToolCall parse_tool_call gave."""

from handwritten_agent.parsing import ParseError, parse_tool_call


def ask_for_tool_call(client, messages, max_attempts=3):
    messages = list(messages)
    error = None
    for _ in range(max_attempts):
        text = client.complete(messages).content or ""
        parsed = parse_tool_call(text)
        if parsed is None:
            return None
        if not isinstance(parsed, ParseError):
            return {"name": parsed.name, "arguments": parsed.args}
        error = parsed
        messages += [{"role": "assistant", "content": text}, {"role": "user", "content": parsed.message}]
    raise ValueError(error.message)


ARGS = (ask_for_tool_call,)
FAILS_AT = "第一次回复被截断"
