"""Finds the earlier summary with `SUMMARY_HEADING in content` instead of startswith: a head system
message that only mentions the heading is taken for a summary and dropped from the head."""

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


def compress_history(messages, client, budget):
    if count_tokens(messages) <= budget:
        return list(messages)
    head, previous = [], None
    for message in messages:
        if message["role"] != "system":
            break
        if SUMMARY_HEADING in message["content"]:
            previous = summary_text(message)
        else:
            head.append(message)
    rounds = split_rounds(messages)
    older, recent = rounds[:-2], [m for round_ in rounds[-2:] for m in round_]
    if not older:
        return list(messages)
    fixed = count_tokens(head + [summary_message("")] + recent)
    room = int(0.6 * (budget - fixed))
    reply = client.complete(
        [
            {"role": "system", "content": SUMMARY_PROMPT + "\n" + budget_line(room)},
            {"role": "user", "content": render_transcript(older, previous_summary=previous)},
        ]
    )
    return head + [summary_message(reply.content or "")] + recent


FAILS_AT = "提到了摘要的标题"
ARGS = (compress_history,)
