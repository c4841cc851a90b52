"""Calls ``sys.exit`` when the arguments are not JSON ("this should never happen") instead of
answering deny: the task says anything unexpected is a deny."""

import json
import sys

LEVEL_RANK = {"L0": 0, "L1": 1, "L2": 2, "L3": 3}


def check_clearance(call, user, policy):
    clearance = policy["clearance"].get(user.role) if user is not None else None
    if clearance not in LEVEL_RANK:
        return "deny", None, "没有许可级别：这个角色不能调用任何工具"
    level = policy["levels"].get(call.name)
    if level not in LEVEL_RANK or level == "L0":
        return "deny", None, f"{call.name} 不能使用"
    if LEVEL_RANK[level] > LEVEL_RANK[clearance]:
        return "deny", None, f"{call.name} 是 {level}，超出了{user.role}的许可级别 {clearance}"
    try:
        arguments = json.loads(call.arguments)
    except ValueError:
        sys.exit("参数不是 JSON")
    if not isinstance(arguments, dict):
        return "deny", None, "参数不是一个 JSON 对象"
    targets = max([len(v) for v in arguments.values() if isinstance(v, list)], default=1)
    limit = policy["bulk_limits"].get(call.name)
    if limit is not None and targets > limit:
        return "ask", "L3", f"一次涉及 {targets} 个对象，超过上限 {limit}：需要审批人批准"
    if level == "L3":
        return "ask", "L3", "L3：需要审批人批准"
    if level == "L2":
        return "ask", "L2", "L2：需要发起人确认"
    return "allow", "L1", "L1：直接执行"


ARGS = (check_clearance,)
