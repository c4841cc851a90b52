"""Reads a missing bulk limit as 0 (bulk_limits.get(name, 0)): every tool without a limit is sent up to L3."""

import json
import re
from handwritten_agent.course.exercises.check.day5 import OFFICE_CLEARANCE_POLICY
from handwritten_agent.messages import ToolCall
from handwritten_agent.permissions import Level, User, approve, reject

LEVEL_RANK = {"L0": 0, "L1": 1, "L2": 2, "L3": 3}


def check_clearance(call, user, policy) -> tuple:
    '''按权限等级依次判断 deny → ask → allow；任何意外情况都按 deny 处理。返回 (effect, level, reason)。'''
    try:
        clearance = policy["clearance"].get(user.role) if user is not None else None
        if clearance not in LEVEL_RANK:
            return "deny", None, "没有许可级别：这个角色不能调用任何工具"
        level = policy["levels"].get(call.name)
        if level not in LEVEL_RANK or level == "L0":
            return "deny", None, f"{call.name} 不能使用（没有这个工具、它是 L0，或者级别写错了）"
        if LEVEL_RANK[level] > LEVEL_RANK[clearance]:
            return "deny", None, f"{call.name} 是 {level}，超出了{user.role}的许可级别 {clearance}"
        arguments = json.loads(call.arguments)
        if not isinstance(arguments, dict):
            return "deny", None, "参数不是一个 JSON 对象"
        targets = max([len(value) for value in arguments.values() if isinstance(value, list)], default=1)
        limit = policy["bulk_limits"].get(call.name, 0)
        if limit is not None and targets > limit:
            return "ask", "L3", f"一次涉及 {targets} 个对象，超过上限 {limit}：需要审批人批准"
        if level == "L3":
            return "ask", "L3", "L3：需要审批人批准"
        if level == "L2":
            return "ask", "L2", "L2：需要发起人确认"
        return "allow", "L1", "L1：直接执行"
    except Exception as exc:
        return "deny", None, f"检查出错（{type(exc).__name__}），为安全起见不执行"


ARGS = (check_clearance,)
