"""Starts every cost at 0.0 and turns 0 into None at the end (cost or None): a user who really spent 0 shows as unknown."""


def cost_by_user(lines, prices):
    report = {}
    for line in lines:
        if line.get("event") != "model_call":
            continue
        entry = report.setdefault(line.get("user_id"), {"calls": 0, "cost": 0.0, "unknown": 0})
        entry["calls"] += 1
        price, tokens_in, tokens_out = prices.get(line.get("model")), line.get("input_tokens"), line.get("output_tokens")
        if price is None or tokens_in is None or tokens_out is None:
            entry["unknown"] += 1
            continue
        entry["cost"] += (tokens_in * price[0] + tokens_out * price[1]) / 1_000_000
    for entry in report.values():
        entry["cost"] = entry["cost"] or None
    return report


ARGS = (cost_by_user,)
FAILS_AT = "报告的 0"
