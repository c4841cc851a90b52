"""Adds every line that has tokens, so run_end totals are counted a second time."""

FAILS_AT = 'run_end 和 tool_result 行不算'


def cost_by_user(lines, prices):
    report = {}
    for line in lines:
        if "input_tokens" not in line:
            continue
        entry = report.setdefault(line.get("user_id"), {"calls": 0, "cost": None, "unknown": 0})
        entry["calls"] += 1
        price = prices.get(line.get("model"))
        if price is None or line.get("input_tokens") is None or line.get("output_tokens") is None:
            entry["unknown"] += 1
            continue
        amount = (line["input_tokens"] * price[0] + line["output_tokens"] * price[1]) / 1_000_000
        entry["cost"] = amount if entry["cost"] is None else entry["cost"] + amount
    return report


ARGS = (cost_by_user,)
