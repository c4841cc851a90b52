"""Skips calls it cannot price altogether: they are in neither calls nor unknown."""

FAILS_AT = '没有报告用量的调用单独计数，不算 0'


def cost_by_user(lines, prices):
    report = {}
    for line in lines:
        if line.get("event") != "model_call":
            continue
        price = prices.get(line.get("model"))
        if price is None or line.get("input_tokens") is None or line.get("output_tokens") is None:
            continue
        entry = report.setdefault(line.get("user_id"), {"calls": 0, "cost": None, "unknown": 0})
        entry["calls"] += 1
        amount = (line["input_tokens"] * price[0] + line["output_tokens"] * price[1]) / 1_000_000
        entry["cost"] = amount if entry["cost"] is None else entry["cost"] + amount
    return report


ARGS = (cost_by_user,)
