"""Wrong: drops single messages from the front until it fits, so a tool call can lose its results (or a result its call)."""

from handwritten_agent.memory import ContextTooLong, count_tokens


def trim(messages, max_tokens):
    head = [m for m in messages if m["role"] == "system"][:1]
    body = messages[len(head):]
    while body and count_tokens(head + body) > max_tokens:
        body = body[1:]
    if not body:
        raise ContextTooLong("放不下", tokens=count_tokens(head), max_tokens=max_tokens)
    return head + body


ARGS = (trim,)
