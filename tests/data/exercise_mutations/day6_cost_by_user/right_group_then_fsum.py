"""Correct, another style: first groups the model calls by user, then sums each user's known costs
with ``math.fsum``."""

import math


def cost_by_user(lines, prices):
    calls = {}
    for line in lines:
        if line.get("event") == "model_call":
            calls.setdefault(line.get("user_id"), []).append(line)
    report = {}
    for user, own in calls.items():
        known = []
        for line in own:
            price = prices.get(line.get("model"))
            if price is not None and line.get("input_tokens") is not None and line.get("output_tokens") is not None:
                known.append((line["input_tokens"] * price[0] + line["output_tokens"] * price[1]) / 1_000_000)
        report[user] = {"calls": len(own), "cost": math.fsum(known) if known else None, "unknown": len(own) - len(known)}
    return report


ARGS = (cost_by_user,)
