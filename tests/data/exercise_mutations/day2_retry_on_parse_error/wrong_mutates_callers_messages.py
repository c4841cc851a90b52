"""Right retries, but appends to the caller's own list, which keeps the broken replies afterwards."""

from handwritten_agent.parsing import ParseError, parse_tool_call


def ask_for_tool_call(client, messages, max_attempts=3):
    error = None
    for _ in range(max_attempts):
        text = client.complete(messages).content or ""
        parsed = parse_tool_call(text)
        if not isinstance(parsed, ParseError):
            return parsed
        error = parsed
        messages.append({"role": "assistant", "content": text})
        messages.append({"role": "user", "content": parsed.message})
    raise ValueError(error.message)


ARGS = (ask_for_tool_call,)
FAILS_AT = "第一次回复被截断"
