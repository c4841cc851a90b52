"""Rounds each call's cost to 6 decimals (the notebook shows 0.0036): a call of one token costs 0, and every figure is off."""

FAILS_AT = "不四舍五入"


def cost_by_user(lines, prices):
    report = {}
    for line in lines:
        if line.get("event") != "model_call":
            continue
        entry = report.setdefault(line.get("user_id"), {"calls": 0, "cost": None, "unknown": 0})
        entry["calls"] += 1
        price = prices.get(line.get("model"))
        tokens_in, tokens_out = line.get("input_tokens"), line.get("output_tokens")
        if price is None or tokens_in is None or tokens_out is None:
            entry["unknown"] += 1
            continue
        amount = round((tokens_in * price[0] + tokens_out * price[1]) / 1_000_000, 6)
        entry["cost"] = amount if entry["cost"] is None else entry["cost"] + amount
    return report


ARGS = (cost_by_user,)

