"""Starts every user's cost at 0.0, so a user whose calls are all unpriced shows 0 instead of None."""

FAILS_AT = '价格表里没有的模型也是未知'


def cost_by_user(lines, prices):
    report = {}
    for line in lines:
        if line.get("event") != "model_call":
            continue
        entry = report.setdefault(line.get("user_id"), {"calls": 0, "cost": 0.0, "unknown": 0})
        entry["calls"] += 1
        price = prices.get(line.get("model"))
        if price is None or line.get("input_tokens") is None or line.get("output_tokens") is None:
            entry["unknown"] += 1
            continue
        entry["cost"] += (line["input_tokens"] * price[0] + line["output_tokens"] * price[1]) / 1_000_000
    return report


ARGS = (cost_by_user,)
