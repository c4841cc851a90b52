"""Keeps one report dict at module level and clears it at the start of each call: every call is
right, but the dict returned earlier changes under the caller when cost_by_user runs again."""

REPORT = {}


def cost_by_user(lines, prices):
    REPORT.clear()
    for line in lines:
        if line.get("event") != "model_call":
            continue
        entry = REPORT.setdefault(line.get("user_id"), {"calls": 0, "cost": None, "unknown": 0})
        entry["calls"] += 1
        price = prices.get(line.get("model"))
        tokens_in, tokens_out = line.get("input_tokens"), line.get("output_tokens")
        if price is None or tokens_in is None or tokens_out is None:
            entry["unknown"] += 1
            continue
        amount = (tokens_in * price[0] + tokens_out * price[1]) / 1_000_000
        entry["cost"] = amount if entry["cost"] is None else entry["cost"] + amount
    return REPORT


ARGS = (cost_by_user,)
