"""Looks the price up under the model name lower-cased and width-folded (NFKC): "M1" and "ｍ１" are
priced as m1, though the table has no such model."""

import unicodedata


def cost_by_user(lines, prices):
    table = {unicodedata.normalize("NFKC", name).lower(): price for name, price in prices.items()}
    report = {}
    for line in lines:
        if line.get("event") != "model_call":
            continue
        row = report.setdefault(line.get("user_id"), {"calls": 0, "cost": None, "unknown": 0})
        row["calls"] += 1
        price = table.get(unicodedata.normalize("NFKC", str(line.get("model"))).lower())
        tokens = (line.get("input_tokens"), line.get("output_tokens"))
        if price is None or None in tokens:
            row["unknown"] += 1
        else:
            row["cost"] = (row["cost"] or 0) + (tokens[0] * price[0] + tokens[1] * price[1]) / 1e6
    return report


FAILS_AT = "模型名只差一点"
ARGS = (cost_by_user,)
