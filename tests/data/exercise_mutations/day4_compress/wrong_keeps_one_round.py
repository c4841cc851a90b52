"""Wrong: keeps only the last round, not the last two."""

from handwritten_agent.memory import (SUMMARY_HEADING, SUMMARY_PROMPT, budget_line, count_tokens, render_transcript, split_rounds,
                                      summary_message, summary_text)

FAILS_AT = "超出预算"


def compress_history(messages, client, budget):
    if count_tokens(messages) <= budget:
        return list(messages)
    head, previous = [], None
    for message in messages:
        if message["role"] != "system":
            break
        if message["content"].startswith(SUMMARY_HEADING):
            previous = summary_text(message)
        else:
            head.append(message)
    rounds = split_rounds(messages)
    older, recent = rounds[:-2], [m for r in rounds[-2:] for m in r]
    older, recent = rounds[:-1], rounds[-1]
    if not older:
        return list(messages)
    fixed = count_tokens(head + [summary_message("")] + recent)
    room = int(0.6 * (budget - fixed))
    reply = client.complete([{"role": "system", "content": SUMMARY_PROMPT + "\n" + budget_line(room)},
                             {"role": "user", "content": render_transcript(older, previous_summary=previous)}])
    return head + [summary_message(reply.content)] + recent


ARGS = (compress_history,)
