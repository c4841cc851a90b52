"""Wrong: keeps the totals in module-level dicts that no call resets — the second report adds the first's."""

from collections import defaultdict

_calls, _unknown, _costs = defaultdict(int), defaultdict(int), defaultdict(float)


def cost_by_user(lines, prices):
    seen = []
    for line in lines:
        if line.get("event") != "model_call":
            continue
        user = line.get("user_id")
        seen.append(user)
        _calls[user] += 1
        price = prices.get(line.get("model"))
        if price is None or line.get("input_tokens") is None or line.get("output_tokens") is None:
            _unknown[user] += 1
        else:
            _costs[user] += (line["input_tokens"] * price[0] + line["output_tokens"] * price[1]) / 1e6
    return {user: {"calls": _calls[user], "cost": _costs[user] if _calls[user] > _unknown[user] else None,
                   "unknown": _unknown[user]} for user in dict.fromkeys(seen)}


ARGS = (cost_by_user,)
