"""Wrong: drops single messages from the front until it fits, so a tool call can lose its results (or a result its call)."""

FAILS_AT = '差一点：丢掉最早的一轮（带两个并行调用）'

from handwritten_agent.memory import ContextTooLong, count_tokens


def trim(messages, budget):
    head = [m for m in messages if m["role"] == "system"][:1]
    body = messages[len(head):]
    while body and count_tokens(head + body) > budget:
        body = body[1:]
    if not body:
        raise ContextTooLong("放不下", tokens=count_tokens(head), budget=budget)
    return head + body


ARGS = (trim,)
