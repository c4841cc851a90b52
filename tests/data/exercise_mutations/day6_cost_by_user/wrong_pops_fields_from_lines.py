"""Takes the fields out of the caller's lines with pop() (to "consume" them): the trace lines the
caller passed in lose their user_id and tokens."""


def cost_by_user(lines, prices):
    report = {}
    for line in lines:
        if line.get("event") != "model_call":
            continue
        entry = report.setdefault(line.pop("user_id", None), {"calls": 0, "cost": None, "unknown": 0})
        entry["calls"] += 1
        price = prices.get(line.get("model"))
        tokens_in, tokens_out = line.pop("input_tokens", None), line.pop("output_tokens", None)
        if price is None or tokens_in is None or tokens_out is None:
            entry["unknown"] += 1
            continue
        amount = (tokens_in * price[0] + tokens_out * price[1]) / 1_000_000
        entry["cost"] = amount if entry["cost"] is None else entry["cost"] + amount
    return report


ARGS = (cost_by_user,)
