"""Walks the lines with an index and `continue`s past a line that is not a model call without moving
the index on: the first run_start or tool line loops forever (the check must stop it and say so)."""


def cost_by_user(lines, prices):
    report = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.get("event") != "model_call":
            continue  # forgot i += 1 here
        user = line.get("user_id")
        row = report.setdefault(user, {"calls": 0, "cost": None, "unknown": 0})
        row["calls"] += 1
        price = prices.get(line.get("model"))
        tokens = (line.get("input_tokens"), line.get("output_tokens"))
        if price is None or None in tokens:
            row["unknown"] += 1
        else:
            row["cost"] = (row["cost"] or 0) + (tokens[0] * price[0] + tokens[1] * price[1]) / 1e6
        i += 1
    return report


FAILS_AT = "秒内没有结束"
ARGS = (cost_by_user,)
