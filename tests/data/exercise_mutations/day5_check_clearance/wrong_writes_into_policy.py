"""Remembers unknown tools by writing them into the policy (setdefault): the shared policy changes."""

import json

LEVEL_RANK = {"L0": 0, "L1": 1, "L2": 2, "L3": 3}


def check_clearance(call, user, policy):
    try:
        clearance = policy["clearance"].get(user.role) if user is not None else None
        if clearance not in LEVEL_RANK:
            return "deny", None, "没有许可级别"
        level = policy["levels"].setdefault(call.name, None)
        if level not in LEVEL_RANK or level == "L0":
            return "deny", None, "不能使用"
        if LEVEL_RANK[level] > LEVEL_RANK[clearance]:
            return "deny", None, "超出许可级别"
        arguments = json.loads(call.arguments)
        if not isinstance(arguments, dict):
            return "deny", None, "参数不是 JSON 对象"
        targets = max([len(v) for v in arguments.values() if isinstance(v, list)], default=1)
        limit = policy["bulk_limits"].get(call.name)
        if limit is not None and targets > limit:
            return "ask", "L3", "超过批量上限"
        if level == "L3":
            return "ask", "L3", "需要审批人批准"
        if level == "L2":
            return "ask", "L2", "需要发起人确认"
        return "allow", "L1", "只读"
    except Exception:
        return "deny", None, "检查出错"


FAILS_AT = "修改了调用者传进来的参数"
ARGS = (check_clearance,)
