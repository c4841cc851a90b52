"""Wrong: keeps the last six messages, whatever they are (the tutorial's cut by count): a tool result loses its call."""

from handwritten_agent.memory import SUMMARY_PROMPT, budget_line, count_tokens, summary_message

FAILS_AT = "超出预算"


def compress_history(messages, client, budget):
    if count_tokens(messages) <= budget:
        return list(messages)
    system = [m for m in messages if m["role"] == "system"]
    recent = messages[-6:]
    older = [m for m in messages[len(system):-6]]
    text = "\n".join(f"{m['role']}：{m.get('content') or ''}" for m in older)
    room = int(0.6 * (budget - count_tokens(system + [summary_message("")] + recent)))
    reply = client.complete([{"role": "system", "content": SUMMARY_PROMPT + "\n" + budget_line(room)},
                             {"role": "user", "content": text}])
    return system + [summary_message(reply.content)] + recent


ARGS = (compress_history,)
