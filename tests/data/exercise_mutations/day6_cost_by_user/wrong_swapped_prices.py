"""Multiplies input tokens by the output price and output tokens by the input price."""

FAILS_AT = '两个用户，按用户分别汇总'


def cost_by_user(lines, prices):
    report = {}
    for line in lines:
        if line.get("event") != "model_call":
            continue
        entry = report.setdefault(line.get("user_id"), {"calls": 0, "cost": None, "unknown": 0})
        entry["calls"] += 1
        price = prices.get(line.get("model"))
        if price is None or line.get("input_tokens") is None or line.get("output_tokens") is None:
            entry["unknown"] += 1
            continue
        amount = (line["input_tokens"] * price[1] + line["output_tokens"] * price[0]) / 1_000_000
        entry["cost"] = amount if entry["cost"] is None else entry["cost"] + amount
    return report


ARGS = (cost_by_user,)
