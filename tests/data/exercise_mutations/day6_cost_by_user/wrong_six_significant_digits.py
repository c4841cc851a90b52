"""Keeps six significant digits through a format string (f"{x:.6g}"), which looks precise but changes the figure."""




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
        amount = float(f"{(tokens_in * price[0] + tokens_out * price[1]) / 1_000_000:.6g}")
        entry["cost"] = amount if entry["cost"] is None else entry["cost"] + amount
    return report


ARGS = (cost_by_user,)

