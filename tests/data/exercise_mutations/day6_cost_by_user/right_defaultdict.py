"""Correct, another way: collect each user's known costs in a list first, then sum (None when the list is empty)."""

from collections import defaultdict


def cost_by_user(lines, prices):
    calls, unknown, costs = defaultdict(int), defaultdict(int), defaultdict(list)
    for line in (l for l in lines if l.get("event") == "model_call"):
        user = line.get("user_id")
        calls[user] += 1
        price = prices.get(line.get("model"))
        tokens = (line.get("input_tokens"), line.get("output_tokens"))
        if price is None or None in tokens:
            unknown[user] += 1
        else:
            costs[user].append((tokens[0] * price[0] + tokens[1] * price[1]) / 1e6)
    return {user: {"calls": calls[user], "cost": sum(costs[user]) if costs[user] else None, "unknown": unknown[user]}
            for user in calls}


ARGS = (cost_by_user,)
