"""Correct, another style: the head found with ``itertools.takewhile``, the earlier summary picked
out of it by its heading, and the room computed in integers (× 6 // 10)."""

import itertools

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
    start = list(itertools.takewhile(lambda m: m["role"] == "system", messages))
    summaries = [m for m in start if m["content"].startswith(SUMMARY_HEADING)]
    head = [m for m in start if m not in summaries]
    rounds = split_rounds(messages)
    if len(rounds) <= 2:
        return list(messages)
    recent = [m for round_ in rounds[-2:] for m in round_]
    room = (budget - count_tokens([*head, summary_message(""), *recent])) * 6 // 10
    reply = client.complete([
        {"role": "system", "content": f"{SUMMARY_PROMPT}\n{budget_line(room)}"},
        {"role": "user", "content": render_transcript(rounds[:-2], previous_summary=summary_text(summaries[-1]) if summaries else None)},
    ])
    return [*head, summary_message(reply.content), *recent]


ARGS = (compress_history,)
