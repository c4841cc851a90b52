"""Treats tokens that were not reported as 0 tokens: the call is counted as known and free."""

FAILS_AT = '没有报告用量的调用单独计数，不算 0'


def cost_by_user(lines, prices):
    report = {}
    for line in lines:
        if line.get("event") != "model_call":
            continue
        entry = report.setdefault(line.get("user_id"), {"calls": 0, "cost": None, "unknown": 0})
        entry["calls"] += 1
        price = prices.get(line.get("model"))
        if price is None:
            entry["unknown"] += 1
            continue
        amount = ((line.get("input_tokens") or 0) * price[0] + (line.get("output_tokens") or 0) * price[1]) / 1_000_000
        entry["cost"] = amount if entry["cost"] is None else entry["cost"] + amount
    return report


ARGS = (cost_by_user,)
