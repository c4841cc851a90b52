"""Wrong: memoises the window on (id(messages), budget) — the same list given other messages (or a new
list that reuses a freed list's id) gets the old window back."""

from handwritten_agent.memory import ContextTooLong, count_tokens, split_head, split_rounds

_memo = {}


def trim(messages, budget):
    key = (id(messages), budget)
    if key in _memo:
        return _memo[key]
    head = split_head(messages)[0]
    rounds = split_rounds(messages)

    def flat(rs):
        return head + [m for r in rs for m in r]

    while rounds and count_tokens(flat(rounds)) > budget:
        if len(rounds) == 1:
            raise ContextTooLong(f"最新的一轮需要 {count_tokens(flat(rounds))} 个 token", tokens=count_tokens(flat(rounds)),
                                 budget=budget)
        rounds = rounds[1:]
    if not rounds and count_tokens(head) > budget:
        raise ContextTooLong("连 system 消息都放不下", tokens=count_tokens(head), budget=budget)
    _memo[key] = flat(rounds)
    return _memo[key]


ARGS = (trim,)
FAILS_AT = "同一个列表换了内容"
