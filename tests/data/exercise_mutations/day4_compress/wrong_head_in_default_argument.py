"""Collects the system messages in a default argument list (``head=[]``): made once, so every later
compression carries the earlier conversations' system messages too (a shared mutable default)."""

from handwritten_agent.memory import (
    SUMMARY_HEADING,
    SUMMARY_PROMPT,
    budget_line,
    count_tokens,
    render_transcript,
    split_rounds,
    summary_message,
)
from handwritten_agent.memory.summary import summary_text


def compress_history(messages, client, budget, head=[]):
    if count_tokens(messages) <= budget:
        return list(messages)
    previous = None
    for message in messages:
        if message["role"] != "system":
            break
        if message["content"].startswith(SUMMARY_HEADING):
            previous = summary_text(message)
        elif message not in head:
            head.append(message)
    rounds = split_rounds(messages)
    older, recent = rounds[:-2], [m for round_ in rounds[-2:] for m in round_]
    if not older:
        return list(messages)
    fixed = count_tokens(head + [summary_message("")] + recent)
    room = int(0.6 * (budget - fixed))
    reply = client.complete([
        {"role": "system", "content": SUMMARY_PROMPT + "\n" + budget_line(room)},
        {"role": "user", "content": render_transcript(older, previous_summary=previous)},
    ])
    return head + [summary_message(reply.content)] + recent


ARGS = (compress_history,)
