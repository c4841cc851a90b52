"""After the last attempt raises its own ``GaveUp`` error derived from ``BaseException``, not the
``ValueError`` the task names: a caller's ``except Exception`` cannot catch it."""

from handwritten_agent.parsing import ParseError, parse_tool_call


class GaveUp(BaseException):
    pass


def ask_for_tool_call(client, messages, max_attempts=3):
    messages = list(messages)
    error = None
    for _ in range(max_attempts):
        text = client.complete(messages).content or ""
        parsed = parse_tool_call(text)
        if not isinstance(parsed, ParseError):
            return parsed
        error = parsed
        messages += [{"role": "assistant", "content": text}, {"role": "user", "content": error.message}]
    raise GaveUp(f"问了 {max_attempts} 次，仍然无法解析：{error.message}")


ARGS = (ask_for_tool_call,)
