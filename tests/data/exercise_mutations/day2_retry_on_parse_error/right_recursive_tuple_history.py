"""Correct, in another style: recursion on the number of tries left, the conversation as a tuple
(never the caller's list), the raw reply appended exactly as it came."""

from handwritten_agent.parsing import ParseError, parse_tool_call


def ask_for_tool_call(client, messages, max_attempts=3, _last=None):
    if max_attempts <= 0:
        raise ValueError(f"模型的回复一直无法解析，最后一次的问题是：{_last}")
    history = tuple(messages)
    raw = client.complete(list(history)).content
    raw = "" if raw is None else raw
    parsed = parse_tool_call(raw)
    if isinstance(parsed, ParseError):
        retry = history + (
            {"role": "assistant", "content": raw},
            {"role": "user", "content": parsed.message},
        )
        return ask_for_tool_call(client, retry, max_attempts - 1, parsed.message)
    return parsed


ARGS = (ask_for_tool_call,)
