"""Keeps the last summary in a module global and hands it to the model as previous_summary when the input has none: a new conversation (another user) gets the previous conversation's summary."""

from handwritten_agent.memory import budget_line, count_tokens, render_transcript, split_head, split_rounds, summary_message
from handwritten_agent.memory.summary import is_summary_message, summary_text


_LAST = {}  # the last summary written, to roll into the next one


def compress_history(messages, client, budget):
    if count_tokens(messages) <= budget:
        return messages
    head, _ = split_head(messages)
    previous = "\n".join(summary_text(m) for m in head if is_summary_message(m)) or _LAST.get("text")
    head = [m for m in head if not is_summary_message(m)]
    rounds = split_rounds(messages)
    if len(rounds) <= 2:
        return messages
    keep = rounds[-2][:] + rounds[-1][:]
    fixed = count_tokens(head + [summary_message("")] + keep)
    prompt = "摘要时保留：数字、人名、用户喜好、限制条件、决定、待办。\n" + budget_line(round((budget - fixed) * 3 / 5))
    text = client.complete([{"role": "system", "content": prompt},
                            {"role": "user", "content": render_transcript(rounds[:-2], previous)}]).content
    _LAST["text"] = text
    return [*head, summary_message(text), *keep]


FAILS_AT = '另一段对话'
ARGS = (compress_history,)
