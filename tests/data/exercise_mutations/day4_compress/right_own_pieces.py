"""Correct, written differently: its own head/summary scan and round split, an English prompt that names every kind
of information, and the limit stated in English ("at most N tokens")."""

from handwritten_agent.memory import SUMMARY_HEADING, count_tokens, render_transcript, summary_message

PROMPT = ("Summarize the earlier conversation as bullet points. Keep every fact and number, people's names and places, "
          "the user's preferences, constraints and limits, decisions, and open tasks. Do not invent anything.")


def compress_history(messages, client, budget):
    if count_tokens(messages) <= budget:
        return [dict(m) for m in messages]
    system = [m for m in messages[:next((i for i, m in enumerate(messages) if m["role"] != "system"), len(messages))]]
    earlier = "\n".join(m["content"][len(SUMMARY_HEADING):].split("\n", 1)[-1] for m in system if m["content"].startswith(SUMMARY_HEADING))
    head = [m for m in system if not m["content"].startswith(SUMMARY_HEADING)]
    starts = [i for i, m in enumerate(messages) if i >= len(system) and m["role"] == "user"]
    if len(starts) <= 2:
        return [dict(m) for m in messages]
    cut = starts[-2]
    body = messages[len(system):cut]
    rounds, current = [], []
    for message in body:
        if message["role"] == "user" and current:
            rounds.append(current)
            current = []
        current.append(message)
    rounds.append(current)
    recent = messages[cut:]
    room = int((budget - count_tokens(head + [summary_message("")] + recent)) * 0.6)
    summary = client.complete([
        {"role": "system", "content": f"{PROMPT}\nThe summary must be at most {room} tokens."},
        {"role": "user", "content": render_transcript(rounds, previous_summary=earlier or None)},
    ]).content
    return head + [summary_message(summary)] + recent


ARGS = (compress_history,)
