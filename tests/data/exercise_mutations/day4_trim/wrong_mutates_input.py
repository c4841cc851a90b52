"""Wrong: deletes the dropped messages from the caller's list (the conversation's history is destroyed)."""

FAILS_AT = '差一点：丢掉最早的一轮（带两个并行调用）'

from handwritten_agent.memory import ContextTooLong, count_tokens, split_head, split_rounds


def trim(messages, budget):
    head = split_head(messages)[0]
    while count_tokens(messages) > budget:
        rounds = split_rounds(messages)
        if len(rounds) <= 1:
            raise ContextTooLong("放不下", tokens=count_tokens(messages), budget=budget)
        del messages[len(head):len(head) + len(rounds[0])]
    return messages


ARGS = (trim,)
