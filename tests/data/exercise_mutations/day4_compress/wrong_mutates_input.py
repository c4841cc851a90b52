"""Wrong: removes the older messages from the caller's list (del) instead of building a new one."""

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
    if not older:
        return list(messages)
    fixed = count_tokens(head + [summary_message("")] + recent)
    room = int(0.6 * (budget - fixed))
    reply = client.complete([{"role": "system", "content": SUMMARY_PROMPT + "\n" + budget_line(room)},
                             {"role": "user", "content": render_transcript(older, previous_summary=previous)}])
    return (messages.__delitem__(slice(len(head), len(messages) - len(recent))), head + [summary_message(reply.content)] + recent)[1]


ARGS = (compress_history,)
