"""Correct, another style: binary search for the fewest whole rounds to drop (dropping more never
makes the conversation longer)."""

from handwritten_agent.memory import ContextTooLong, count_tokens, split_rounds


def trim(messages, budget):
    head = []
    for message in messages:
        if message["role"] != "system":
            break
        head.append(message)
    rounds = split_rounds(messages)

    def kept(drop):
        return head + [m for round_ in rounds[drop:] for m in round_]

    if not rounds:
        if count_tokens(head) <= budget:
            return list(head)
        raise ContextTooLong(f"只有 system 消息就需要 {count_tokens(head)} 个 token，超过了预算 {budget}。",
                             tokens=count_tokens(head), budget=budget)
    low, high = 0, len(rounds) - 1
    if count_tokens(kept(high)) > budget:
        needed = count_tokens(kept(high))
        raise ContextTooLong(f"system 消息加最新的一轮需要 {needed} 个 token，超过了预算 {budget}。",
                             tokens=needed, budget=budget)
    while low < high:
        middle = (low + high) // 2
        if count_tokens(kept(middle)) <= budget:
            high = middle
        else:
            low = middle + 1
    return kept(low)


ARGS = (trim,)
