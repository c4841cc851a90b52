"""A while loop that drops the oldest round until the rest fits, but when only the head is left and it
still does not fit, nothing changes between turns: the loop never ends (it should raise ContextTooLong)."""

from handwritten_agent.memory import ContextTooLong, count_tokens, split_head, split_rounds


def trim(messages, budget):
    head = split_head(messages)[0]
    rounds = split_rounds(messages)

    def flat(rs):
        return head + [m for r in rs for m in r]

    while count_tokens(flat(rounds)) > budget:
        if len(rounds) == 1:
            need = count_tokens(flat(rounds))
            raise ContextTooLong(f"最新的一轮需要 {need} 个 token，超过预算 {budget}", tokens=need, budget=budget)
        rounds = rounds[1:]  # with no rounds at all this stays [] and the loop spins
    return flat(rounds)


ARGS = (trim,)
FAILS_AT = "秒内没有结束"
