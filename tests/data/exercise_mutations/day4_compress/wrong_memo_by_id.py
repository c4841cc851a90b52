"""Memoises the compression under id(messages): the same list given other contents (or a new list that reuses a freed list's id) gets the old compression back."""

from handwritten_agent.memory import budget_line, count_tokens, render_transcript, split_head, split_rounds, summary_message
from handwritten_agent.memory.summary import is_summary_message, summary_text


_MEMO = {}  # id(messages) -> the compression made for that list


def compress_history(messages, client, budget):
    if count_tokens(messages) <= budget:
        return messages
    if id(messages) in _MEMO:
        return _MEMO[id(messages)]  # already compressed this list
    head, _ = split_head(messages)
    previous = "\n".join(summary_text(m) for m in head if is_summary_message(m)) or None
    head = [m for m in head if not is_summary_message(m)]
    rounds = split_rounds(messages)
    if len(rounds) <= 2:
        return messages
    keep = rounds[-2][:] + rounds[-1][:]
    fixed = count_tokens(head + [summary_message("")] + keep)
    prompt = "摘要时保留：数字、人名、用户喜好、限制条件、决定、待办。\n" + budget_line(round((budget - fixed) * 3 / 5))
    text = client.complete([{"role": "system", "content": prompt},
                            {"role": "user", "content": render_transcript(rounds[:-2], previous)}]).content
    _MEMO[id(messages)] = [*head, summary_message(text), *keep]
    return _MEMO[id(messages)]


FAILS_AT = '同一个列表'
ARGS = (compress_history,)
