"""Retries until it works: a model that always writes broken JSON keeps it asking forever."""

from handwritten_agent.parsing import ParseError, parse_tool_call


def ask_for_tool_call(client, messages, max_attempts=3):
    messages = list(messages)
    while True:
        text = client.complete(messages).content or ""
        parsed = parse_tool_call(text)
        if not isinstance(parsed, ParseError):
            return parsed
        messages += [{"role": "assistant", "content": text}, {"role": "user", "content": parsed.message}]


ARGS = (ask_for_tool_call,)
FAILS_AT = "问 3 次后抛出"
