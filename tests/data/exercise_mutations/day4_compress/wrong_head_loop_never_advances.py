"""Finds the leading system messages with a while loop that `continue`s past the earlier summary
without moving on: the first input that holds a summary (the second compression) loops forever
(the check must stop it and say so)."""

from handwritten_agent.memory import budget_line, count_tokens, render_transcript, split_rounds, summary_message
from handwritten_agent.memory.summary import SUMMARY_HEADING, SUMMARY_PROMPT, summary_text


def compress_history(messages, client, budget):
    if count_tokens(messages) <= budget:
        return list(messages)
    head, previous, i = [], None, 0
    while i < len(messages) and messages[i]["role"] == "system":
        if messages[i]["content"].startswith(SUMMARY_HEADING):
            previous = summary_text(messages[i])
            continue  # forgot i += 1
        head.append(messages[i])
        i += 1
    rounds = split_rounds(messages)
    if len(rounds) <= 2:
        return list(messages)
    recent = [m for r in rounds[-2:] for m in r]
    room = int(0.6 * (budget - count_tokens(head + [summary_message("")] + recent)))
    reply = client.complete([
        {"role": "system", "content": SUMMARY_PROMPT + "\n" + budget_line(room)},
        {"role": "user", "content": render_transcript(rounds[:-2], previous_summary=previous)},
    ])
    return head + [summary_message(reply.content)] + recent


FAILS_AT = "秒内没有结束"
ARGS = (compress_history,)
