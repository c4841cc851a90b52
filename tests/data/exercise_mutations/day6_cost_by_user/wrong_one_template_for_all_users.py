"""Builds the report with dict.fromkeys(users, {...}): every user shares one entry dict, so all
users get the sum of everyone's calls."""


def cost_by_user(lines, prices):
    calls = [line for line in lines if line.get("event") == "model_call"]
    report = dict.fromkeys([line.get("user_id") for line in calls], {"calls": 0, "cost": None, "unknown": 0})
    for line in calls:
        entry = report[line.get("user_id")]
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
