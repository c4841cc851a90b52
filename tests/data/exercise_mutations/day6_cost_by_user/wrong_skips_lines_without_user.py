"""Skips model_call lines whose user_id is missing or empty ("if not user: continue"): an
anonymous caller's spending disappears from the report instead of being listed under its id."""


def cost_by_user(lines, prices):
    report = {}
    for line in lines:
        user = line.get("user_id")
        if line.get("event") != "model_call" or not user:
            continue
        entry = report.setdefault(user, {"calls": 0, "cost": None, "unknown": 0})
        entry["calls"] += 1
        price = prices.get(line.get("model"))
        tokens_in, tokens_out = line.get("input_tokens"), line.get("output_tokens")
        if price is None or tokens_in is None or tokens_out is None:
            entry["unknown"] += 1
            continue
        amount = (tokens_in * price[0] + tokens_out * price[1]) / 1_000_000
        entry["cost"] = amount if entry["cost"] is None else entry["cost"] + amount
    return report


ARGS = (cost_by_user,)
