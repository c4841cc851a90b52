"""Correct, in another style: a while loop with a counter, a new list each round, and the message as an f-string."""

from handwritten_agent.parsing import ParseError, parse_tool_call


def ask_for_tool_call(client, messages, max_attempts=3):
    history = [*messages]
    attempt = 0
    last_error = ""
    while attempt < max_attempts:
        attempt += 1
        reply = client.complete(history)
        raw = reply.content if reply.content is not None else ""
        result = parse_tool_call(raw)
        if result is None or not isinstance(result, ParseError):
            return result
        last_error = result.message
        history = history + [{"role": "assistant", "content": raw}, {"role": "user", "content": last_error}]
    raise ValueError(f"尝试了 {attempt} 次都没有得到能解析的工具调用。最后一次的问题：{last_error}")


ARGS = (ask_for_tool_call,)
