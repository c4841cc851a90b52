"""Finds a model's price by prefix (`model.startswith(name)`), so "m1-mini" is priced as m1: a model
not in the table must be unknown, however close its name."""


def cost_by_user(lines, prices):
    report = {}
    for line in lines:
        if line.get("event") != "model_call":
            continue
        row = report.setdefault(line.get("user_id"), {"calls": 0, "cost": None, "unknown": 0})
        row["calls"] += 1
        model = str(line.get("model"))
        price = next((p for name, p in prices.items() if model.startswith(name)), None)
        tokens = (line.get("input_tokens"), line.get("output_tokens"))
        if price is None or None in tokens:
            row["unknown"] += 1
        else:
            row["cost"] = (row["cost"] or 0) + (tokens[0] * price[0] + tokens[1] * price[1]) / 1e6
    return report


FAILS_AT = "模型名只差一点"
ARGS = (cost_by_user,)
