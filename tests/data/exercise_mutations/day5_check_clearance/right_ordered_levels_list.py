"""Correct, another style: the levels as an ordered list (rank = position), the rules as early
returns inside a helper, any surprise turned into a deny by one ``try``."""

import json

ORDER = ["L0", "L1", "L2", "L3"]


def _decide(call, user, policy):
    role_level = policy["clearance"].get(user.role) if user is not None else None
    if role_level not in ORDER:
        return "deny", None, "这个角色没有许可级别，不能调用工具"
    tool_level = policy["levels"].get(call.name)
    if tool_level not in ORDER[1:]:
        return "deny", None, f"{call.name} 不在可用的工具里（或者是 L0）"
    if ORDER.index(tool_level) > ORDER.index(role_level):
        return "deny", None, f"{call.name} 需要 {tool_level}，{user.role} 只有 {role_level}"
    arguments = json.loads(call.arguments)
    if type(arguments) is not dict:
        return "deny", None, "参数不是 JSON 对象"
    sizes = [len(v) for v in arguments.values() if type(v) is list]
    limit = policy["bulk_limits"].get(call.name)
    if limit is not None and max(sizes, default=1) > limit:
        return "ask", "L3", f"一次 {max(sizes)} 个对象，超过了 {limit} 个的上限，要审批人批准"
    return {"L1": ("allow", "L1", "L1 直接执行"), "L2": ("ask", "L2", "L2 要发起人确认"),
            "L3": ("ask", "L3", "L3 要审批人批准")}[tool_level]


def check_clearance(call, user, policy):
    try:
        return _decide(call, user, policy)
    except Exception as exc:  # noqa: BLE001
        return "deny", None, f"判断时出错（{type(exc).__name__}），不执行"


ARGS = (check_clearance,)
