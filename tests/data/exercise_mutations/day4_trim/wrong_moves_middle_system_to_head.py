"""Takes every system message as part of the head, wherever it stands: a system message from the
middle of the conversation is moved to the front (and kept even when its round is dropped)."""

from handwritten_agent.memory import ContextTooLong, count_tokens


def trim(messages, budget):
    head = [m for m in messages if m["role"] == "system"]
    rest = [m for m in messages if m["role"] != "system"]
    rounds = []
    for m in rest:
        if m["role"] == "user" or not rounds:
            rounds.append([])
        rounds[-1].append(m)

    def flat(rs):
        return head + [m for r in rs for m in r]

    while rounds and count_tokens(flat(rounds)) > budget:
        if len(rounds) == 1:
            need = count_tokens(flat(rounds))
            raise ContextTooLong(f"最新的一轮需要 {need} 个 token", tokens=need, budget=budget)
        rounds = rounds[1:]
    if not rounds and count_tokens(head) > budget:
        raise ContextTooLong("连 system 消息都放不下", tokens=count_tokens(head), budget=budget)
    return flat(rounds)


FAILS_AT = "中间的 system"
ARGS = (trim,)
