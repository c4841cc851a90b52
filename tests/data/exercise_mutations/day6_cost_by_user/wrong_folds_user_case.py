"""Wrong: normalises user ids (NFKC and lower-case), so u1, U1 and ｕ１ — three users — are merged into one."""

import unicodedata


def cost_by_user(lines, prices):
    report = {}
    for line in lines:
        if line.get("event") != "model_call":
            continue
        user = unicodedata.normalize("NFKC", str(line.get("user_id"))).lower()
        row = report.setdefault(user, {"calls": 0, "cost": None, "unknown": 0})
        row["calls"] += 1
        price = prices.get(line.get("model"))
        if price is None or line.get("input_tokens") is None or line.get("output_tokens") is None:
            row["unknown"] += 1
        else:
            row["cost"] = (row["cost"] or 0.0) + (line["input_tokens"] * price[0] + line["output_tokens"] * price[1]) / 1e6
    return report


ARGS = (cost_by_user,)
FAILS_AT = "中文用户名"
