"""Correct, another style: ``for … else``, and the history for each attempt built as a new list
(the caller's messages plus the failed tries so far)."""

from handwritten_agent.parsing import ParseError, parse_tool_call


def ask_for_tool_call(client, messages, max_attempts=3):
    tries = []
    for attempt in range(max_attempts):
        reply = client.complete([*messages, *tries])
        text = reply.content or ""
        outcome = parse_tool_call(text)
        if not isinstance(outcome, ParseError):
            return outcome
        tries = tries + [{"role": "assistant", "content": text}, {"role": "user", "content": outcome.message}]
    else:
        raise ValueError(f"试了 {max_attempts} 次都解析不了，最后一次的问题：{outcome.message}")


ARGS = (ask_for_tool_call,)
