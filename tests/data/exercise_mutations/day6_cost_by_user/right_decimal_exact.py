"""Correct, another way: Decimal arithmetic on the prices' exact decimal forms, a float only at the end."""

from decimal import Decimal

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
        amount = float((Decimal(tokens_in) * Decimal(price[0]) + Decimal(tokens_out) * Decimal(price[1])) / Decimal(1_000_000))
        entry["cost"] = amount if entry["cost"] is None else entry["cost"] + amount
    return report


ARGS = (cost_by_user,)

